package pipeline

import (
	"bytes"
	"context"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
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
			g, _ := bakefs.EncodeManifest(got.Manifest)
			w, _ := bakefs.EncodeManifest(want.Manifest)
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

// TestIncrementalOnlyChanged: with OnlyChanged, a run looks only at the
// files named (the others' stamps come from memory, so an unnamed change
// goes unseen, which is the caller's promise to keep), at every file after
// a run that did not get through or a Reset, and always at a symbolic
// link.
func TestIncrementalOnlyChanged(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a:", "target.txt": "t:"})
	in := filepath.Join(root, "in")
	if err := os.Symlink(filepath.Join(root, "target.txt"), filepath.Join(in, "link.txt")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"in/a.txt", "target.txt"} {
		os.Chtimes(filepath.Join(root, f), old, old)
	}
	jobs := jobsFor(t, in, "test-upper")
	cache := &Cache{Dir: t.TempDir()}
	inc := &Incremental{}
	edit := func(name, text string, minutes int) {
		file := filepath.Join(root, name)
		os.WriteFile(file, []byte(text), 0o644)
		os.Chtimes(file, old.Add(time.Duration(minutes)*time.Minute), old.Add(time.Duration(minutes)*time.Minute))
	}
	steps := []struct {
		name   string
		before func()
		ctx    func() context.Context
		want   map[string]string // output path -> bytes; nil when the run is cancelled
	}{
		{"first run", func() {}, nil, map[string]string{"a.txt": "A:", "link.txt": "T:"}},
		{"an edit not named is not seen", func() {
			edit("in/a.txt", "a: one", 1)
			inc.OnlyChanged(map[string]bool{})
		}, nil, map[string]string{"a.txt": "A:", "link.txt": "T:"}},
		{"the edit named is seen", func() {
			inc.OnlyChanged(map[string]bool{"a.txt": true})
		}, nil, map[string]string{"a.txt": "A: ONE", "link.txt": "T:"}},
		{"a link's target is always looked at", func() {
			edit("target.txt", "t: two", 2)
			inc.OnlyChanged(map[string]bool{})
		}, nil, map[string]string{"a.txt": "A: ONE", "link.txt": "T: TWO"}},
		{"a cancelled run", func() {
			inc.OnlyChanged(map[string]bool{})
		}, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, nil},
		{"after a cancelled run every file is looked at", func() {
			edit("in/a.txt", "a: three", 3)
			inc.OnlyChanged(map[string]bool{})
		}, nil, map[string]string{"a.txt": "A: THREE", "link.txt": "T: TWO"}},
		{"after Reset every file is looked at", func() {
			edit("in/a.txt", "a: four", 4)
			inc.OnlyChanged(map[string]bool{})
			inc.Reset()
		}, nil, map[string]string{"a.txt": "A: FOUR", "link.txt": "T: TWO"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.before()
			ctx := context.Background()
			if st.ctx != nil {
				ctx = st.ctx()
			}
			res, err := (&Pipeline{Root: root, Cache: cache, Incremental: inc}).Run(ctx, jobs)
			if st.want == nil {
				if err == nil {
					t.Fatal("Run of a cancelled context succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range st.want {
				if got, err := res.ReadFile(name); err != nil || string(got) != want {
					t.Errorf("%s = %q, %v; want %q", name, got, err, want)
				}
			}
		})
	}
}
