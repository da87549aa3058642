//go:build unix

package embedgen

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNamedPipe checks that a named pipe in the tree is refused without
// being opened, which would block until a writer came.
func TestNamedPipe(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	rm(t, tree, "js/app.js")
	if err := syscall.Mkfifo(filepath.Join(tree, "js", "app.js"), 0o644); err != nil {
		t.Skip("cannot make a named pipe:", err)
	}
	err := Generate(Options{Tree: tree, Dir: filepath.Join(t.TempDir(), "assets")})
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "a named pipe") {
		t.Fatalf("Generate = %v, want ErrMismatch naming a named pipe", err)
	}
}
