// Package statat stats many files of one directory tree, as a check that
// the tree holds what a manifest lists: through an open handle on the
// file's directory where the system has openat, so that the kernel
// resolves one path component per file instead of the whole path, and a
// stat allocates no FileInfo.
package statat

import "path"

// A Tree stats files by their slash-separated names under a root
// directory. It keeps one directory open, that of the last file stat'ed,
// so that names in path order open each directory about once and a tree
// of any number of directories holds one descriptor. A Tree is not safe
// for concurrent use: give each goroutine its own. Close releases the
// handle.
type Tree struct {
	root string
	dir  string // the directory of the tree that h is open on ("." for the root), "" when none is
	h    dirHandle
}

// New returns a Tree of the directory root. Nothing is opened until a
// file is stat'ed.
func New(root string) *Tree { return &Tree{root: root} }

// RegularSize returns the size of the file name, and whether it is a
// regular file (following symbolic links, as os.Stat does). A file that
// is missing or cannot be stat'ed is not one.
func (t *Tree) RegularSize(name string) (size int64, regular bool) {
	d, base := path.Split(name)
	dir := path.Clean(d) // "." for a name without a directory
	if dir != t.dir {
		t.Close()
		t.dir, t.h = dir, openDir(t.root, dir)
	}
	return t.h.regularSize(base)
}

// Close releases the directory handle; the Tree may be used again.
func (t *Tree) Close() {
	if t.dir != "" {
		t.h.close()
		t.dir = ""
	}
}
