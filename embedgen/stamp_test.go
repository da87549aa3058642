package embedgen

import (
	"os"
	"path/filepath"
	"strings"
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

// TestEditedPackageRedone: a package whose marker records the same inputs
// is redone when its Go file or table were edited, or when its marker has
// no record of the generated files (an older generator's).
func TestEditedPackageRedone(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	for _, tc := range []struct {
		name string
		edit func(dir string) error
	}{
		{"Go file edited", func(dir string) error {
			return appendFile(filepath.Join(dir, GoFile), "\n// edited\n")
		}},
		{"table edited", func(dir string) error {
			return appendFile(filepath.Join(dir, TableFile), "x")
		}},
		{"marker without sums", func(dir string) error {
			data, err := os.ReadFile(filepath.Join(dir, MarkerFile))
			if err != nil {
				return err
			}
			var kept []string
			for _, line := range strings.Split(string(data), "\n") {
				if !strings.HasPrefix(line, generatedPrefix) {
					kept = append(kept, line)
				}
			}
			return os.WriteFile(filepath.Join(dir, MarkerFile), []byte(strings.Join(kept, "\n")), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "assets")
			if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			want := snapshot(t, dir)
			if err := tc.edit(dir); err != nil {
				t.Fatal(err)
			}
			if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, snapshot(t, dir), want)
		})
	}
}

func appendFile(name, text string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
