//go:build !linux

package hugeheap

// Reserve does nothing on systems other than Linux, and reports false.
func Reserve(size int) bool { return false }
