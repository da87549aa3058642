// Package statat stats many files of one directory tree, as a check that
// the tree holds what a manifest lists: through an open handle on each
// file's directory where the system has openat, so that the kernel
// resolves one path component per file instead of the whole path, and a
// stat allocates no FileInfo.
package statat

import (
	"path"
	"sync"
)

// A Tree stats files by their slash-separated names under a root
// directory. It is safe for concurrent use; Close releases the handles.
type Tree struct {
	root string

	mu   sync.RWMutex
	dirs map[string]dirHandle // a directory of the tree ("." for the root) -> its handle
}

// New returns a Tree of the directory root. Nothing is opened until a
// file is stat'ed.
func New(root string) *Tree {
	return &Tree{root: root, dirs: make(map[string]dirHandle)}
}

// RegularSize returns the size of the file name, and whether it is a
// regular file (following symbolic links, as os.Stat does). A file that
// is missing or cannot be stat'ed is not one.
func (t *Tree) RegularSize(name string) (size int64, regular bool) {
	d, base := path.Split(name)
	dir := path.Clean(d) // "." for a name without a directory
	t.mu.RLock()
	h, ok := t.dirs[dir]
	t.mu.RUnlock()
	if !ok {
		t.mu.Lock()
		if h, ok = t.dirs[dir]; !ok {
			h = openDir(t.root, dir)
			t.dirs[dir] = h
		}
		t.mu.Unlock()
	}
	return h.regularSize(t.root, dir, base)
}

// Close releases the directory handles.
func (t *Tree) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for dir, h := range t.dirs {
		h.close()
		delete(t.dirs, dir)
	}
}
