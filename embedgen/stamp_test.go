package embedgen

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnchangedTouchesNothing: a second Generate with the same inputs
// writes nothing; a changed option or a damaged package is redone.
func TestUnchangedTouchesNothing(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	dir := filepath.Join(t.TempDir(), "assets")
	if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	goFile := filepath.Join(dir, GoFile)
	marker := filepath.Join(dir, MarkerFile)
	before, _ := os.Stat(goFile)
	if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(goFile); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("an unchanged Generate replaced the package")
	}

	if err := Generate(Options{Tree: tree, Dir: dir, ImportPath: "example.com/assets"}); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(goFile); os.SameFile(before, after) {
		t.Fatal("a new import path did not regenerate the package")
	}

	again, _ := os.Stat(marker)
	if err := os.Remove(filepath.Join(dir, dataDir, "css/site.css.br")); err != nil {
		t.Fatal(err)
	}
	if err := Generate(Options{Tree: tree, Dir: dir, ImportPath: "example.com/assets"}); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(marker); os.SameFile(again, after) {
		t.Fatal("a package missing a data file was not redone")
	}
	if _, err := os.Stat(filepath.Join(dir, dataDir, "css/site.css.br")); err != nil {
		t.Fatal(err)
	}
}
