package transform

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bfs "github.com/bakefs/bakefs/fs"
)

// ErrNotTree reports an output directory that holds files but no bakefs
// manifest: something that WriteTree will not replace.
var ErrNotTree = errors.New("transform: not a bakefs output tree")

// WriteTree writes the result to dir: every output at its path, every
// variant beside it, and the manifest at bfs.ManifestName. It reports
// whether anything changed.
//
// When dir already holds this exact manifest and every file it lists with
// the listed size, WriteTree touches nothing. Otherwise it builds the new
// tree in a temporary directory beside dir (hard-linking files that are
// unchanged since the previous tree) and swaps it in with renames, so a
// failure leaves the previous tree intact and no partial file. A dir that
// exists, is not empty and has no manifest is refused with ErrNotTree,
// so that a mistaken path never deletes sources.
func (r *Result) WriteTree(dir string) (changed bool, err error) {
	manifest, err := r.Manifest.Marshal()
	if err != nil {
		return false, err
	}
	old, err := readTree(dir)
	if err != nil {
		return false, err
	}
	if old != nil && bytes.Equal(old.raw, manifest) && treeComplete(dir, r.Manifest) {
		return false, nil
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return false, err
	}
	for _, o := range r.outputs {
		if err := r.place(tmp, dir, old, o.Path, o.blob, o.data); err != nil {
			return false, err
		}
		for _, e := range o.encodings {
			suffix, _ := bfs.EncodingSuffix(e.name)
			if err := r.place(tmp, dir, old, o.Path+suffix, e.blob, e.data); err != nil {
				return false, err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, bfs.ManifestName), manifest, 0o644); err != nil {
		return false, err
	}
	return true, swapDir(tmp, dir)
}

// place writes one file of the new tree, linking the old tree's copy when
// it has the same bytes.
func (r *Result) place(tmp, dir string, old *tree, name string, ref blobRef, data []byte) error {
	dst := filepath.Join(tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if old != nil && old.sum(name) == ref.SHA256 {
		if os.Link(filepath.Join(dir, filepath.FromSlash(name)), dst) == nil {
			return nil
		}
	}
	data, err := fetch(data, ref, r.cache)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return os.WriteFile(dst, data, 0o644)
}

// A tree is what an existing output directory's manifest says it holds.
// Its manifest is parsed only when a file is looked up: a run with nothing
// changed compares the raw bytes and stops there.
type tree struct {
	raw  []byte
	sums map[string]string // file in the tree -> SHA-256; nil until sum
}

// sum returns the SHA-256 the old manifest lists for a file of the tree,
// or "" when it lists none (or cannot be parsed).
func (t *tree) sum(name string) string {
	if t.sums == nil {
		t.sums = make(map[string]string)
		if m, err := bfs.ParseManifest(t.raw); err == nil {
			for _, e := range m.Files {
				t.sums[e.Path] = e.SHA256
				for _, enc := range e.Encodings {
					t.sums[enc.Path] = enc.SHA256
				}
			}
		}
	}
	return t.sums[name]
}

// readTree reads dir's manifest. It returns nil for a missing or empty dir,
// and ErrNotTree for a dir with other content.
func readTree(dir string) (*tree, error) {
	raw, err := os.ReadFile(filepath.Join(dir, bfs.ManifestName))
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
		return nil, fmt.Errorf("%w: %s has files but no %s; refusing to replace it", ErrNotTree, dir, bfs.ManifestName)
	}
	if err != nil {
		return nil, err
	}
	return &tree{raw: raw}, nil
}

// treeComplete reports whether dir has every file of m with its size.
func treeComplete(dir string, m *bfs.Manifest) bool {
	ok := func(name string, size int64) bool {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		return err == nil && fi.Mode().IsRegular() && fi.Size() == size
	}
	for _, e := range m.Files {
		if !ok(e.Path, e.Size) {
			return false
		}
		for _, enc := range e.Encodings {
			if !ok(enc.Path, enc.Size) {
				return false
			}
		}
	}
	return true
}

// swapDir replaces dir with tmp: dir is moved aside, tmp renamed into its
// place, and the old tree removed. If the second rename fails the old tree
// is put back.
func swapDir(tmp, dir string) error {
	aside := ""
	if _, err := os.Lstat(dir); err == nil {
		aside = tmp + ".old"
		if err := os.Rename(dir, aside); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if aside != "" {
			os.Rename(aside, dir)
		}
		return err
	}
	if aside != "" {
		return os.RemoveAll(aside)
	}
	return nil
}
