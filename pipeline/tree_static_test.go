package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
)

// TestTreeStaticNames: a hashed file and its variant are in the tree
// under their hashed names too, as hard links of the same file; the
// manifest does not list them; a tree that lacks one is made complete
// again, and one that has them is left as it is.
func TestTreeStaticNames(t *testing.T) {
	root := writeSources(t, sampleSources)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-mark"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	e := res.Manifest.Files[0]
	if e.Hashed == "" || len(e.Encodings) != 1 {
		t.Fatalf("entry %+v: want a hashed name and one variant", e)
	}
	for of, name := range map[string]string{e.Path: e.Hashed, e.Encodings[0].Path: e.Hashed + ".gz"} {
		a, errA := os.Stat(filepath.Join(out, filepath.FromSlash(of)))
		b, errB := os.Stat(filepath.Join(out, filepath.FromSlash(name)))
		if errA != nil || errB != nil {
			t.Fatalf("%s and %s: %v, %v", of, name, errA, errB)
		}
		if !os.SameFile(a, b) {
			t.Errorf("%s is not a hard link of %s", name, of)
		}
		if a.Sys().(*syscall.Stat_t).Nlink != 2 {
			t.Errorf("%s has %d links, want 2", of, a.Sys().(*syscall.Stat_t).Nlink)
		}
	}
	for _, f := range res.Manifest.Files {
		if f.Path == e.Hashed {
			t.Errorf("the manifest lists the hashed name %s as a file", e.Hashed)
		}
	}
	if changed, err := res.WriteTree(out); err != nil || changed {
		t.Fatalf("second write: changed %v, %v; want nothing changed", changed, err)
	}
	hashed := filepath.Join(out, filepath.FromSlash(e.Hashed))
	if err := os.Remove(hashed); err != nil {
		t.Fatal(err)
	}
	if changed, err := res.WriteTree(out); err != nil || !changed {
		t.Fatalf("write after a hashed name was removed: changed %v, %v; want the tree made anew", changed, err)
	}
	if _, err := os.Stat(hashed); err != nil {
		t.Fatalf("the hashed name is still missing: %v", err)
	}
	// A second name that is no longer a regular file is not in the tree
	// either (the check lists directories for them instead of a stat).
	if err := os.Remove(hashed); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(out, filepath.FromSlash(e.Path)), hashed); err != nil {
		t.Fatal(err)
	}
	if changed, err := res.WriteTree(out); err != nil || !changed {
		t.Fatalf("write after a hashed name became a symbolic link: changed %v, %v; want the tree made anew", changed, err)
	}
	if fi, err := os.Lstat(hashed); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the hashed name is not a regular file again: %v, %v", fi, err)
	}
	if err := CheckTree(out); err != nil {
		t.Fatal(err)
	}
	if _, err := bakefs.Load(os.DirFS(out)); err != nil {
		t.Fatalf("the runtime does not load the tree: %v", err)
	}
}
