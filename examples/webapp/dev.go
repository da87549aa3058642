//go:build bakefs_dev

package main

import (
	"context"
	"flag"
	"net/http"

	"github.com/bakefs/bakefs/dev"
	bakefs "github.com/bakefs/bakefs/fs"
)

var projectFile = flag.String("project", "examples/webapp/bakefs.toml", "bakefs project `file` to build and watch (dev builds only)")

// openAssets starts the dev server on the project file: the sources are
// built into a temporary tree, rebuilt on change, and the browser reloads.
func openAssets(ctx context.Context) (assetSource, error) {
	srv, err := dev.New(*projectFile, dev.Options{})
	if err != nil {
		return nil, err
	}
	go srv.Run(ctx)
	return devSource{srv}, nil
}

// devSource is the development assetSource.
type devSource struct{ srv *dev.Server }

func (d devSource) FS() *bakefs.FS { return d.srv.FS() }

func (d devSource) Handler(newHandler func(*bakefs.FS) (http.Handler, error)) (http.Handler, error) {
	return d.srv.Handler(newHandler), nil
}

func (d devSource) Wrap(h http.Handler) http.Handler { return d.srv.Middleware(h) }
func (d devSource) Mode() string                     { return "dev" }
func (d devSource) Served() string                   { return "built from the sources on disk by the dev server" }
func (d devSource) Close() error                     { return d.srv.Close() }
