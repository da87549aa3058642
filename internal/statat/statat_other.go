//go:build !unix

package statat

import (
	"os"
	"path/filepath"
)

// A dirHandle stands for an open directory where the system has openat;
// here every stat resolves the whole path.
type dirHandle struct{}

func openDir(_, _ string) dirHandle { return dirHandle{} }

// regularSize stats the file base of the directory dir of the tree at
// root with os.Stat.
func (dirHandle) regularSize(root, dir, base string) (int64, bool) {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), base))
	if err != nil {
		return 0, false
	}
	return fi.Size(), fi.Mode().IsRegular()
}

func (dirHandle) close() {}
