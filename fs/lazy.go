package fs

import (
	"fmt"
	iofs "io/fs"
	"sync"
)

// A source holds the tree of an FS and of every FS made from it (Sub,
// With). For an FS of NewLazy it builds the tree when one of them is first
// used; for the others it holds a tree built already.
type source struct {
	once sync.Once
	load func() (*tree, error)
	t    *tree
	err  error
}

// builtSource returns the source of a tree built already.
func builtSource(t *tree) *source {
	s := &source{t: t}
	s.once.Do(func() {})
	return s
}

// get builds the tree once, and returns it or the error of building it.
func (s *source) get() (*tree, error) {
	s.once.Do(func() {
		s.t, s.err = s.load()
		s.load = nil
	})
	return s.t, s.err
}

// tree returns the tree of f, building it on first use. An FS of NewLazy
// whose manifest does not load or validate panics here, with the error.
func (f *FS) tree() *tree {
	t, err := f.src.get()
	if err != nil {
		panic(err)
	}
	return t
}

// NewLazy returns the FS of the output tree data whose manifest load
// returns, as NewVerified does, but reads the manifest and builds the
// directory listings, lookup tables and response headers only when the
// FS, or one made from it (Sub, With, Handler, FuncMap), is first used:
// NewLazy itself does nothing but keep its arguments, so that a program
// that embeds thousands of files starts without paying for them. load is
// called once, from whichever goroutine gets there first; the others
// wait for it.
//
// It is for trees checked against their manifest when they were written,
// as the packages of the embed generator are. A manifest that load fails
// to give, or that is invalid, makes that first use panic, with an error
// wrapping ErrManifest or load's; Verify reports the same as an error,
// and also checks the files of data against the manifest, for a program
// or a test that wants to know at once.
func NewLazy(data iofs.FS, load func() (*Manifest, error)) *FS {
	return &FS{src: &source{load: func() (*tree, error) {
		m, err := load()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrManifest, err)
		}
		return newTree(data, m, false)
	}}}
}
