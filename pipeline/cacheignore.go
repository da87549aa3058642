package pipeline

import (
	"errors"
	"os"
	"path/filepath"
)

// cacheIgnoreFile is the .gitignore that a cache directory holds, so that
// git leaves the cache (and an output tree kept in it) out of every commit
// without a line in the project's own .gitignore, as the caches of pytest,
// mypy and ruff do.
const cacheIgnoreFile = ".gitignore"

const cacheIgnoreText = "# Written by bakefs: the cache is local state, never committed.\n*\n"

// ensureIgnored writes the cache directory's .gitignore when the directory
// exists and has none. A .gitignore already there is left as it is.
func (c *Cache) ensureIgnored() error {
	name := filepath.Join(c.Dir, cacheIgnoreFile)
	if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
		return nil // there, or not for us to judge
	}
	if _, err := os.Stat(c.Dir); err != nil {
		return nil // nothing stored: no directory to mark
	}
	return writeFileAtomic(name, []byte(cacheIgnoreText))
}
