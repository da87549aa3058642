package embedgen

import (
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestSymlinkFarm generates from trees laid out as symbolic links to the
// files of an ordinary tree, as a Bazel sandbox lays out an input tree
// artifact, and checks that each gives, byte for byte, the package of the
// ordinary tree.
func TestSymlinkFarm(t *testing.T) {
	orig := filepath.Join(t.TempDir(), "tree")
	writeTree(t, orig, smallTree())
	want := filepath.Join(t.TempDir(), "assets")
	if err := Generate(Options{Tree: orig, Dir: want}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		farm func(t *testing.T, farm string) // lays out farm from orig
	}{
		{
			name: "absolute links to each file",
			farm: func(t *testing.T, farm string) { linkFiles(t, orig, farm, false) },
		},
		{
			name: "relative links to each file",
			farm: func(t *testing.T, farm string) { linkFiles(t, orig, farm, true) },
		},
		{
			name: "linked directories",
			farm: func(t *testing.T, farm string) {
				ents, err := os.ReadDir(orig)
				if err != nil {
					t.Fatal(err)
				}
				mkdir(t, farm)
				for _, e := range ents {
					link(t, filepath.Join(orig, e.Name()), filepath.Join(farm, e.Name()))
				}
			},
		},
		{
			name: "linked tree",
			farm: func(t *testing.T, farm string) { link(t, orig, farm) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			farm := filepath.Join(t.TempDir(), "farm")
			tt.farm(t, farm)
			dir := filepath.Join(t.TempDir(), "assets")
			if err := Generate(Options{Tree: farm, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, snapshot(t, dir), snapshot(t, want))
			// The package holds copies, never links.
			for name, b := range snapshot(t, dir) {
				if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("%s is not a regular file (%v): %.40q", name, err, b)
				}
			}
		})
	}
}

// linkFiles makes farm a copy of the directories of orig in which every
// file is a symbolic link to the file of orig, by an absolute or a
// relative target.
func linkFiles(t *testing.T, orig, farm string, relative bool) {
	t.Helper()
	err := filepath.WalkDir(orig, func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(orig, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(farm, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		target := p
		if relative {
			if target, err = filepath.Rel(filepath.Dir(dst), p); err != nil {
				return err
			}
		}
		link(t, target, dst)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestTreePath checks that a name becomes a path inside the tree, or is
// refused.
func TestTreePath(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "tree")
	tests := []struct {
		name, file string
		want       string // "" when refused
	}{
		{name: "nested", file: "js/app.js", want: filepath.Join(tree, "js", "app.js")},
		{name: "hidden", file: ".well-known/security.txt", want: filepath.Join(tree, ".well-known", "security.txt")},
		{name: "parent", file: "../secret", want: ""},
		{name: "parent inside", file: "js/../../secret", want: ""},
		{name: "absolute", file: "/etc/passwd", want: ""},
		{name: "empty", file: "", want: ""},
		{name: "dot", file: ".", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := treePath(tree, tt.file)
			if tt.want == "" {
				if !errors.Is(err, ErrName) {
					t.Fatalf("treePath(%q) = %q, %v; want ErrName", tt.file, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("treePath(%q) = %q, %v; want %q", tt.file, got, err, tt.want)
			}
		})
	}
}
