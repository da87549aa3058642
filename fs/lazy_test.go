package fs_test

import (
	"errors"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	bakefs "github.com/bakefs/bakefs/fs"
)

// countingLoad returns a load function for NewLazy that gives m and
// counts its calls.
func countingLoad(m *bakefs.Manifest, calls *atomic.Int32) func() (*bakefs.Manifest, error) {
	return func() (*bakefs.Manifest, error) {
		calls.Add(1)
		return m, nil
	}
}

func TestNewLazyBuildsOnFirstUse(t *testing.T) {
	tree, m := buildTree(testFiles)
	var calls atomic.Int32
	fsys := bakefs.NewLazy(tree, countingLoad(m, &calls))
	if calls.Load() != 0 {
		t.Fatal("NewLazy read the manifest")
	}
	sub, err := fsys.Sub("js")
	if err != nil {
		t.Fatal(err)
	}
	// Every first use at once, from several goroutines: one load.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := iofs.ReadFile(sub, "app.js"); err != nil {
				t.Error(err)
			}
			fsys.Path("js/app.js")
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("load called %d times, want 1", n)
	}
	eager, err := bakefs.New(tree, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range testLogical() {
		a, errA := fsys.ReadFile(name)
		b, errB := eager.ReadFile(name)
		if string(a) != string(b) || (errA == nil) != (errB == nil) {
			t.Errorf("%s: lazy and eager FS differ", name)
		}
		if fsys.Path(name) != eager.Path(name) {
			t.Errorf("Path(%s): %s, eager %s", name, fsys.Path(name), eager.Path(name))
		}
	}
	srv := httptest.NewServer(bakefs.NewLazy(tree, countingLoad(m, new(atomic.Int32))).Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want, _ := eager.ReadFile("js/app.js"); resp.StatusCode != 200 || string(body) != string(want) {
		t.Fatalf("the handler of a lazy FS: %d %q", resp.StatusCode, body)
	}
}

func TestNewLazyBadManifest(t *testing.T) {
	tree, m := buildTree(testFiles)
	bad := *m
	bad.Files = append([]bakefs.Entry(nil), m.Files...)
	bad.Files[0], bad.Files[1] = bad.Files[1], bad.Files[0] // unsorted
	failing := errors.New("table damaged")
	for name, load := range map[string]func() (*bakefs.Manifest, error){
		"invalid":     func() (*bakefs.Manifest, error) { return &bad, nil },
		"load failed": func() (*bakefs.Manifest, error) { return nil, failing },
	} {
		t.Run(name, func(t *testing.T) {
			fsys := bakefs.NewLazy(tree, load)
			err := fsys.Verify()
			if !errors.Is(err, bakefs.ErrManifest) || name == "load failed" && !errors.Is(err, failing) {
				t.Fatalf("Verify = %v, want ErrManifest", err)
			}
			defer func() {
				r := recover()
				if e, ok := r.(error); !ok || !errors.Is(e, bakefs.ErrManifest) {
					t.Fatalf("first use recovered %v, want a panic with ErrManifest", r)
				}
			}()
			fsys.Open("js/app.js")
			t.Fatal("first use of a bad manifest did not panic")
		})
	}
}

func TestVerify(t *testing.T) {
	tree, m := buildTree(testFiles)
	fsys := bakefs.NewLazy(tree, countingLoad(m, new(atomic.Int32)))
	if err := fsys.Verify(); err != nil {
		t.Fatalf("Verify of a good tree: %v", err)
	}
	file, variant := m.Files[0].Path, entryWithEncoding(t, m).Encodings[0].Path
	for _, c := range []struct {
		name, file string
		damage     func(fstest.MapFS)
	}{
		{"missing file", file, func(d fstest.MapFS) { delete(d, file) }},
		{"short file", file, func(d fstest.MapFS) { d[file] = &fstest.MapFile{Data: []byte("x")} }},
		{"missing variant", variant, func(d fstest.MapFS) { delete(d, variant) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			damaged := fstest.MapFS{}
			for k, v := range tree {
				damaged[k] = v
			}
			c.damage(damaged)
			err := bakefs.NewLazy(damaged, countingLoad(m, new(atomic.Int32))).Verify()
			if !errors.Is(err, bakefs.ErrTree) || !strings.Contains(err.Error(), c.file) {
				t.Fatalf("Verify = %v, want ErrTree naming %s", err, c.file)
			}
		})
	}
}

// entryWithEncoding returns the first entry of m that has a variant.
func entryWithEncoding(t *testing.T, m *bakefs.Manifest) *bakefs.Entry {
	for i := range m.Files {
		if len(m.Files[i].Encodings) > 0 {
			return &m.Files[i]
		}
	}
	t.Fatal("no entry with a variant")
	return nil
}
