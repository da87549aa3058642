package transform

// A minify step right after a step that runs esbuild on JavaScript or CSS
// (bundle, typescript, jsx, tsx) is fused into it: the earlier step
// minifies in the same esbuild call, and marks what it wrote so that the
// minify step passes it through. "bundle" then "minify" gives the bytes of
// "bundle:minify=true" (its imported files, named by esbuild after their
// bytes, are left as they are too) in one esbuild pass instead of two, and
// its source maps describe the minified code. The minify step still
// minifies everything the earlier step passed through (HTML, SVG, JSON,
// JavaScript that typescript does not read). Fusion needs the two steps to
// agree on the target.

// fusable is a step that can take over a following minify step's work on
// what it writes.
type fusable interface {
	// fuseMinify returns the step that also minifies as m would, and
	// whether it can.
	fuseMinify(m *minifyStep) (Step, bool)
}

// fuseMinify fuses every minify step of chain into the step before it
// where that step allows it. It changes the chain's steps in place, not
// their names, versions or options: the chain's text (and cache key) says
// what it does, and fusion follows from the text.
func fuseMinify(chain Chain) {
	for i := 1; i < len(chain); i++ {
		m, ok := chain[i].Step.(*minifyStep)
		if !ok {
			continue
		}
		f, ok := chain[i-1].Step.(fusable)
		if !ok {
			continue
		}
		if fused, ok := f.fuseMinify(m); ok {
			prev := *chain[i-1]
			prev.Step = fused
			chain[i-1] = &prev
		}
	}
}
