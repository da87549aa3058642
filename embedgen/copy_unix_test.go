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

// TestSymlinkToNamedPipe checks that a symbolic link is followed only to a
// regular file: a link to a named pipe is refused without opening it.
func TestSymlinkToNamedPipe(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("cannot make a named pipe:", err)
	}
	link(t, fifo, filepath.Join(tree, "js", "app.js"))
	err := Generate(Options{Tree: tree, Dir: filepath.Join(t.TempDir(), "assets")})
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "not a regular file but a named pipe") {
		t.Fatalf("Generate = %v, want ErrMismatch naming a named pipe", err)
	}
}
