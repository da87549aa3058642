package statat

import "golang.org/x/sys/unix"

// oPath opens a directory only as a place to resolve names in: no read
// permission needed, nothing read.
const oPath = unix.O_PATH
