package fs_test

import (
	"bytes"
	"embed"
	"flag"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
)

// embedded is a real output tree compiled into the test binary, as the
// generated package embeds one. It is testdata/embed, written from
// embedFiles by `go test ./fs -run TestEmbed -update`.
//
//go:embed all:testdata/embed
var embedded embed.FS

var update = flag.Bool("update", false, "rewrite testdata/embed from embedFiles")

// embedFiles use the stored br and zstd encodings only, whose bytes do not
// depend on a compressor's version.
var embedFiles = []treeFile{
	{path: "index.html", typ: typeHTML, data: "<!doctype html><title>embedded</title>\n", encodings: []string{"br"}},
	{path: "js/app.js", typ: typeJS, data: "console.log('embedded')\n", hashed: true, encodings: []string{"br", "zstd"}},
}

func TestEmbed(t *testing.T) {
	tree, _ := buildTree(embedFiles)
	if *update {
		dir := filepath.Join("testdata", "embed")
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, tree); err != nil {
			t.Fatal(err)
		}
		t.Skip("testdata/embed rewritten; run the tests again to use it")
	}
	data, err := iofs.Sub(embedded, "testdata/embed")
	if err != nil {
		t.Fatal(err)
	}
	// The committed tree is exactly what embedFiles give.
	var names []string
	iofs.WalkDir(data, ".", func(p string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	want := slices.Sorted(func(yield func(string) bool) {
		for name := range tree {
			if !yield(name) {
				return
			}
		}
	})
	if !slices.Equal(names, want) {
		t.Fatalf("testdata/embed holds %q, want %q (run with -update)", names, want)
	}
	for _, name := range names {
		if b, _ := iofs.ReadFile(data, name); !bytes.Equal(b, tree[name].Data) {
			t.Fatalf("testdata/embed/%s is stale (run with -update)", name)
		}
	}

	fsys, err := bakefs.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "index.html", "js/app.js"); err != nil {
		t.Fatal(err)
	}
	h := fsys.Handler(bakefs.WithPrefix("/static/"))
	req := httptest.NewRequest("GET", "/static/"+fsys.Path("js/app.js"), nil)
	req.Header.Set("Accept-Encoding", "zstd, br;q=0.5")
	rec := newRecorder()
	allocs := testing.AllocsPerRun(50, func() {
		rec.reset()
		h.ServeHTTP(rec, req)
	})
	if rec.code != 200 || rec.h.Get("Content-Encoding") != "zstd" || !bytes.Equal(rec.body.Bytes(), tree["js/app.js.zst"].Data) {
		t.Errorf("served %d %q, %d bytes", rec.code, rec.h.Get("Content-Encoding"), rec.body.Len())
	}
	if allocs != 0 && !raceEnabled {
		t.Errorf("%v allocations per request from an embed.FS, want 0", allocs)
	}
}
