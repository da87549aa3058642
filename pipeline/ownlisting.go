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
	dirs map[string]bool // the build's own directories, absolute; set before a run's jobs start

	mu   sync.Mutex
	sums map[string]string
}

// snapshot notes dirs as the build's own and takes the listings of their
// parents, leaving out the entries for which skip reports true.
func (l *ownListings) snapshot(dirs []string, skip func(string) bool) {
	l.dirs = make(map[string]bool, len(dirs))
	for _, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			l.dirs[abs] = true
		}
	}
	sums := make(map[string]string)
	for abs := range l.dirs {
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
