package pipeline

import (
	"path/filepath"
	"sync"
)

// The build writes its own directories (the cache, the output tree, the
// package, and dirswap's temporary directories beside them) into the
// directories that hold them, which may be directories that steps list
// (a project whose src is "."): each write gives such a directory a new
// modification time during the run, so that every result depending on
// its listing would look racy and stay out of the cache, and the first
// build after a cold one would run its bundles again. The listings leave
// those entries out (Cache.owns); ownListings remembers, from the start of
// each run, the listing of each directory that holds one of them, so that
// store can tell the build's own writes from a change of the sources: a
// racy directory whose listing is the one it had at the start is taken as
// it is.

// ownListings are the listings (dirListingSum, without the build's own
// entries) of the directories that hold the build's own, at the start of
// a run, by absolute path.
type ownListings struct {
	mu   sync.Mutex
	sums map[string]string
}

// snapshot takes the listings of the parents of dirs.
func (l *ownListings) snapshot(dirs []string, skip func(string) bool) {
	sums := make(map[string]string)
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		parent := filepath.Dir(abs)
		if _, done := sums[parent]; done {
			continue
		}
		if sum, err := dirListingSum(parent, skip); err == nil {
			sums[parent] = sum
		}
	}
	l.mu.Lock()
	l.sums = sums
	l.mu.Unlock()
}

// unchanged reports whether the directory dir holds one of the build's own
// directories and has now the listing sum it had at the start of the run.
func (l *ownListings) unchanged(dir, sum string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	start, ok := l.sums[abs]
	return ok && start == sum
}
