package dirswap

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the directories a and b atomically with renameat2's
// RENAME_EXCHANGE, falling back to renameAside on a file system that does
// not support it.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return renameAside(a, b)
	}
	return err
}
