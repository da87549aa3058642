//go:build !bakefs_dev

package main

import (
	"context"
	"net/http"

	"github.com/bakefs/bakefs/examples/webapp/internal/assets"
	bakefs "github.com/bakefs/bakefs/fs"
)

// openAssets returns the build embedded in the binary: the package that
// bakefs build -f examples/webapp/bakefs.toml writes.
func openAssets(context.Context) (assetSource, error) { return embedded{}, nil }

// embedded is the production assetSource.
type embedded struct{}

func (embedded) FS() *bakefs.FS { return assets.FS }

func (embedded) Handler(newHandler func(*bakefs.FS) (http.Handler, error)) (http.Handler, error) {
	return newHandler(assets.FS)
}

func (embedded) Wrap(h http.Handler) http.Handler { return h }
func (embedded) Mode() string                     { return "production" }
func (embedded) Served() string                   { return "embedded in the binary with //go:embed" }
func (embedded) Close() error                     { return nil }
