package pipeline

import (
	"sync"

	"github.com/bakefs/bakefs/internal/streamfile"
)

// An entryIndex holds, in one file per project, the cache entries that
// the project's last run used, so that a run with nothing changed reads
// one file instead of one entry file per job (in the binary form of
// indexcodec.go, faster than JSON and gob). The entry files stay the source of
// truth: a key missing from the index is looked up in its file, and an
// indexed entry is checked against its dependencies like any other. An
// entry that pruning removed meanwhile may still be answered from the
// index; its blobs are then gone, which writing the tree notices
// (ErrCacheDamaged). It is safe for concurrent use.
type entryIndex struct {
	file string

	once   sync.Once
	loaded map[string]cacheEntry // what the file held

	mu   sync.Mutex
	used map[string]cacheEntry // what this run used or stored
}

// entryIndexFormat starts the file; a file of another format is ignored.
const entryIndexFormat = cacheFormat + " entry index 2\n"

func (x *entryIndex) load() {
	x.once.Do(func() {
		x.loaded = make(map[string]cacheEntry)
		data, err := streamfile.ReadString(x.file)
		if err == nil {
			if m, ok := decodeIndex(data, entryIndexFormat, (*indexReader).cacheEntry); ok && m != nil {
				x.loaded = m // a damaged index is only slower
			}
		}
	})
}

// lookup returns the indexed entry of key.
func (x *entryIndex) lookup(key string) (cacheEntry, bool) {
	x.load()
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.loaded[key]
	return e, ok
}

// use records that this run used (or stored) e under key.
func (x *entryIndex) use(key string, e cacheEntry) {
	x.load() // the size of x.used below reads x.loaded, which load sets
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.used == nil {
		x.used = make(map[string]cacheEntry, len(x.loaded)) // a run uses about what the last one did
	}
	x.used[key] = e
}

// forget drops key, whose entry turned out damaged.
func (x *entryIndex) forget(key string) {
	x.load()
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.loaded, key)
	delete(x.used, key)
}

// save writes the entries this run used, when they are not what the file
// already holds.
func (x *entryIndex) save() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.load()
	if len(x.used) == len(x.loaded) {
		same := true
		for k, e := range x.used {
			if old, ok := x.loaded[k]; !ok || !sameEntry(old, e) {
				same = false
				break
			}
		}
		if same {
			return nil
		}
	}
	data := encodeIndex(entryIndexFormat, x.used, (*indexWriter).cacheEntry)
	return writeFileAtomic(x.file, data)
}

// sameEntry reports whether two entries have the same dependencies and
// outputs.
func sameEntry(a, b cacheEntry) bool {
	if !sameDeps(a.Deps, b.Deps) || len(a.Outputs) != len(b.Outputs) {
		return false
	}
	for i := range a.Outputs {
		x, y := a.Outputs[i], b.Outputs[i]
		if x.Path != y.Path || x.Source != y.Source || x.Type != y.Type || x.Width != y.Width || x.Height != y.Height ||
			x.Hashed != y.Hashed || x.Fingerprinted != y.Fingerprinted || x.Blob != y.Blob || len(x.Encodings) != len(y.Encodings) ||
			!x.ModuleGraph.equal(y.ModuleGraph) {
			return false
		}
		for j := range x.Encodings {
			if x.Encodings[j] != y.Encodings[j] {
				return false
			}
		}
	}
	return true
}

// usedEntry returns the entry that this run used or stored under key.
func (x *entryIndex) usedEntry(key string) (cacheEntry, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.used[key]
	return e, ok
}
