package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"net/http"

	bakefs "github.com/bakefs/bakefs/fs"
)

// errNoVariant reports a file without the Brotli variant the benchmark
// compares.
var errNoVariant = errors.New("server: file has no br variant")

// handlers are the two ways of serving one file, and its sizes.
type handlers struct {
	bakefs, plain  http.Handler
	size, br, gzip int64 // bytes of the file and of its variants (0: none)
}

// newHandlers loads the bakefs tree and checks that file is in it, with a
// Brotli variant, and that http.FileServer can serve its bytes too.
func newHandlers(tree iofs.FS, file string) (*handlers, error) {
	static, err := bakefs.Load(tree)
	if err != nil {
		return nil, err
	}
	e, ok := static.Entry(file)
	if !ok {
		return nil, &iofs.PathError{Op: "open", Path: file, Err: iofs.ErrNotExist}
	}
	if _, err := iofs.Stat(tree, file); err != nil {
		return nil, err
	}
	h := &handlers{bakefs: static.Handler(), plain: http.FileServer(http.FS(tree)), size: e.Size}
	for _, enc := range e.Encodings {
		switch enc.Name {
		case "br":
			h.br = enc.Size
		case "gzip":
			h.gzip = enc.Size
		}
	}
	if h.br == 0 {
		return nil, fmt.Errorf("%w: %s", errNoVariant, file)
	}
	return h, nil
}
