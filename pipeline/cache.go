package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/bakefs/bakefs/transform"

	"github.com/bakefs/bakefs/internal/dirswap"
	"github.com/bakefs/bakefs/internal/toolid"
)

// A Cache stores the outputs of chain runs under a content-addressed key
// (see cacheKey): the code that makes the bytes (bakefs, the Go toolchain
// and the byte-making libraries, toolid.Identity), the chain's steps,
// versions and canonical options, the profile, the input's logical path and
// the SHA-256 of its bytes. The finishing steps, which run after the
// rewrite pass, have entries of their own (see finishKey). Entries also record what a step read beside its
// input (a bundle's imports and configuration files) and the listings of
// the directories where it looked for files, and are ignored when one of
// them has changed, so that a file appearing where it would win a lookup
// invalidates them too.
//
// Layout under Dir: entries/<k[:2]>/<k>.json for entries,
// blobs/<s[:2]>/<s> for output bytes by SHA-256, and, for each project (p
// identifies the source root, so that projects sharing a cache keep their
// own), index/<p>.files, its index of file hashes, index/<p>.entries,
// the entries its last run used (see entryIndex), and index/<p>.jobs, the
// parts of each job's last key (see jobRecords), and .gitignore, which
// keeps the directory out of git. Every file is written to a
// temporary name and renamed, so concurrent runs and crashes leave either a
// whole file or none. Blobs are verified against their hash when read; a
// damaged entry or blob is discarded and its job runs again. A Cache is
// safe for concurrent use. A RemoteCache (Pipeline.Remote) can stand
// behind it, under the same keys.
type Cache struct {
	Dir string
	// MaxSize bounds the bytes the cache keeps: when a run has stored
	// enough to pass it, the least recently used entries are pruned. 0
	// means DefaultCacheSize; a negative value means no bound.
	MaxSize int64
	// Own are the directories that the build writes beside the sources
	// (the output tree, the package). The directory listings that steps
	// depend on (Context.DependDir) leave them out, and the cache directory
	// and the temporary directories of the writes beside them: they change
	// with each build, not with the sources, and a project whose src holds
	// them would otherwise run its bundles again after every build.
	Own []string
	own ownListings // see ownlisting.go

	indexOnce sync.Once
	index     *fileIndex
	entries   *entryIndex
	records   *jobRecords
	project   string // index/<p>: where this project's index files start
	root      string // the source root the indexes belong to; see bind

	identityOnce sync.Once
	identity     string
	identityErr  error
	toolInfo     string // toolid.Info.String, beside identity

	storedMu sync.Mutex
	stored   int64 // bytes written in this run
}

// DefaultCacheSize is the default bound of a cache: 1 GiB.
const DefaultCacheSize = 1 << 30

// bind names the source root whose file-hash index the cache uses. The
// pipeline calls it before the first lookup; a Cache serves one root.
func (c *Cache) bind(root string) {
	if c.root == "" {
		c.root = root
	}
	c.own.snapshot(append([]string{c.Dir}, c.Own...), c.owns)
}

// files returns the cache's index of file hashes for its project.
func (c *Cache) files() *fileIndex {
	c.indexOnce.Do(func() {
		abs, err := filepath.Abs(c.root)
		if err != nil {
			abs = c.root
		}
		sum := sha256.Sum256([]byte(abs))
		c.project = filepath.Join(c.Dir, "index", hex.EncodeToString(sum[:8]))
		c.index = &fileIndex{file: c.project + ".files"}
		c.entries = &entryIndex{file: c.project + ".entries"}
		c.records = &jobRecords{file: c.project + ".jobs"}
	})
	return c.index
}

// jobRecords returns the cache's records of its project's jobs.
func (c *Cache) jobRecords() *jobRecords {
	c.files()
	return c.records
}

// entryIndex returns the cache's index of entries for its project.
func (c *Cache) entryIndex() *entryIndex {
	c.files()
	return c.entries
}

// toolIdentity returns toolid.Identity, with the executable's hash (for a
// development build) taken through the index, so that a run with nothing
// changed does not read the executable.
func (c *Cache) toolIdentity() (string, error) {
	c.identityOnce.Do(func() {
		c.identity, c.identityErr = toolid.Identity(func(file string) (string, error) {
			stamp, _, err := c.files().sum(file, 1<<40)
			return stamp.SHA256, err
		})
		c.toolInfo = toolid.Read().String()
	})
	return c.identity, c.identityErr
}

// toolRecord returns the tool's identity and description, for the job
// records; the identity is "" when toolIdentity failed.
func (c *Cache) toolRecord() toolRecord {
	id, _ := c.toolIdentity()
	return toolRecord{Identity: id, Info: c.toolInfo}
}

// Flush writes what the cache learned about file hashes in this run, the
// cache directory's .gitignore if it has none (see ensureIgnored), and
// prunes the cache when the run took it past MaxSize. The pipeline calls
// it at the end of Run, except with Pipeline.Incremental, whose caller
// calls it.
func (c *Cache) Flush() error {
	if err := c.files().save(); err != nil {
		return err
	}
	// Before the entry index, whose keys say which records stand.
	if err := c.jobRecords().save(c.toolRecord()); err != nil {
		return err
	}
	if err := c.entryIndex().save(); err != nil {
		return err
	}
	if err := c.ensureIgnored(); err != nil {
		return err
	}
	c.storedMu.Lock()
	stored := c.stored
	c.stored = 0
	c.storedMu.Unlock()
	if stored == 0 || c.MaxSize < 0 {
		return nil
	}
	return c.account(stored)
}

// cacheFormat is part of every key; change it when the entry format or the
// meaning of a key changes.
const cacheFormat = "bakefs-cache-6"

// cacheFile is what an entry file holds: the runs stored under one key,
// most recent first. A key covers the input's bytes but not the files it
// imports, so two projects (or two branches) whose entry points are the
// same but whose imports differ each keep their variant instead of
// evicting each other's; load picks the one whose dependencies match.
type cacheFile struct {
	Variants []cacheEntry `json:"variants"`
}

// maxVariants bounds the variants kept under one key.
const maxVariants = 4

// cacheEntry is one stored run: what it depended on and what it made.
type cacheEntry struct {
	Deps    []cacheDep    `json:"deps,omitempty"`
	Outputs []cacheOutput `json:"outputs"`
}

// cacheDep is a file a step read, or a directory whose listing it
// depended on (Dir). A path under the source root is recorded relative to
// it (Rel), so that a project moved with its cache still checks its own
// files.
type cacheDep struct {
	File   string `json:"file"`
	Rel    bool   `json:"rel,omitempty"`
	Dir    bool   `json:"dir,omitempty"`
	SHA256 string `json:"sha256"`
}

// path returns the dependency's file name, one relative to the source
// root taken under root.
func (d cacheDep) path(root string) string {
	if d.Rel {
		return filepath.Join(root, filepath.FromSlash(d.File))
	}
	return d.File
}

// cacheOutput is an output asset without its bytes, which are blobs.
type cacheOutput struct {
	Path          string `json:"path"`
	Source        string `json:"source"`
	Type          string `json:"type"`
	Width         int    `json:"width,omitempty"`
	Height        int    `json:"height,omitempty"`
	Hashed        bool   `json:"hashed,omitempty"`
	Fingerprinted bool   `json:"fingerprinted,omitempty"`
	ModuleGraph
	Blob      blobRef         `json:"blob"`
	Encodings []cacheEncoding `json:"encodings,omitempty"`
	// Warnings are the asset's (transform.Asset.Warnings), so that a
	// cached run reports them as the run that made it did.
	Warnings []*transform.SourceError `json:"warnings,omitempty"`
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

// cacheKey returns the key of a job whose input bytes hash to inputSum,
// run by the code that tool identifies.
func cacheKey(tool string, job *Job, profile transform.Profile, inputSum string) string {
	// Written without fmt, as finishKey is: a no-change build computes one
	// per job. The bytes are those of
	// "%s\ntool %s\nprofile %s\npath %q\nsource %q\nsize %dx%d\nsha256 %s\n%s"
	// (TestCacheKeyBytes).
	b := appendKeyStart(make([]byte, 0, 512), cacheFormat, tool, profile, job.Path)
	b = append(b, "\nsource "...)
	b = strconv.AppendQuote(b, job.source())
	b = append(b, "\nsize "...)
	b = strconv.AppendInt(b, int64(job.Width), 10)
	b = append(b, 'x')
	b = strconv.AppendInt(b, int64(job.Height), 10)
	b = append(b, "\nsha256 "...)
	b = append(b, inputSum...)
	b = append(b, '\n')
	b = job.Chain.AppendKey(b)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// appendKeyStart appends the lines a cache key starts with: its kind, the
// tool, the profile and the output's path, quoted.
func appendKeyStart(b []byte, kind, tool string, profile transform.Profile, path string) []byte {
	b = append(b, kind...)
	b = append(b, "\ntool "...)
	b = append(b, tool...)
	b = append(b, "\nprofile "...)
	b = append(b, profile...)
	b = append(b, "\npath "...)
	return strconv.AppendQuote(b, path)
}

func (c *Cache) entryFile(key string) string {
	return filepath.Join(c.Dir, "entries", key[:2], key+".json")
}

func (c *Cache) blobFile(sum string) string {
	return filepath.Join(c.Dir, "blobs", sum[:2], sum)
}

// entryTouchAge is how old an entry's modification time may get before a
// use refreshes it: the time that pruning orders entries by.
const entryTouchAge = time.Hour

// load returns the variant stored for key whose dependencies are
// unchanged, if any. A file that cannot be decoded, or holds a malformed
// variant, is removed.
func (c *Cache) load(key, root string) (*cacheEntry, bool) {
	if e, ok := c.entryIndex().lookup(key); ok && c.depsUnchanged(&e, root) {
		c.entryIndex().use(key, e)
		return &e, true
	}
	file := c.entryFile(key)
	cf, fi, ok := c.readEntryFile(file)
	if !ok {
		return nil, false
	}
	for i := range cf.Variants {
		e := &cf.Variants[i]
		if !c.depsUnchanged(e, root) {
			continue
		}
		if time.Since(fi.ModTime()) > entryTouchAge {
			now := time.Now()
			os.Chtimes(file, now, now) // the entry is in use: keep it from pruning
		}
		c.entryIndex().use(key, *e)
		return e, true
	}
	return nil, false
}

// readEntryFile decodes an entry file; a damaged one is removed.
func (c *Cache) readEntryFile(file string) (*cacheFile, os.FileInfo, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	var cf cacheFile
	if err == nil {
		err = json.NewDecoder(f).Decode(&cf)
	}
	f.Close()
	valid := err == nil && len(cf.Variants) > 0
	for i := range cf.Variants {
		valid = valid && cf.Variants[i].valid()
	}
	if !valid {
		os.Remove(file)
		return nil, nil, false
	}
	return &cf, fi, true
}

// depsUnchanged reports whether every dependency of an entry still has the
// hash it had when the entry was stored, paths relative to the source root
// taken under root.
func (c *Cache) depsUnchanged(e *cacheEntry, root string) bool {
	for _, d := range e.Deps {
		if sum, err := c.depSum(d.path(root), d.Dir); err != nil || sum != d.SHA256 {
			return false
		}
	}
	return true
}

// valid reports whether a decoded entry holds what a use of it needs.
func (e *cacheEntry) valid() bool {
	if e.Outputs == nil {
		return false
	}
	for _, o := range e.Outputs {
		if !validSum(o.Blob.SHA256) || o.Path == "" {
			return false
		}
		for _, enc := range o.Encodings {
			if !validSum(enc.Blob.SHA256) {
				return false
			}
		}
	}
	return true
}

// validSum reports whether s is a lowercase hex SHA-256.
func validSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// discard removes an entry whose blobs turned out missing or damaged.
func (c *Cache) discard(key string) {
	if key == rewriteMemoKey {
		c.dropRewriteMemo()
		return
	}
	os.Remove(c.entryFile(key))
	c.entryIndex().forget(key)
}

// depSum returns the SHA-256 of a dependency: a file's bytes, or a
// directory's listing.
func (c *Cache) depSum(p string, dir bool) (string, error) {
	if dir {
		return dirListingSum(p, c.owns)
	}
	stamp, _, err := c.files().sum(p, DefaultMaxInputSize)
	return stamp.SHA256, err
}

// ownListingUnchanged reports whether the directory dir holds one of the
// build's own directories and has the listing it had at the start of the
// run (see ownlisting.go), which it then puts in *sum.
func (c *Cache) ownListingUnchanged(dir string, sum *string) bool {
	s, err := dirListingSum(dir, c.owns)
	if err != nil || !c.own.unchanged(dir, s) {
		return false
	}
	*sum = s
	return true
}

// owns reports whether the file or directory p is one the build writes
// (Own, the cache directory, or a temporary directory of dirswap).
func (c *Cache) owns(p string) bool {
	if dirswap.IsTemp(filepath.Base(p)) {
		return true
	}
	abs, err := filepath.Abs(p)
	return err == nil && c.own.dirs[abs]
}

// dirListingSum returns the SHA-256 of a directory's sorted entry names,
// each marked with whether it is a directory, leaving out those for which
// skip reports true. A directory that does not exist has the listing
// "absent", so that its creation is seen too.
func dirListingSum(dir string, skip func(p string) bool) (string, error) {
	entries, err := os.ReadDir(dir)
	h := sha256.New()
	switch {
	case errors.Is(err, os.ErrNotExist):
		h.Write([]byte("absent\n"))
	case err != nil:
		return "", err
	default:
		for _, e := range entries {
			if skip(filepath.Join(dir, e.Name())) {
				continue
			}
			kind := "f"
			if e.IsDir() {
				kind = "d"
			}
			fmt.Fprintf(h, "%s %s\n", kind, e.Name())
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// errRacyDep reports a dependency that changed while the step ran.
var errRacyDep = errors.New("a dependency changed while the step ran")

// errUncacheable reports a run that is right but not stored: a dependency
// vanished, or was modified too recently for its bytes to be surely those
// the step read.
var errUncacheable = errors.New("not cached")

// An uncachedError is errRacyDep or errUncacheable (err) for one
// dependency: a file, or a directory's listing, named by its path under
// the source root, or in full outside it.
type uncachedError struct {
	err  error
	name string
	dir  bool
	why  depTrouble
}

// A depTrouble says what kept a dependency's run out of the cache.
type depTrouble int

const (
	depRacy     depTrouble = iota // modified within the racy window of the start
	depChanged                    // modified after the start
	depVanished                   // gone, or unreadable
)

func (e *uncachedError) Error() string { return e.err.Error() + ": " + e.name }

func (e *uncachedError) Unwrap() error { return e.err }

// store records the outputs of a run that started at started, and what it
// depended on: files (deps) and directory listings (dirs), and returns the
// stored variant's encoded bytes (what a remote cache holds). A dependency
// that vanished, or was modified too close to or after the start of the
// run for its bytes now to be surely the bytes the step read, keeps the
// run out of the cache; store then returns an *uncachedError naming it,
// which wraps errRacyDep when the modification came after the start (the
// job should run again), errUncacheable otherwise.
func (c *Cache) store(key, root string, started time.Time, deps, dirs []string, outs []*output) ([]byte, error) {
	e := cacheEntry{Outputs: make([]cacheOutput, len(outs))}
	record := func(p string, dir bool) error {
		d := cacheDep{File: p, Dir: dir}
		if rel, ok := transform.RelativeTo(root, p); ok {
			d.File, d.Rel = rel, true
		}
		uncached := func(err error, why depTrouble) error {
			return &uncachedError{err: err, name: d.File, dir: dir, why: why}
		}
		fi, err := os.Stat(p)
		var sum string
		switch {
		case dir && errors.Is(err, os.ErrNotExist):
		case err != nil:
			return uncached(errUncacheable, depVanished)
		case dir && racy(fi.ModTime(), started) && c.ownListingUnchanged(p, &sum):
			// only the build's own directories came and went
		case fi.ModTime().After(started):
			return uncached(errRacyDep, depChanged)
		case racy(fi.ModTime(), started):
			return uncached(errUncacheable, depRacy)
		}
		if sum == "" {
			if sum, err = c.depSum(p, dir); err != nil {
				return uncached(errUncacheable, depVanished)
			}
		}
		d.SHA256 = sum
		e.Deps = append(e.Deps, d)
		return nil
	}
	for _, p := range dirs {
		if err := record(p, true); err != nil {
			return nil, err
		}
	}
	for _, p := range deps {
		if err := record(p, false); err != nil {
			return nil, err
		}
	}
	var written int64
	for i, o := range outs {
		n, err := c.putBlob(o.blob, o.data)
		if err != nil {
			return nil, err
		}
		written += n
		co := cacheOutput{Path: o.Path, Source: o.Source, Type: o.Type, Width: o.Width, Height: o.Height, Hashed: o.Hashed, Fingerprinted: o.Fingerprinted, ModuleGraph: o.ModuleGraph, Blob: o.blob, Warnings: o.warnings}
		for _, enc := range o.encodings {
			n, err := c.putBlob(enc.blob, enc.data)
			if err != nil {
				return nil, err
			}
			written += n
			co.Encodings = append(co.Encodings, cacheEncoding{Name: enc.name, Blob: enc.blob})
		}
		e.Outputs[i] = co
	}
	data, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	n, err := c.putEntry(key, e)
	if err != nil {
		return nil, err
	}
	c.addStored(written + n)
	return data, nil
}

// putEntry adds e to the variants stored under key, newest first (one with
// the same dependencies is replaced, the oldest beyond maxVariants
// dropped), and returns the bytes written.
func (c *Cache) putEntry(key string, e cacheEntry) (int64, error) {
	cf := cacheFile{Variants: []cacheEntry{e}}
	if old, _, ok := c.readEntryFile(c.entryFile(key)); ok {
		for _, v := range old.Variants {
			if len(cf.Variants) < maxVariants && !sameDeps(v.Deps, e.Deps) {
				cf.Variants = append(cf.Variants, v)
			}
		}
	}
	data, err := json.Marshal(cf)
	if err != nil {
		return 0, err
	}
	if err := writeFileAtomic(c.entryFile(key), data); err != nil {
		return 0, err
	}
	c.entryIndex().use(key, e)
	return int64(len(data)), nil
}

// addStored counts bytes written into the cache in this run.
func (c *Cache) addStored(n int64) {
	c.storedMu.Lock()
	c.stored += n
	c.storedMu.Unlock()
}

// sameDeps reports whether two dependency lists are equal.
func sameDeps(a, b []cacheDep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// putBlob stores bytes under their hash unless a blob of that size is
// there, and returns the bytes written.
func (c *Cache) putBlob(ref blobRef, data []byte) (int64, error) {
	file := c.blobFile(ref.SHA256)
	if fi, err := os.Stat(file); err == nil && fi.Size() == ref.Size {
		return 0, nil
	}
	return int64(len(data)), writeFileAtomic(file, data)
}

// errDamaged reports a blob whose bytes do not match its name.
var errDamaged = errors.New("damaged cache blob")

// readBlob returns the bytes of a blob, checking them against their hash so
// that a damaged cache is noticed rather than copied into an output. A
// damaged blob is removed, so that the next store writes it again.
func (c *Cache) readBlob(ref blobRef) ([]byte, error) {
	file := c.blobFile(ref.SHA256)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != ref.Size || transform.SHA256Hex(data) != ref.SHA256 {
		os.Remove(file)
		return nil, fmt.Errorf("%w %s (removed; it is rebuilt on the next run)", errDamaged, file)
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

// blobs returns the references of an entry's outputs and variants.
func (e *cacheEntry) blobs() []blobRef {
	var refs []blobRef
	for _, o := range e.Outputs {
		refs = append(refs, o.Blob)
		for _, enc := range o.Encodings {
			refs = append(refs, enc.Blob)
		}
	}
	return refs
}

// hasBlob reports whether the local cache holds a blob of ref's size; its
// bytes are verified when read.
func (c *Cache) hasBlob(ref blobRef) bool {
	fi, err := os.Stat(c.blobFile(ref.SHA256))
	return err == nil && fi.Size() == ref.Size
}
