//go:build unix && !linux

package statat

// oPath is O_PATH where the system has it; elsewhere a directory is
// opened for reading.
const oPath = 0
