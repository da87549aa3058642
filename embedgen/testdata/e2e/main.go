// Command check exercises the packages that the end-to-end test of embedgen
// generates from one tree, whose manifest is os.Args[1]: it compares each
// package's files and entries with the manifest, serves each through
// httptest, and prints what it saw, one line per check, for the test to
// compare with what it expects.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"

	bakefs "github.com/bakefs/bakefs/fs"

	"example.test/assets"
	"example.test/assetsgo"
)

// pkg is the API of one generated package.
type pkg struct {
	name      string
	fsys      *bakefs.FS
	handler   func(...bakefs.HandlerOption) http.Handler
	path      func(string) string
	integrity func(string) string
	funcMap   func(string) template.FuncMap
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	m, err := bakefs.ParseManifest(raw)
	if err != nil {
		fail(err)
	}
	for _, p := range []pkg{
		{"assets", assets.FS, assets.Handler, assets.Path, assets.Integrity, assets.FuncMap},
		{"assetsgo", assetsgo.FS, assetsgo.Handler, assetsgo.Path, assetsgo.Integrity, assetsgo.FuncMap},
	} {
		check(p, m)
	}
}

func check(p pkg, m *bakefs.Manifest) {
	match := 0
	for _, e := range m.Files {
		got, ok := p.fsys.Entry(e.Path)
		if !ok || !reflect.DeepEqual(got, e) {
			fmt.Printf("%s: entry %q: got %+v, want %+v\n", p.name, e.Path, got, e)
			continue
		}
		b, err := iofs.ReadFile(p.fsys, e.Path)
		if err != nil || sum(b) != e.SHA256 {
			fmt.Printf("%s: read %q: %d bytes, %v\n", p.name, e.Path, len(b), err)
			continue
		}
		if p.integrity(e.Path) != e.Integrity {
			fmt.Printf("%s: integrity %q: %q\n", p.name, e.Path, p.integrity(e.Path))
			continue
		}
		match++
	}
	fmt.Printf("%s: %d of %d files match the manifest\n", p.name, match, len(m.Files))

	srv := httptest.NewServer(p.handler(bakefs.WithPrefix("/static/")))
	defer srv.Close()
	for _, e := range m.Files {
		u := "/static/" + (&url.URL{Path: p.path(e.Path)}).EscapedPath()
		get(p.name, srv.URL, u, "identity")
		for _, enc := range e.Encodings {
			get(p.name, srv.URL, u, enc.Name)
		}
	}

	fm := p.funcMap("/static/")
	src, err := fm["asset"].(func(string) (string, error))("js/app.js")
	if err != nil {
		fail(err)
	}
	sri, err := fm["integrity"].(func(string) (string, error))("js/app.js")
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: asset %s integrity %s\n", p.name, src, sri)

	link, err := p.fsys.PreloadLinkHeader("/static/", "js/app.js")
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: link %s\n", p.name, link)
}

// get requests u accepting only the encoding enc and prints the status,
// Content-Encoding and SHA-256 of the body as sent.
func get(name, base, u, enc string) {
	req, err := http.NewRequest("GET", base+u, nil)
	if err != nil {
		fail(err)
	}
	req.Header.Set("Accept-Encoding", enc)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: GET %s %s: %d %q %s\n", name, u, enc, resp.StatusCode, resp.Header.Get("Content-Encoding"), sum(b))
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "check:", err)
	os.Exit(1)
}
