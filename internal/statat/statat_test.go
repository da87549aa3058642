package statat

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func write(t *testing.T, file, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRegularSize(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.txt"), "hello")
	write(t, filepath.Join(root, "css", "site.css"), "body{}")
	write(t, filepath.Join(root, "css", "deep", "x.js"), "")
	if err := os.Mkdir(filepath.Join(root, "dir.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("site.css", filepath.Join(root, "css", "link.css")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	tree := New(root)
	defer tree.Close()
	for _, c := range []struct {
		name    string
		size    int64
		regular bool
	}{
		{"a.txt", 5, true},
		{"css/site.css", 6, true},
		{"css/deep/x.js", 0, true},
		{"css/link.css", 6, true}, // followed, as os.Stat does
		{"dir.txt", 0, false},
		{"missing.txt", 0, false},
		{"nodir/a.txt", 0, false},
		{"a.txt/b", 0, false},
		{"dangling", 0, false},
	} {
		size, regular := tree.RegularSize(c.name)
		if regular != c.regular || regular && size != c.size {
			t.Errorf("RegularSize(%q) = %d, %v; want %d, %v", c.name, size, regular, c.size, c.regular)
		}
	}
}

// TestSeesChanges checks that a handle kept open still sees what happens
// in its directory afterwards: a file that grows, one that is removed,
// one that is added.
func TestSeesChanges(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "d", "f")
	write(t, file, "1")
	tree := New(root)
	defer tree.Close()
	if size, ok := tree.RegularSize("d/f"); !ok || size != 1 {
		t.Fatalf("first stat: %d, %v", size, ok)
	}
	write(t, file, "123")
	if size, ok := tree.RegularSize("d/f"); !ok || size != 3 {
		t.Errorf("after a write: %d, %v; want 3, true", size, ok)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, ok := tree.RegularSize("d/f"); ok {
		t.Error("a removed file is still regular")
	}
	write(t, filepath.Join(root, "d", "g"), "ab")
	if size, ok := tree.RegularSize("d/g"); !ok || size != 2 {
		t.Errorf("an added file: %d, %v; want 2, true", size, ok)
	}
}

// TestDirectoriesInTurn: names that go back to a directory left before
// are stat'ed there again.
func TestDirectoriesInTurn(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a", "1"), "1")
	write(t, filepath.Join(root, "a", "b", "2"), "22")
	write(t, filepath.Join(root, "a", "3"), "333")
	write(t, filepath.Join(root, "4"), "4444")
	tree := New(root)
	defer tree.Close()
	for _, c := range []struct {
		name string
		size int64
	}{{"a/1", 1}, {"a/b/2", 2}, {"a/3", 3}, {"4", 4}, {"a/1", 1}} {
		if size, ok := tree.RegularSize(c.name); !ok || size != c.size {
			t.Errorf("%s: %d, %v; want %d, true", c.name, size, ok, c.size)
		}
	}
}

// TestOneTreePerGoroutine: Trees of one root used at once, one per
// goroutine, each see every file.
func TestOneTreePerGoroutine(t *testing.T) {
	root := t.TempDir()
	const dirs, files = 8, 20
	for d := range dirs {
		for f := range files {
			write(t, filepath.Join(root, fmt.Sprint(d), fmt.Sprint(f)), fmt.Sprint(d*files+f))
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			tree := New(root)
			defer tree.Close()
			for i := range dirs * files {
				d, f := (i/files+w)%dirs, i%files
				want := int64(len(fmt.Sprint(d*files + f)))
				if size, ok := tree.RegularSize(fmt.Sprintf("%d/%d", d, f)); !ok || size != want {
					t.Errorf("%d/%d: %d, %v; want %d, true", d, f, size, ok, want)
				}
			}
		})
	}
	wg.Wait()
}
