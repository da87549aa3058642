package transform

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A Cache stores the outputs of chain runs under a content-addressed key:
// the chain's steps, versions and canonical options, the profile, the
// input's logical path and the SHA-256 of its bytes. Entries also record the
// files a step read beside its input (a bundle's imports) with their
// hashes, and are ignored when one of them has changed.
//
// Layout under Dir: entries/<k[:2]>/<k>.json for entries and
// blobs/<s[:2]>/<s> for output bytes by SHA-256. Every file is written to a
// temporary name and renamed, so concurrent runs and crashes leave either a
// whole file or none. A Cache is safe for concurrent use.
type Cache struct {
	Dir string

	indexOnce sync.Once
	index     *fileIndex
}

// files returns the cache's index of file hashes.
func (c *Cache) files() *fileIndex {
	c.indexOnce.Do(func() { c.index = &fileIndex{file: filepath.Join(c.Dir, "files.json")} })
	return c.index
}

// Flush writes what the cache learned about file hashes in this run. The
// pipeline calls it at the end of Run.
func (c *Cache) Flush() error { return c.files().save() }

// cacheFormat is part of every key; change it when the entry format or the
// meaning of a key changes.
const cacheFormat = "bakefs-cache-1"

// cacheEntry is what an entry file holds.
type cacheEntry struct {
	Deps    []cacheDep    `json:"deps,omitempty"`
	Outputs []cacheOutput `json:"outputs"`
}

// cacheDep is a file a step read. A file under the source root is recorded
// relative to it (Rel), so that a project moved with its cache still checks
// its own files.
type cacheDep struct {
	File   string `json:"file"`
	Rel    bool   `json:"rel,omitempty"`
	SHA256 string `json:"sha256"`
}

// cacheOutput is an output asset without its bytes, which are blobs.
type cacheOutput struct {
	Path      string          `json:"path"`
	Source    string          `json:"source"`
	Type      string          `json:"type"`
	Width     int             `json:"width,omitempty"`
	Height    int             `json:"height,omitempty"`
	Hashed    bool            `json:"hashed,omitempty"`
	Blob      blobRef         `json:"blob"`
	Encodings []cacheEncoding `json:"encodings,omitempty"`
}

type cacheEncoding struct {
	Name string  `json:"name"`
	Blob blobRef `json:"blob"`
}

// blobRef names stored bytes and what the manifest needs to know of them,
// so that a run with nothing changed reads no blob.
type blobRef struct {
	SHA256    string `json:"sha256"`
	Size      int64  `json:"size"`
	Integrity string `json:"integrity,omitempty"`
}

// cacheKey returns the key of a job whose input bytes hash to inputSum.
func cacheKey(job *Job, profile Profile, inputSum string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\nprofile %s\npath %q\nsource %q\nsize %dx%d\nsha256 %s\n%s",
		cacheFormat, profile, job.Path, job.source(), job.Width, job.Height, inputSum, job.Chain.Key())
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) entryFile(key string) string {
	return filepath.Join(c.Dir, "entries", key[:2], key+".json")
}

func (c *Cache) blobFile(sum string) string {
	return filepath.Join(c.Dir, "blobs", sum[:2], sum)
}

// load returns the entry for key when it exists and its dependencies are
// unchanged.
func (c *Cache) load(key, root string) (*cacheEntry, bool) {
	data, err := os.ReadFile(c.entryFile(key))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, false
	}
	for _, d := range e.Deps {
		file := d.File
		if d.Rel {
			file = filepath.Join(root, filepath.FromSlash(d.File))
		}
		stamp, _, err := c.files().sum(file, DefaultMaxInputSize)
		if err != nil || stamp.SHA256 != d.SHA256 {
			return nil, false
		}
	}
	return &e, true
}

// store records the outputs of a run, and the files it depended on.
func (c *Cache) store(key, root string, deps []string, outs []*output) error {
	e := cacheEntry{Outputs: make([]cacheOutput, len(outs))}
	for _, file := range deps {
		stamp, _, err := c.files().sum(file, DefaultMaxInputSize)
		if err != nil {
			return nil // a dependency that vanished: do not cache
		}
		d := cacheDep{File: file, SHA256: stamp.SHA256}
		if rel, ok := relativeTo(root, file); ok {
			d.File, d.Rel = rel, true
		}
		e.Deps = append(e.Deps, d)
	}
	for i, o := range outs {
		if err := c.putBlob(o.blob, o.data); err != nil {
			return err
		}
		co := cacheOutput{Path: o.Path, Source: o.Source, Type: o.Type, Width: o.Width, Height: o.Height, Hashed: o.Hashed, Blob: o.blob}
		for _, enc := range o.encodings {
			if err := c.putBlob(enc.blob, enc.data); err != nil {
				return err
			}
			co.Encodings = append(co.Encodings, cacheEncoding{Name: enc.name, Blob: enc.blob})
		}
		e.Outputs[i] = co
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return writeFileAtomic(c.entryFile(key), data)
}

func (c *Cache) putBlob(ref blobRef, data []byte) error {
	file := c.blobFile(ref.SHA256)
	if fi, err := os.Stat(file); err == nil && fi.Size() == ref.Size {
		return nil
	}
	return writeFileAtomic(file, data)
}

// readBlob returns the bytes of a blob, checking them against their hash so
// that a damaged cache is noticed rather than copied into an output.
func (c *Cache) readBlob(ref blobRef) ([]byte, error) {
	data, err := os.ReadFile(c.blobFile(ref.SHA256))
	if err != nil {
		return nil, err
	}
	if SHA256Hex(data) != ref.SHA256 {
		return nil, fmt.Errorf("cache blob %s is damaged; delete %s", ref.SHA256, c.Dir)
	}
	return data, nil
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it into place, creating parent directories.
func writeFileAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// relativeTo returns file relative to root, slash-separated, when it is
// inside root.
func relativeTo(root, file string) (string, bool) {
	if root == "" {
		return "", false
	}
	absRoot, err1 := filepath.Abs(root)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
