//go:build !linux

package dirswap

// exchange swaps the directories a and b, non-atomically: see renameAside.
func exchange(a, b string) error { return renameAside(a, b) }
