package pipeline

import (
	bakefs "github.com/bakefs/bakefs/fs"
	"io/fs"
	"sort"
	"strings"
)

// ReadFile returns the bytes of one file of the result's tree: an
// output's identity bytes at its path, or a variant's at its encoding
// path (app.js.br), as WriteTree would write them, so that a caller that
// keeps its own copies of earlier trees (dev mode) fetches only the files
// it has not seen. Bytes that the run let go are read back from the cache,
// verified.
//
// A name that is not a file of the tree fails with a *fs.PathError with Op
// "open" and fs.ErrNotExist; a blob of the cache found missing or damaged
// removes its entry and fails with an error wrapping ErrCacheDamaged, as
// WriteTree does: the next run makes those bytes anew.
func (r *Result) ReadFile(name string) ([]byte, error) {
	if o := r.outputAt(name); o != nil {
		return fetchEntry(o.data, o.blob, r.cache, o.key)
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if o := r.outputAt(name[:i]); o != nil {
			for _, e := range o.encodings {
				if suffix, _ := bakefs.EncodingSuffix(e.name); o.Path+suffix == name {
					return fetchEntry(e.data, e.blob, r.cache, e.key)
				}
			}
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// outputAt returns the output whose path is name, or nil.
func (r *Result) outputAt(name string) *output {
	i := sort.Search(len(r.outputs), func(i int) bool { return r.outputs[i].Path >= name })
	if i < len(r.outputs) && r.outputs[i].Path == name {
		return r.outputs[i]
	}
	return nil
}
