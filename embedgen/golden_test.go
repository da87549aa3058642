package embedgen

import (
	"bytes"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// Golden files live under testdata/golden. Run `go test ./embedgen -update`
// to rewrite them from the current output; without -update a difference
// fails the test, and so does a golden file that no test read (a stale one
// left behind by a renamed or deleted test).
var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

var (
	goldenMu   sync.Mutex
	goldenUsed = make(map[string]bool)
)

// checkGolden compares got with testdata/golden/name, or writes it there
// under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", "golden", filepath.FromSlash(name))
	goldenMu.Lock()
	goldenUsed[filepath.ToSlash(file)] = true
	goldenMu.Unlock()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("golden file missing (run go test ./embedgen -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (go test ./embedgen -update refreshes it)\n--- got\n%s\n--- want\n%s", name, clip(got), clip(want))
	}
}

func clip(b []byte) string {
	if len(b) > 4000 {
		return string(b[:4000]) + "…"
	}
	return string(b)
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && fullRun() {
		if stale := staleGoldens(); len(stale) > 0 {
			fmt.Fprintf(os.Stderr, "golden files that no test read (delete them, or remove them and run go test ./embedgen -update):\n")
			for _, f := range stale {
				fmt.Fprintf(os.Stderr, "\t%s\n", f)
			}
			code = 1
		}
	}
	os.Exit(code)
}

// fullRun reports whether every test ran, so that unused goldens are stale
// rather than merely filtered out by -run or -skip.
func fullRun() bool {
	for _, name := range []string{"test.run", "test.skip", "test.fuzz"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

func staleGoldens() []string {
	var stale []string
	root := filepath.Join("testdata", "golden")
	filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !goldenUsed[filepath.ToSlash(p)] {
			stale = append(stale, p)
		}
		return nil
	})
	sort.Strings(stale)
	return stale
}
