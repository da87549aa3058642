package transform

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestIncremental: runs that share an Incremental and a Cache give, after
// each change, the manifest and bytes of a run without either; unchanged
// jobs and outputs are remembered, a job that read another file is not;
// Run leaves the index files to Cache.Flush.
func TestIncremental(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a:", "in/b.txt": "b:" + string(bytes.Repeat([]byte("x"), 400))})
	side := filepath.Join(root, "side.txt")
	if err := os.WriteFile(side, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"in/a.txt", "in/b.txt", "side.txt"} {
		os.Chtimes(filepath.Join(root, f), old, old)
	}
	in := filepath.Join(root, "in")
	jobs := append(jobsFor(t, in, "test-upper", "gzip"), jobsFor(t, in, "test-side")...)
	jobs[2].Path, jobs[3].Path = "side-a.txt", "side-b.txt"
	cache := &Cache{Dir: t.TempDir()}
	inc := &Incremental{}

	steps := []struct {
		name   string
		change func()
	}{
		{"first run", func() {}},
		{"nothing changed", func() {}},
		{"an input edited", func() {
			os.WriteFile(filepath.Join(in, "a.txt"), []byte("a: edited"), 0o644)
			os.Chtimes(filepath.Join(in, "a.txt"), old.Add(time.Minute), old.Add(time.Minute))
		}},
		{"a dependency edited", func() {
			os.WriteFile(side, []byte("new"), 0o644)
			os.Chtimes(side, old.Add(2*time.Minute), old.Add(2*time.Minute))
		}},
		{"after Reset", func() { inc.Reset() }},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change()
			got, err := (&Pipeline{Root: root, Cache: cache, Incremental: inc}).Run(context.Background(), jobs)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(cache.files().file); !errors.Is(err, iofs.ErrNotExist) {
				t.Errorf("Run wrote the file index (%v); it is the caller's to flush", err)
			}
			want, err := (&Pipeline{Root: root}).Run(context.Background(), jobs)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := EncodeManifest(got.Manifest)
			w, _ := EncodeManifest(want.Manifest)
			if !bytes.Equal(g, w) {
				t.Fatalf("manifest:\n%s\nwant:\n%s", g, w)
			}
			for _, e := range want.Manifest.Files {
				names := []string{e.Path}
				for _, enc := range e.Encodings {
					names = append(names, enc.Path)
				}
				for _, name := range names {
					gb, gerr := got.ReadFile(name)
					wb, werr := want.ReadFile(name)
					if gerr != nil || werr != nil || !bytes.Equal(gb, wb) {
						t.Errorf("ReadFile(%s) = %q, %v; want %q, %v", name, gb, gerr, wb, werr)
					}
				}
			}
			// Both plain jobs are remembered, with their gzip variants;
			// the jobs that read side.txt are not.
			if len(inc.jobs) != 2 || inc.jobs["a.txt"] == nil || inc.jobs["b.txt"] == nil {
				t.Errorf("jobs remembered: %v, want a.txt and b.txt", keys(inc.jobs))
			}
			if len(inc.finished) != 2 {
				t.Errorf("finished outputs remembered: %v, want a.txt and b.txt", keys(inc.finished))
			}
		})
	}
	if err := cache.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cache.files().file); err != nil {
		t.Errorf("Flush wrote no file index: %v", err)
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
