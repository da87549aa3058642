package transform

// A Joiner is a step that runs once on all the inputs of a rule together,
// rather than on each input alone: a bundle with code splitting, whose
// entries share chunks. A pipeline gives a chain whose steps include a
// Joiner that joins one job with every input of the rule (see
// pipeline.Job.Group); other steps of the chain still treat each asset
// on its own.
type Joiner interface {
	// Joins reports whether the step, with its options, wants the
	// inputs together.
	Joins() bool
}

// Joins reports whether a content step of c is a Joiner that joins.
func (c Chain) Joins() bool {
	for _, s := range c {
		if j, ok := s.Step.(Joiner); ok && s.Kind == Content && j.Joins() {
			return true
		}
	}
	return false
}
