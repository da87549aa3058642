//go:build unix

package statat

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A dirHandle is an open descriptor of a directory (O_PATH where there
// is one), or -1 for one that could not be opened: its files are then
// missing.
type dirHandle int

// openDir opens the directory dir of the tree at root.
func openDir(root, dir string) dirHandle {
	fd, err := unix.Open(filepath.Join(root, filepath.FromSlash(dir)), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|oPath, 0)
	if err != nil {
		return -1
	}
	return dirHandle(fd)
}

// regularSize stats base in the directory h with fstatat.
func (h dirHandle) regularSize(base string) (int64, bool) {
	if h < 0 {
		return 0, false
	}
	var st unix.Stat_t
	for {
		err := unix.Fstatat(int(h), base, &st, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, false
		}
		return st.Size, st.Mode&unix.S_IFMT == unix.S_IFREG
	}
}

func (h dirHandle) close() {
	if h >= 0 {
		unix.Close(int(h))
	}
}
