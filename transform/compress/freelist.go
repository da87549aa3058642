package compress

import (
	"runtime"
	"sync"
)

// A freeList keeps idle values for reuse, up to GOMAXPROCS of them. Unlike
// a sync.Pool, it keeps them across garbage collections and shares them
// between all Ps, so that an encoder whose tables take tens of MiB is made
// once per concurrent use, not again after each collection or for each P
// that happens to run it. The zero value is an empty list, safe for
// concurrent use.
type freeList[T any] struct {
	mu    sync.Mutex
	items []T
}

// get returns an idle value, if there is one.
func (l *freeList[T]) get() (v T, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.items); n > 0 {
		v, l.items = l.items[n-1], l.items[:n-1]
		return v, true
	}
	return v, false
}

// put keeps v for reuse, or drops it when the list is full.
func (l *freeList[T]) put(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.items) < runtime.GOMAXPROCS(0) {
		l.items = append(l.items, v)
	}
}
