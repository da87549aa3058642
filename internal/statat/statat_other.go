//go:build !unix

package statat

import (
	"os"
	"path/filepath"
)

// A dirHandle is the path of a directory where the system has no openat:
// every stat resolves the whole path.
type dirHandle string

// openDir returns the path of the directory dir of the tree at root.
func openDir(root, dir string) dirHandle {
	return dirHandle(filepath.Join(root, filepath.FromSlash(dir)))
}

// regularSize stats base in the directory h with os.Stat.
func (h dirHandle) regularSize(base string) (int64, bool) {
	fi, err := os.Stat(filepath.Join(string(h), base))
	if err != nil {
		return 0, false
	}
	return fi.Size(), fi.Mode().IsRegular()
}

func (dirHandle) close() {}
