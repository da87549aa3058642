package dev_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/bakefs/bakefs/dev"
)

// A Server builds the project when it starts; FS serves the result.
func ExampleServer() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "web"), 0o755)
	os.WriteFile(filepath.Join(dir, "web", "index.html"), []byte("<p>Hello,   world</p>\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bakefs.toml"), []byte(`
src   = "web"
out   = "build"
cache = ""
[[rule]]
match = "*.html"
steps = ["minify"]
`), 0o644)

	srv, err := dev.New(filepath.Join(dir, "bakefs.toml"), dev.Options{Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	page, err := srv.FS().ReadFile("index.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("build %d: %s", srv.Generation(), page)
	// Output: build 1: <p>Hello, world</p>
}
