package embedgen

import (
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// e2eTree is the tree of the end-to-end test: the small tree and names that
// need care (a .go file, a space, brackets, non-ASCII letters, an element
// starting with "_" in a plain directory), a source that the table must
// quote, and a module graph: js/app.js imports a chunk whose name needs
// escaping, loads js/lazy.js with import() and needs css/site.css.
func e2eTree() []testFile {
	files := smallTree()
	for i := range files {
		if files[i].path == "js/app.js" {
			files[i].imports = []string{"_next/chunk [1].js"}
			files[i].dynamicImports = []string{"js/lazy.js"}
			files[i].css = []string{"css/site.css"}
		}
	}
	return append(files,
		testFile{path: "js/lazy.js", typ: "text/javascript; charset=utf-8", body: "export{}\n", hashed: true},
		testFile{path: "x.go", typ: "text/x-go; charset=utf-8", body: "package broken(\n"},
		testFile{path: "docs/read me.txt", body: "spaces\n", hashed: true},
		testFile{path: "a[1]/b{2}.txt", body: "brackets\n", gzip: true},
		testFile{path: "café/über.txt", body: "letters\n", hashed: true},
		testFile{path: "img/_sprite.svg", typ: "image/svg+xml", body: "<svg/>", source: "\"quoted\tsource\"\n", gzip: true},
	)
}

// TestEndToEnd generates two packages (one per manifest form) from a tree
// into a temporary module that uses this repository's runtime, builds a program that
// imports both, vets them, runs the program and compares its report with
// what the manifest says.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	work := t.TempDir()
	tree := filepath.Join(work, "tree")
	m := writeTree(t, tree, e2eTree())
	mod := filepath.Join(work, "mod")
	app := newAppModule(t, mod, "example.test", "1.26.0")
	main, err := os.ReadFile(filepath.Join("testdata", "e2e", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, mod, "cmd/check/main.go", main)
	for _, o := range []Options{
		{Tree: tree, Dir: filepath.Join(mod, "assets"), ImportPath: "example.test/assets"},
		{Tree: tree, Dir: filepath.Join(mod, "assetsgo"), Manifest: ManifestGo},
	} {
		if err := Generate(o); err != nil {
			t.Fatal(err)
		}
	}

	bin := filepath.Join(work, "check")
	app.goCmd("build", "-o", bin, "./cmd/check")
	// ./... must not reach into _data, where x.go is not Go.
	app.goCmd("vet", "./...")
	got := app.run(bin, filepath.Join(tree, bakefs.ManifestName))
	t.Logf("check printed:\n%s", got)

	var want strings.Builder
	for _, name := range []string{"assets", "assetsgo"} {
		fmt.Fprintf(&want, "%s: %d of %d files match the manifest\n", name, len(m.Files), len(m.Files))
		for _, e := range m.Files {
			hashed := e.Path
			if e.Hashed != "" {
				hashed = e.Hashed
			}
			u := "/static/" + (&url.URL{Path: hashed}).EscapedPath()
			fmt.Fprintf(&want, "%s: GET %s identity: 200 \"\" %s\n", name, u, e.SHA256)
			for _, enc := range e.Encodings {
				fmt.Fprintf(&want, "%s: GET %s %s: 200 %q %s\n", name, u, enc.Name, enc.Name, enc.SHA256)
			}
		}
		app, _ := m.Lookup("js/app.js")
		fmt.Fprintf(&want, "%s: asset /static/%s integrity %s\n", name, app.Hashed, app.Integrity)
		site, _ := m.Lookup("css/site.css")
		fmt.Fprintf(&want, "%s: link </static/%s>; rel=modulepreload, </static/_next/chunk%%20%%5B1%%5D.js>; rel=modulepreload, </static/%s>; rel=preload; as=style\n",
			name, app.Hashed, site.Hashed)
	}
	if got != want.String() {
		t.Errorf("check printed:\n%s\nwant:\n%s", got, want.String())
	}
}
