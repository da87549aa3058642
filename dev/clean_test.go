package dev

import (
	"bytes"
	"context"
	"errors"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
)

// cleanProject has pages, a style sheet and an image they refer to
// (hashed names, so the rewrite pass runs), a bundle with an import (and,
// after an edit, an import() and so chunks), and two compressions.
var cleanProject = map[string]string{
	"bakefs.toml": `
src      = "web"
out      = "build"
cache    = ".cache"
compress = ["br", "gzip"]
hash     = true

[[rule]]
match = "app.ts"
steps = ["bundle"]

[[rule]]
match = ["**/*.html", "**/*.css", "**/*.svg"]
steps = ["minify"]
`,
	"web/app.ts":       "import { msg } from \"./msg\";\ndocument.title = msg;\n",
	"web/msg.ts":       "export const msg: string = \"one\";\n",
	"web/index.html":   "<!doctype html>\n<html><head><link rel=\"stylesheet\" href=\"css/site.css\"><script src=\"app.js\"></script></head>\n<body>\n  <p>index   page " + strings.Repeat("with words ", 30) + "</p>\n</body></html>\n",
	"web/about.html":   "<!doctype html>\n<html><head><link rel=\"stylesheet\" href=\"css/site.css\"></head>\n<body>\n  <img src=\"img/logo.svg\"><p>about   page " + strings.Repeat("more words ", 30) + "</p>\n</body></html>\n",
	"web/css/site.css": "body {\n  background: url(../img/logo.svg);\n  color: #333333;\n}\n/* " + strings.Repeat("padding ", 40) + "*/\n",
	"web/img/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\n  <rect width=\"10\" height=\"10\" fill=\"#ff0000\"/>\n</svg>\n",
}

// TestEditServesCleanBuild: after each change to the sources, the rebuilt
// FS serves, for every file and every variant, the bytes of a clean build
// of the same sources with the same manifest. The sources are dated an
// hour back, as files that were not just written are, so that the
// rebuilds take unchanged files from memory. The store keeps the files of
// the rebuilds in memory, or (after the first build) on disk.
func TestEditServesCleanBuild(t *testing.T) {
	for _, onDisk := range []bool{false, true} {
		name := "in memory"
		if onDisk {
			name = "on disk"
		}
		t.Run(name, func(t *testing.T) { testEditServesCleanBuild(t, onDisk) })
	}
}

func testEditServesCleanBuild(t *testing.T, onDisk bool) {
	file := writeProject(t, cleanProject)
	root := filepath.Dir(file)
	old := time.Now().Add(-time.Hour)
	date := func(name string, mtime time.Time) {
		if err := os.Chtimes(filepath.Join(root, name), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	for name := range cleanProject {
		date(name, old)
	}
	s, log := newTestServer(t, file, Options{})
	if err := s.Err(); err != nil {
		t.Fatalf("first build: %v", err)
	}
	if onDisk {
		s.store.maxAdd = -1
	}
	compareClean(t, s, file)

	steps := []struct {
		name   string
		change func(t *testing.T)
		after  func(t *testing.T) // more checks of the rebuilt FS, or nil
	}{
		{"a page edited", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/about.html"), strings.Replace(cleanProject["web/about.html"], "about", "edited", 1))
			date("web/about.html", old.Add(time.Minute))
		}, nil},
		{"a sheet that pages name edited", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/css/site.css"), strings.Replace(cleanProject["web/css/site.css"], "#333333", "#444444", 1))
			date("web/css/site.css", old.Add(2*time.Minute))
		}, nil},
		{"an image that the sheet names edited", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/img/logo.svg"), strings.Replace(cleanProject["web/img/logo.svg"], "#ff0000", "#00ff00", 1))
			date("web/img/logo.svg", old.Add(3*time.Minute))
		}, nil},
		{"a module the bundle imports edited", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/msg.ts"), "export const msg: string = \"two\";\n")
			date("web/msg.ts", old.Add(4*time.Minute))
		}, nil},
		{"a module loaded with import() added", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/later.ts"), "import { msg } from \"./msg\";\nexport const later = msg + \" later\";\n")
			writeFile(t, filepath.Join(root, "web/app.ts"), cleanProject["web/app.ts"]+"export const load = () => import(\"./later\");\n")
			date("web/later.ts", old.Add(5*time.Minute))
			date("web/app.ts", old.Add(5*time.Minute))
		}, func(t *testing.T) {
			if m, err := iofs.Glob(s.FS(), "later-*.js"); err != nil || len(m) != 1 {
				t.Errorf("the rebuilt FS has %q (%v) for later-*.js, want the chunk of import()", m, err)
			}
		}},
		{"a page added", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/new.html"), "<!doctype html>\n<p>new   page</p>\n")
			date("web/new.html", old)
		}, nil},
		{"a page removed", func(t *testing.T) {
			if err := os.Remove(filepath.Join(root, "web/about.html")); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"the cache removed under the server", func(t *testing.T) {
			if err := os.RemoveAll(filepath.Join(root, ".cache")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(root, "web/css/site.css"), strings.Replace(cleanProject["web/css/site.css"], "#333333", "#555555", 1))
			date("web/css/site.css", old.Add(5*time.Minute))
		}, nil},
		{"a page edited within the racy window", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/index.html"), strings.Replace(cleanProject["web/index.html"], "index", "fresh", 1))
		}, nil},
		{"the same page edited again, same size", func(t *testing.T) {
			writeFile(t, filepath.Join(root, "web/index.html"), strings.Replace(cleanProject["web/index.html"], "index", "again", 1))
		}, nil},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			gen := s.Generation()
			st.change(t)
			if err := s.Rebuild(context.Background()); err != nil {
				t.Fatalf("Rebuild = %v; log:\n%s", err, log)
			}
			if s.Generation() != gen+1 {
				t.Errorf("Generation = %d, want %d", s.Generation(), gen+1)
			}
			compareClean(t, s, file)
			checkStore(t, s)
			if st.after != nil {
				st.after(t)
			}
		})
	}
	t.Run("nothing changed", func(t *testing.T) {
		gen := s.Generation()
		if err := s.Rebuild(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s.Generation() != gen {
			t.Errorf("Generation = %d, want %d", s.Generation(), gen)
		}
		checkStore(t, s)
	})
}

// checkStore checks that the store holds the files of the builds it keeps,
// the current and the one before, and no other.
func checkStore(t *testing.T, s *Server) {
	t.Helper()
	if len(s.trees) != 2 {
		t.Fatalf("the store keeps %d trees, want 2", len(s.trees))
	}
	want := make(map[string]bool)
	names, refs := 0, 0
	for _, tree := range s.trees {
		tree.each(func(_, sum string, _ int64) {
			want[sum] = true
			names++
		})
	}
	for _, n := range s.store.refs {
		refs += n
	}
	if refs != names {
		t.Errorf("the store counts %d uses of its files, want %d", refs, names)
	}
	entries, err := os.ReadDir(s.store.dir)
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		t.Fatal(err)
	}
	got := make(map[string]bool)
	var held []string
	for _, e := range entries {
		held = append(held, e.Name())
	}
	for sum := range s.store.mem {
		held = append(held, sum)
	}
	for _, name := range held {
		if got[name] {
			t.Errorf("the store holds %s both in memory and on disk", name)
		}
		got[name] = true
		if !want[name] {
			t.Errorf("the store holds %s, which no build it keeps has", name)
		}
	}
	for sum := range want {
		if !got[sum] {
			t.Errorf("the store lacks %s", sum)
		}
	}
}

// compareClean builds the project file anew, without a cache or memory,
// into a tree, and checks that s serves that tree: the same manifest, and
// the bytes of every file and variant through the runtime handler.
func compareClean(t *testing.T, s *Server, file string) {
	t.Helper()
	p, err := project.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := withSourcemaps(p); err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	pipe := &pipeline.Pipeline{Root: p.Src, Profile: transform.Dev, Base: p.Base, Strict: p.Strict}
	res, err := pipe.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(t.TempDir(), "tree")
	if _, err := res.WriteTree(tree); err != nil {
		t.Fatal(err)
	}
	want, err := bakefs.EncodeManifest(res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bakefs.EncodeManifest(s.cur.Load().manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("manifest served:\n%s\nclean build's:\n%s", got, want)
	}
	h := s.FS().Handler()
	serve := func(name, coding string) []byte {
		req := httptest.NewRequest("GET", "/"+name, nil)
		req.Header.Set("Accept-Encoding", coding)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("GET /%s with Accept-Encoding %q: %d", name, coding, rec.Code)
		}
		b, _ := io.ReadAll(rec.Body)
		return b
	}
	compare := func(served []byte, name string) {
		clean, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(served, clean) {
			t.Errorf("%s: served %d bytes that differ from the clean build's %d", name, len(served), len(clean))
		}
	}
	for _, e := range res.Manifest.Files {
		compare(serve(e.Path, "identity"), e.Path)
		for _, enc := range e.Encodings {
			compare(serve(e.Path, enc.Name), enc.Path)
		}
	}
}
