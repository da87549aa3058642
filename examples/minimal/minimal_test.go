package main

import (
	"bytes"
	"context"
	"io"
	iofs "io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/embedgen"
	"github.com/bakefs/bakefs/examples/minimal/assets"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// TestAssetsUpToDate builds the project again, without a cache, into a
// temporary directory and checks that the committed package in assets/ has
// the same files with the same bytes.
func TestAssetsUpToDate(t *testing.T) {
	p, err := project.Load("bakefs.toml")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&pipeline.Pipeline{Root: p.Src, Profile: p.Profile}).Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	tree, pkg := filepath.Join(tmp, "tree"), filepath.Join(tmp, "assets")
	if _, err := res.WriteTree(tree); err != nil {
		t.Fatal(err)
	}
	if err := embedgen.Generate(embedgen.Options{Tree: tree, Dir: pkg, Package: p.Package.Name, ImportPath: p.Package.ImportPath}); err != nil {
		t.Fatal(err)
	}
	want, got := readTree(t, pkg), readTree(t, p.Package.Dir)
	const fix = "examples/minimal/assets is stale: run go run ./cmd/bakefs build -f examples/minimal/bakefs.toml"
	for _, name := range slices.Sorted(maps.Keys(want)) {
		have, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: missing (%s)", name, fix)
		case !bytes.Equal(have, want[name]):
			t.Errorf("%s: differs from a fresh build (%s)", name, fix)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not written by a fresh build (%s)", name, fix)
		}
	}
}

// readTree reads every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte)
	err := filepath.WalkDir(dir, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestHandler serves the embedded files as main does.
func TestHandler(t *testing.T) {
	h := assets.Handler(bakefs.WithIndex("index.html"))
	tests := []struct {
		name, path, acceptEncoding string
		wantType, wantEncoding     string
		wantBody                   string // in the decoded body; checked for identity responses
	}{
		{"index", "/", "", "text/html; charset=utf-8", "", "Hello from an embedded, precompressed page"},
		{"script, Brotli", "/app.js", "gzip, br", "text/javascript; charset=utf-8", "br", ""},
		{"script, identity", "/app.js", "", "text/javascript; charset=utf-8", "", "setInterval"},
		{"stylesheet", "/style.css", "br", "text/css; charset=utf-8", "br", ""},
		{"the TypeScript source is not served", "/app.ts", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if tt.wantType == "" {
				if res.StatusCode != http.StatusNotFound {
					t.Errorf("status %d, want 404", res.StatusCode)
				}
				return
			}
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			if ct := res.Header.Get("Content-Type"); ct != tt.wantType {
				t.Errorf("Content-Type %q, want %q", ct, tt.wantType)
			}
			if ce := res.Header.Get("Content-Encoding"); ce != tt.wantEncoding {
				t.Errorf("Content-Encoding %q, want %q", ce, tt.wantEncoding)
			}
			if tt.wantBody != "" && !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("body lacks %q:\n%s", tt.wantBody, body)
			}
		})
	}
}
