package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// usageFile holds the cache's approximate size in bytes, kept up to date
// by the runs that store into it, so that deciding whether to prune needs
// no walk of the cache.
const usageFile = "usage"

// account adds the bytes a run stored to the cache's recorded size, and
// prunes the cache to nine tenths of its bound when that passes it.
func (c *Cache) account(stored int64) error {
	limit := c.MaxSize
	if limit == 0 {
		limit = DefaultCacheSize
	}
	file := filepath.Join(c.Dir, usageFile)
	used := stored
	if data, err := os.ReadFile(file); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
			used += n
		}
	}
	if used > limit {
		stats, err := c.Prune(limit / 10 * 9)
		if err != nil {
			return err
		}
		used = stats.Kept
	}
	return writeFileAtomic(file, []byte(strconv.FormatInt(used, 10)+"\n"))
}

// PruneStats says what Prune did.
type PruneStats struct {
	Entries, Blobs int   // entries and blobs removed
	Freed, Kept    int64 // bytes removed and bytes left
}

// tempLeftoverAge is how old a temporary file of the cache must be before
// Prune takes it for the leftover of a crash rather than a write in
// progress.
const tempLeftoverAge = time.Hour

// Prune shrinks the cache to at most maxSize bytes: it removes the least
// recently used entries (by modification time, which a use refreshes)
// until the entries and the blobs they refer to fit, then every blob that
// no remaining entry refers to, and temporary files left by crashes. A
// maxSize of 0 empties the cache. The projects' entry indexes go with any
// entry removed (they would answer for it); file-hash indexes are kept:
// they are small and only spare reading. Prune is safe to run beside a build: an
// entry removed under a running build is at worst stored again.
func (c *Cache) Prune(maxSize int64) (PruneStats, error) {
	var st PruneStats
	type entry struct {
		file  string
		size  int64
		mtime time.Time
		blobs []blobRef
	}
	var entries []entry
	err := walkFiles(filepath.Join(c.Dir, "entries"), func(file string, fi fs.FileInfo) {
		if strings.HasPrefix(fi.Name(), ".tmp-") {
			if time.Since(fi.ModTime()) > tempLeftoverAge && os.Remove(file) == nil {
				st.Freed += fi.Size()
			}
			return
		}
		e := entry{file: file, size: fi.Size(), mtime: fi.ModTime()}
		var cf cacheFile
		if data, err := os.ReadFile(file); err == nil && json.Unmarshal(data, &cf) == nil {
			for _, v := range cf.Variants {
				for _, o := range v.Outputs {
					e.blobs = append(e.blobs, o.Blob)
					for _, enc := range o.Encodings {
						e.blobs = append(e.blobs, enc.Blob)
					}
				}
			}
		}
		entries = append(entries, e)
	})
	if err != nil {
		return st, err
	}
	// Newest first: keep entries while they fit.
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].mtime.Equal(entries[j].mtime) {
			return entries[i].mtime.After(entries[j].mtime)
		}
		return entries[i].file < entries[j].file
	})
	keep := make(map[string]bool)
	var size int64
	for _, e := range entries {
		need := e.size
		for _, b := range e.blobs {
			if !keep[b.SHA256] {
				need += b.Size
			}
		}
		if size+need > maxSize {
			if os.Remove(e.file) == nil {
				st.Entries++
				st.Freed += e.size
			}
			continue
		}
		size += need
		for _, b := range e.blobs {
			keep[b.SHA256] = true
		}
	}
	if st.Entries > 0 {
		if err := walkFiles(filepath.Join(c.Dir, "index"), func(file string, fi fs.FileInfo) {
			if strings.HasSuffix(file, ".entries") {
				os.Remove(file)
			}
		}); err != nil {
			return st, err
		}
	}
	err = walkFiles(filepath.Join(c.Dir, "blobs"), func(file string, fi fs.FileInfo) {
		name := fi.Name()
		if strings.HasPrefix(name, ".tmp-") && time.Since(fi.ModTime()) <= tempLeftoverAge || keep[name] {
			return
		}
		if os.Remove(file) == nil {
			st.Blobs++
			st.Freed += fi.Size()
		}
	})
	st.Kept = size
	if err == nil {
		err = writeFileAtomic(filepath.Join(c.Dir, usageFile), []byte(strconv.FormatInt(size, 10)+"\n"))
	}
	return st, err
}

// walkFiles calls f for every regular file below dir; a missing dir has
// none.
func walkFiles(dir string, f func(file string, fi fs.FileInfo)) error {
	err := filepath.WalkDir(dir, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		f(file, fi)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ParseByteSize reads a size such as "0", "500MB", "2 GiB" or "750kB":
// a whole number of bytes, optionally followed by B, kB, MB, GB, TB
// (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: want a whole number of bytes with an optional unit (500MB, 2GiB)", s)
	}
	units := map[string]int64{
		"": 1, "B": 1,
		"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
	}
	mult, ok := units[strings.TrimSpace(t[i:])]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)", s, strings.TrimSpace(t[i:]))
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}
