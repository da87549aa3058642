package main

import (
	bakefs "github.com/bakefs/bakefs/fs"
	"net/http"
)

// An assetSource is where the application's files come from: the build
// embedded in the binary (embed.go), or the latest build of the sources on
// disk (dev.go, with the bakefs_dev tag). The tree holds static/, served
// under /static/, and templates/, read by the pages.
type assetSource interface {
	// FS returns the current tree. Hold the result for one request.
	FS() *bakefs.FS
	// Handler returns a handler that serves each request with what
	// newHandler makes from the current tree.
	Handler(newHandler func(*bakefs.FS) (http.Handler, error)) (http.Handler, error)
	// Wrap adds what the source needs around the application's handler.
	Wrap(h http.Handler) http.Handler
	// Mode names the source for people: "production" or "dev".
	Mode() string
	// Served says, in a phrase for the page footer, where the files come from.
	Served() string
	// Close releases the source.
	Close() error
}
