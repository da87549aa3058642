package transform

// An Absorber is a step that can do the work of the step after it in its
// own pass: typescript or bundle followed by minify minify in the same
// esbuild call, so that "bundle" then "minify" gives the bytes of
// "bundle:minify=true" in one pass instead of two, and source maps describe
// the minified code.
//
// Absorption follows from the chain's text and changes only which step
// does the work: a chain's names, versions, options and cache key stay
// those of its text, and the absorbed step still runs, on what the
// absorber passed through untouched.
type Absorber interface {
	// Absorb returns a step that does its own work and next's on what it
	// writes, marking those assets with Asset.Absorbed = next, and whether
	// it can; it does not change the receiver.
	Absorb(next Step) (Step, bool)
}

// absorb replaces every step of chain that can absorb the step after it
// with the step that does both. It changes the chain's steps in place, not
// their names, versions or options.
func absorb(chain Chain) {
	for i := 1; i < len(chain); i++ {
		a, ok := chain[i-1].Step.(Absorber)
		if !ok {
			continue
		}
		if both, ok := a.Absorb(chain[i].Step); ok {
			prev := *chain[i-1]
			prev.Step = both
			chain[i-1] = &prev
		}
	}
}
