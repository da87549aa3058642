package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/dirswap"
	"github.com/bakefs/bakefs/internal/statat"
	"github.com/bakefs/bakefs/internal/streamfile"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrNotTree reports an output directory that holds files but no bakefs
// manifest: something that WriteTree will not replace.
var ErrNotTree = errors.New("pipeline: not a bakefs output tree")

// WriteTree writes the result to dir: every output at its path, every
// variant beside it, and the manifest at bfs.ManifestName. It reports
// whether anything changed. It is PrepareTree followed by Commit.
func (r *Result) WriteTree(dir string) (changed bool, err error) {
	u, err := r.PrepareTree(dir)
	if err != nil {
		return false, err
	}
	return u.Changed(), u.Commit()
}

// A TreeUpdate is a new output tree made beside the directory it is to
// replace, not yet in its place: a build commits it together with the Go
// package made from it, or discards it when a later stage fails.
type TreeUpdate struct {
	swap     *dirswap.Update
	manifest []byte
}

// PrepareTree writes the result's tree into a temporary directory beside
// dir (hard-linking the files that dir already holds with the same bytes)
// and returns it uncommitted. When dir already holds this exact manifest
// and every file it lists with the listed size, nothing is written and the
// update changes nothing. A dir that exists, is not empty and has no
// manifest, or whose files are not all listed by its manifest, is refused
// with ErrNotTree, so that a mistaken path never deletes sources and a
// file put into the tree by hand is not lost.
func (r *Result) PrepareTree(dir string) (*TreeUpdate, error) {
	manifest, err := bakefs.EncodeManifest(r.Manifest)
	if err != nil {
		return nil, err
	}
	// The manifest is compared as it is read, since a tree that is
	// current, the common case, needs no more of it.
	if same, _ := streamfile.Equal(filepath.Join(dir, bakefs.ManifestName), manifest); same && treeComplete(dir, r.Manifest) {
		swap, err := dirswap.Unchanged(dir)
		return &TreeUpdate{swap: swap, manifest: manifest}, err
	}
	old, err := readTree(dir)
	if err != nil {
		return nil, err
	}
	if old != nil {
		if err := old.checkOwned(dir); err != nil {
			return nil, err
		}
	}
	swap, err := dirswap.Prepare(dir, func(tmp string) error {
		return r.fill(tmp, dir, old, manifest)
	})
	if err != nil {
		return nil, err
	}
	return &TreeUpdate{swap: swap, manifest: manifest}, nil
}

// CheckTree reports whether dir may take an output tree before any work
// is done for it: it is missing, empty, or holds a bakefs tree. Otherwise
// the error wraps ErrNotTree and says how to proceed. PrepareTree checks
// the same, and also refuses to replace a tree that holds files its
// manifest does not list.
func CheckTree(dir string) error {
	// A manifest that is a regular file is all this asks; readTree would
	// read all of it (a megabyte for a tree of a thousand files), which
	// PrepareTree does anyway.
	if fi, err := os.Stat(filepath.Join(dir, bakefs.ManifestName)); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	_, err := readTree(dir)
	return err
}

// fill writes the tree into the empty directory tmp. Damaged cache
// entries do not stop it: it removes every one it meets, then fails with
// ErrCacheDamaged, so that one more run makes all their bytes anew.
func (r *Result) fill(tmp, dir string, old *tree, manifest []byte) error {
	var damaged error
	place := func(key, name string, ref blobRef, data []byte) error {
		err := r.place(tmp, dir, old, key, name, ref, data)
		if errors.Is(err, ErrCacheDamaged) {
			// Go on: every damaged blob met is removed, so that the next
			// run stores it again.
			damaged = cmp.Or(damaged, err)
			return nil
		}
		return err
	}
	for _, o := range r.outputs {
		if err := place(o.key, o.Path, o.blob, o.data); err != nil {
			return err
		}
		for _, e := range o.encodings {
			suffix, _ := bakefs.EncodingSuffix(e.name)
			if err := place(e.key, o.Path+suffix, e.blob, e.data); err != nil {
				return err
			}
		}
		for _, d := range o.deltas {
			if err := place(d.key, bakefs.DeltaPath(o.Path, d.dictionary), d.blob, d.data); err != nil {
				return err
			}
		}
	}
	for _, k := range r.kept {
		if err := k.place(tmp, dir, old); err != nil {
			return err
		}
	}
	if damaged != nil {
		return damaged
	}
	if err := linkStatic(tmp, r.Manifest); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tmp, bakefs.ManifestName), manifest, 0o644)
}

// Changed reports whether committing the update changes the directory.
func (u *TreeUpdate) Changed() bool { return u.swap.Changed() }

// Manifest returns the bytes of the tree's manifest file.
func (u *TreeUpdate) Manifest() []byte { return u.manifest }

// Path returns where the new tree can be read before it is committed.
func (u *TreeUpdate) Path() string { return u.swap.Path() }

// Commit puts the new tree in place of the directory (see dirswap.Replace:
// a reader sees the whole old or the whole new tree).
func (u *TreeUpdate) Commit() error { return u.swap.Commit() }

// Discard removes an uncommitted update, leaving the directory as it was.
func (u *TreeUpdate) Discard() { u.swap.Discard() }

// place writes one file of the new tree, linking the old tree's copy when
// it has the same bytes. A blob of the cache entry key that is missing or
// damaged removes the entry and fails with ErrCacheDamaged.
func (r *Result) place(tmp, dir string, old *tree, key, name string, ref blobRef, data []byte) error {
	dst := filepath.Join(tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if old != nil && old.sum(name) == ref.SHA256 && linkIntact(filepath.Join(dir, filepath.FromSlash(name)), dst, ref.Size) {
		return nil
	}
	data, err := fetchEntry(data, ref, r.cache, key)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return os.WriteFile(dst, data, 0o644)
}

// A tree is what an existing output directory's manifest says it holds.
// Its manifest is parsed only when a file is looked up: a run with nothing
// changed compares the raw bytes and stops there. A tree is safe for
// concurrent use.
type tree struct {
	raw []byte

	once sync.Once
	sums map[string]string // file in the tree -> SHA-256
}

// linkIntact hard-links from, a file of the tree before, to to, and
// reports whether it did: only when from is still a regular file (itself,
// not through a symbolic link) of the size its manifest lists, the size
// check a current tree passes (entryComplete), so that a file edited in
// the tree, which made the tree be written again, is not carried into the
// new one.
func linkIntact(from, to string, size int64) bool {
	fi, err := os.Lstat(from)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == size && os.Link(from, to) == nil
}

// sum returns the SHA-256 the old manifest lists for a file of the tree
// (its second names included, see staticNames), or "" when it lists none
// (or cannot be parsed).
func (t *tree) sum(name string) string {
	t.once.Do(func() {
		t.sums = make(map[string]string)
		if m, err := bakefs.ParseManifest(t.raw); err == nil {
			for i, e := range m.Files {
				t.sums[e.Path] = e.SHA256
				for _, enc := range e.Encodings {
					t.sums[enc.Path] = enc.SHA256
				}
				for _, d := range e.Deltas {
					t.sums[d.Path] = d.SHA256
				}
				for _, n := range staticNames(&m.Files[i]) {
					t.sums[n.name] = n.sha256
				}
			}
		}
	})
	return t.sums[name]
}

// checkOwned returns an error wrapping ErrNotTree when dir, the tree
// whose manifest t read, holds a file that the manifest does not list
// (nor the manifest itself): the first in path order. An unreadable
// manifest lists nothing and is not checked, so that a damaged tree is
// made anew.
func (t *tree) checkOwned(dir string) error {
	if _, err := bakefs.ParseManifest(t.raw); err != nil {
		return nil
	}
	return filepath.WalkDir(dir, func(file string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, file)
		if err != nil {
			return err
		}
		if name := filepath.ToSlash(rel); name != bakefs.ManifestName && t.sum(name) == "" {
			return fmt.Errorf("%w: %s holds %s, which its %s does not list, so bakefs did not write it and will not delete it; move it out of the tree, or write the tree to another directory", ErrNotTree, dir, name, bakefs.ManifestName)
		}
		return nil
	})
}

// readTree reads dir's manifest. It returns nil for a missing or empty dir,
// and ErrNotTree for a dir with other content.
func readTree(dir string) (*tree, error) {
	raw, err := os.ReadFile(filepath.Join(dir, bakefs.ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		f, err := os.Open(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if _, err := f.Readdirnames(1); err == io.EOF {
			return nil, nil
		}
		return nil, fmt.Errorf("%w: %s has files but no %s, so bakefs did not write it and will not replace it; remove it, or write the tree to another directory", ErrNotTree, dir, bakefs.ManifestName)
	}
	if err != nil {
		return nil, err
	}
	return &tree{raw: raw}, nil
}

// treeComplete reports whether dir has every file of m with its size, and
// every second name (see staticNames) as a regular file. A check is one
// stat per file, most of a no-change build's time, so the entries are
// shared among as many goroutines as there are processors, and the first
// file found missing stops them all; each stat resolves the file's name
// in its open directory (statat). The second names, hard links to the
// files whose size is checked, are found in one listing of each directory
// that holds them instead, which halves the stats of a hashed tree.
func treeComplete(dir string, m *bakefs.Manifest) bool {
	workers := max(1, min(len(m.Files), runtime.GOMAXPROCS(0)))
	var missing atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		if !secondNamesListed(dir, m) {
			missing.Store(true)
		}
	})
	for w := range workers {
		wg.Go(func() {
			tree := statat.New(dir) // the entries are in path order: each directory is opened about once per goroutine
			defer tree.Close()
			for i := w; i < len(m.Files) && !missing.Load(); i += workers {
				if !entryComplete(tree, &m.Files[i]) {
					missing.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !missing.Load()
}

// entryComplete reports whether tree has the file of e, its variants and
// its deltas, with their sizes.
func entryComplete(tree *statat.Tree, e *bakefs.Entry) bool {
	ok := func(name string, size int64) bool {
		got, regular := tree.RegularSize(name)
		return regular && got == size
	}
	if !ok(e.Path, e.Size) {
		return false
	}
	for _, enc := range e.Encodings {
		if !ok(enc.Path, enc.Size) {
			return false
		}
	}
	for _, d := range e.Deltas {
		if !ok(d.Path, d.Size) {
			return false
		}
	}
	return true
}

// secondNamesListed reports whether the directories of dir list every
// second name of m's files as a regular file.
func secondNamesListed(dir string, m *bakefs.Manifest) bool {
	byDir := make(map[string][]string)
	for i := range m.Files {
		for _, n := range staticNames(&m.Files[i]) {
			d, base := path.Split(n.name)
			byDir[d] = append(byDir[d], base)
		}
	}
	for d, names := range byDir {
		regular, err := regularFiles(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil {
			return false
		}
		for _, name := range names {
			if !regular[name] {
				return false
			}
		}
	}
	return true
}

// regularFiles returns the names of the regular files in dir, from one
// listing (the file system's entry types; os stats only where it gives
// none).
func regularFiles(dir string) (map[string]bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	regular := make(map[string]bool, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			regular[e.Name()] = true
		}
	}
	return regular, nil
}
