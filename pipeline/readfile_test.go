package pipeline

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestResultReadFile: ReadFile gives an output's bytes and its variants'
// at their paths, and fs.ErrNotExist for any other name.
func TestResultReadFile(t *testing.T) {
	root := writeSources(t, map[string]string{"a.txt": string(bytes.Repeat([]byte("a"), 400))})
	res, err := (&Pipeline{Root: root, Cache: &Cache{Dir: t.TempDir()}}).Run(context.Background(), jobsFor(t, root, "test-upper", "gzip"))
	if err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(t.TempDir(), "tree")
	if _, err := res.WriteTree(tree); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ok   bool
	}{
		{"a.txt", true},
		{"a.txt.gz", true},
		{"a.txt.br", false},
		{"b.txt", false},
		{"a", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := res.ReadFile(tt.name)
			if !tt.ok {
				var pe *iofs.PathError
				if !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, iofs.ErrNotExist) {
					t.Errorf("ReadFile = %q, %v; want a *PathError open ErrNotExist", got, err)
				}
				return
			}
			want, rerr := os.ReadFile(filepath.Join(tree, tt.name))
			if err != nil || rerr != nil || !bytes.Equal(got, want) {
				t.Errorf("ReadFile = %q, %v; want the tree's %q, %v", got, err, want, rerr)
			}
		})
	}
}
