package pipeline

import "slices"

// A ModuleGraph is what a JavaScript output of a bundle with code
// splitting imports, by logical path (transform.Asset.Imports and the
// rest): carried from the asset to the cache and the manifest. It is
// exported, and embedded so, for gob, which skips unexported fields (the
// entry index).
type ModuleGraph struct {
	Imports        []string `json:"imports,omitempty"`
	DynamicImports []string `json:"dynamicImports,omitempty"`
	CSS            []string `json:"css,omitempty"`
}

func (g ModuleGraph) equal(h ModuleGraph) bool {
	return slices.Equal(g.Imports, h.Imports) && slices.Equal(g.DynamicImports, h.DynamicImports) && slices.Equal(g.CSS, h.CSS)
}
