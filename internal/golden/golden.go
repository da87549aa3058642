// Package golden checks test output against golden files under
// testdata/golden of the package under test.
//
// Run `go test ./PKG -update` to rewrite the golden files from the current
// output. Without -update a difference fails the test, and Main fails the
// run when a golden file was read by no test (a stale one left behind by a
// renamed or deleted test), as esbuild's snapshot tests do.
//
//	func TestMain(m *testing.M) { golden.Main(m) }
//
//	func TestX(t *testing.T) { golden.Check(t, "x/out.js", got) }
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

var (
	mu   sync.Mutex
	used = make(map[string]bool)
)

// Dir is where golden files live, relative to the package under test.
const Dir = "testdata/golden"

// Updating reports whether the run rewrites golden files.
func Updating() bool { return *update }

// Check compares got with the golden file name (slash-separated, under
// Dir), or writes it there under -update. Safe for parallel tests.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	file := filepath.Join(filepath.FromSlash(Dir), filepath.FromSlash(name))
	mu.Lock()
	used[filepath.ToSlash(file)] = true
	mu.Unlock()
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
		t.Fatalf("golden file missing (go test -update writes it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (go test -update refreshes it)\n--- got\n%s\n--- want\n%s", name, clip(got), clip(want))
	}
}

func clip(b []byte) string {
	if len(b) > 4000 {
		return string(b[:4000]) + "…"
	}
	return string(b)
}

// Main runs the tests and then, when every test ran, fails the run if a
// golden file was read by none. It does not return.
func Main(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && fullRun() {
		if stale := staleFiles(); len(stale) > 0 {
			fmt.Fprintf(os.Stderr, "golden files that no test read (delete them, or remove them and run go test -update):\n")
			for _, f := range stale {
				fmt.Fprintf(os.Stderr, "\t%s\n", f)
			}
			code = 1
		}
	}
	os.Exit(code)
}

// fullRun reports whether every test ran, so that unused golden files are
// stale rather than filtered out by -run, -skip, -fuzz or -short.
func fullRun() bool {
	for _, name := range []string{"test.run", "test.skip", "test.fuzz"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return !testing.Short()
}

func staleFiles() []string {
	var stale []string
	filepath.WalkDir(filepath.FromSlash(Dir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !used[filepath.ToSlash(p)] {
			stale = append(stale, p)
		}
		return nil
	})
	sort.Strings(stale)
	return stale
}

// Read marks the golden file name as used and returns its bytes, for tests
// that compare in their own way (images pixel by pixel). A missing file
// fails the test.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	file := filepath.Join(filepath.FromSlash(Dir), filepath.FromSlash(name))
	mu.Lock()
	used[filepath.ToSlash(file)] = true
	mu.Unlock()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("golden file missing (go test -update writes it): %v", err)
	}
	return data
}

// Skip skips t, which would have compared with the golden files names, and
// counts them as read: a test that one build mode leaves out (the race
// detector, say) does not make its golden files stale. A name that does not
// exist fails t, so that Skip cannot hide a file that was deleted.
func Skip(t testing.TB, reason string, names ...string) {
	t.Helper()
	for _, name := range names {
		file := filepath.Join(filepath.FromSlash(Dir), filepath.FromSlash(name))
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("golden file missing (go test -update writes it): %v", err)
		}
		mu.Lock()
		used[filepath.ToSlash(file)] = true
		mu.Unlock()
	}
	t.Skip(reason)
}
