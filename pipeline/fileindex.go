package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bakefs/bakefs/internal/streamfile"
	"github.com/bakefs/bakefs/transform"
)

// A fileIndex remembers the SHA-256 of files by path, size and modification
// time, so that a run with nothing changed hashes (and reads) nothing, as
// git's index and Go's build cache do. A file modified within its file
// system's timestamp granularity of being hashed (see racy) is not
// remembered: a second change in that time could otherwise go unseen. The
// index is one file per project, index/<p>.files (in the binary form of
// indexcodec.go), read on first use and written back by save; it is safe
// for concurrent use.
type fileIndex struct {
	file string

	mu      sync.Mutex
	loaded  bool
	dirty   bool
	entries map[string]fileStamp // absolute path -> stamp
	used    map[string]bool      // paths looked up in this run
}

type fileStamp struct {
	Size   int64
	MTime  int64 // UnixNano
	SHA256 string
}

// fileIndexFormat starts the file; a file of another format is ignored.
const fileIndexFormat = cacheFormat + " file index 1\n"

func (x *fileIndex) load() {
	if x.loaded {
		return
	}
	x.loaded = true
	x.entries = make(map[string]fileStamp)
	if data, err := streamfile.ReadString(x.file); err == nil {
		if m, ok := decodeIndex(data, fileIndexFormat, (*indexReader).fileStamp); ok && m != nil {
			x.entries = m // a damaged index is only slower
		}
	}
	x.used = make(map[string]bool, len(x.entries)) // a run uses about what the last one did
}

// sum returns the SHA-256 of file, refusing anything that is not a regular
// file or is larger than limit bytes. It reads the file only when the
// index has no matching stamp, and then returns its bytes too.
func (x *fileIndex) sum(file string, limit int64) (stamp fileStamp, data []byte, err error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return stamp, nil, err
	}
	fi, err := statInput(abs, limit)
	if err != nil {
		return stamp, nil, err
	}
	stamp = fileStamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	x.mu.Lock()
	x.load()
	x.used[abs] = true
	known, ok := x.entries[abs]
	x.mu.Unlock()
	if ok && known.Size == stamp.Size && known.MTime == stamp.MTime {
		return known, nil, nil
	}
	readAt := time.Now()
	data, err = readLimited(abs, limit)
	if err != nil {
		return stamp, nil, err
	}
	stamp.Size, stamp.SHA256 = int64(len(data)), transform.SHA256Hex(data)
	x.mu.Lock()
	if !racy(fi.ModTime(), readAt) {
		x.entries[abs] = stamp
		x.dirty = true
	} else if ok {
		delete(x.entries, abs) // stale, and too recent to replace
		x.dirty = true
	}
	x.mu.Unlock()
	return stamp, data, nil
}

// knownSize returns the size of file in the stamp this run's index holds
// for it, if any.
func (x *fileIndex) knownSize(file string) (int64, bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return 0, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.load()
	stamp, ok := x.entries[abs]
	return stamp.Size, ok && x.used[abs]
}

// statInput checks that file is a regular file of at most limit bytes.
func statInput(file string, limit int64) (os.FileInfo, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, over the limit of %d", transform.ErrTooLarge, fi.Size(), limit)
	}
	return fi, nil
}

// save writes the index back, keeping only the files of this run, when it
// learned something new.
func (x *fileIndex) save() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.loaded {
		return nil
	}
	for p := range x.entries {
		if !x.used[p] {
			delete(x.entries, p)
			x.dirty = true
		}
	}
	if !x.dirty {
		return nil
	}
	data := encodeIndex(fileIndexFormat, x.entries, (*indexWriter).fileStamp)
	x.dirty = false
	if err := writeFileAtomic(x.file, data); err != nil {
		return err
	}
	// The index of earlier versions, JSON in index/<p>.json, is no longer
	// read.
	os.Remove(strings.TrimSuffix(x.file, ".files") + ".json")
	return nil
}

// readLimited reads a file, failing if it grew past limit since it was
// checked.
func readLimited(file string, limit int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: over the limit of %d bytes", transform.ErrTooLarge, limit)
	}
	return data, nil
}

// touch records that this run used file, whose stamp the index holds
// already, so that save keeps it.
func (x *fileIndex) touch(file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return
	}
	x.mu.Lock()
	x.load()
	x.used[abs] = true
	x.mu.Unlock()
}
