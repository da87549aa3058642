package fs

import (
	"fmt"
	"io"
	iofs "io/fs"
	"slices"
	"strings"
)

// An FS is the file system of the logical files of an output tree. It is
// safe for concurrent use, and cheap to copy through Sub.
//
// It lists only logical files and the directories that hold them:
// precompressed variants (".br", ".gz", ".zst"), hashed names and the
// manifest are never listed by ReadDir, Glob or fs.WalkDir. Open, ReadFile
// and Stat of a hashed name ("js/app.3f2a1b9c0d.js") resolve to the logical
// file: same bytes and the same FileInfo, whose Name is the logical base
// name ("app.js"). Variants are served by Handler only.
//
// Errors are *fs.PathError with a lowercase Op ("open", "stat", "readdir",
// "read", "seek", "sub") and the name as given: fs.ErrInvalid for a name
// that is not fs.ValidPath, fs.ErrNotExist for a name that is neither a
// logical file, a hashed name nor a directory.
//
// Every FileInfo of a file implements HashFileInfo, and its Sys method
// returns the file's *Entry. ModTime is always the zero time.
//
// To log, measure or restrict access to an FS, use With rather than a
// wrapper type: it returns an FS with hooks, which keeps every method and
// interface.
type FS struct {
	src *source // the tree, built on first use for NewLazy
	dir string  // full path of the root of this FS in the tree; "" at the top
	h   *layer  // the hooks of With, outermost first; nil when none
}

var (
	_ iofs.FS         = (*FS)(nil)
	_ iofs.ReadFileFS = (*FS)(nil)
	_ iofs.ReadDirFS  = (*FS)(nil)
	_ iofs.StatFS     = (*FS)(nil)
	_ iofs.GlobFS     = (*FS)(nil)
	_ iofs.SubFS      = (*FS)(nil)
)

// New returns the FS of the output tree data described by m. data holds
// each entry's bytes at entry.Path and each variant's at its encoding.Path,
// usually a sub-tree of an embed.FS.
//
// New validates m (errors wrap ErrManifest), refuses a name that would be
// both a file and a directory, and checks with Stat that every listed file
// and variant exists in data as a regular file of the listed size (errors
// wrap ErrTree and name the file). It computes the directory listings, the
// lookup tables and every response header once. m is copied: changing it
// afterwards has no effect.
func New(data iofs.FS, m *Manifest) (*FS, error) {
	t, err := newTree(data, m, true)
	if err != nil {
		return nil, err
	}
	return &FS{src: builtSource(t)}, nil
}

// NewVerified is New for a tree whose files were checked against m when
// they were written, as the packages of the embed generator are (it
// verifies every byte it embeds): it skips the Stat of each file and
// variant, so that start-up makes no file system call per file. A file
// that does not match m after all is then reported when it is first read,
// as an error wrapping ErrTree, instead of by NewVerified.
func NewVerified(data iofs.FS, m *Manifest) (*FS, error) {
	t, err := newTree(data, m, false)
	if err != nil {
		return nil, err
	}
	return &FS{src: builtSource(t)}, nil
}

// Load reads the manifest of data (the file ManifestName at its root) and
// returns New(data, manifest). Errors name the manifest file.
func Load(data iofs.FS) (*FS, error) {
	if data == nil {
		return nil, fmt.Errorf("%w: nil data", ErrTree)
	}
	b, err := iofs.ReadFile(data, ManifestName)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTree, ManifestName, err)
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestName, err)
	}
	return New(data, m)
}

// full returns the tree path of name, a valid path relative to f.
func (f *FS) full(name string) string {
	switch {
	case f.dir == "":
		return name
	case name == ".":
		return f.dir
	}
	return f.dir + "/" + name
}

// rel returns the path relative to f of the tree path full, and whether
// full is inside f.
func (f *FS) rel(full string) (string, bool) {
	switch {
	case f.dir == "":
		return full, true
	case full == f.dir:
		return ".", true
	case len(full) > len(f.dir) && full[len(f.dir)] == '/' && strings.HasPrefix(full, f.dir):
		return full[len(f.dir)+1:], true
	}
	return "", false
}

// lookup finds the file (logical path or hashed name) or the directory
// called name. Errors are *fs.PathError with the given op.
func (f *FS) lookup(op, name string) (*node, *dir, error) {
	if !iofs.ValidPath(name) {
		return nil, nil, &iofs.PathError{Op: op, Path: name, Err: iofs.ErrInvalid}
	}
	full := f.full(name)
	if n, ok := f.tree().names[full]; ok {
		if f.h != nil {
			if err := f.visible(n.entry.Path); err != nil {
				return nil, nil, &iofs.PathError{Op: op, Path: name, Err: err}
			}
		}
		return n, nil, nil
	}
	if d, ok := f.tree().dirs[full]; ok {
		if f.h != nil {
			if err := f.visible(full); err != nil {
				return nil, nil, &iofs.PathError{Op: op, Path: name, Err: err}
			}
		}
		return nil, d, nil
	}
	return nil, nil, &iofs.PathError{Op: op, Path: name, Err: iofs.ErrNotExist}
}

// Open opens the logical file, hashed name or directory name. Files
// implement io.Seeker and io.ReaderAt; directories implement
// fs.ReadDirFile.
func (f *FS) Open(name string) (iofs.File, error) {
	file, err := f.open(name)
	if f.h != nil {
		f.observe("open", f.full(name), err)
	}
	return file, err
}

func (f *FS) open(name string) (iofs.File, error) {
	n, d, err := f.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		entries, _ := f.children(d)
		return &dirFile{entries: entries, name: name, info: &d.info}, nil
	}
	ra, closer, err := n.variants[0].open(f.tree().data)
	if err != nil {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: err}
	}
	return &file{n: n, name: name, ra: ra, closer: closer}, nil
}

// Stat returns the FileInfo of the logical file, hashed name or directory
// name, without opening it.
func (f *FS) Stat(name string) (iofs.FileInfo, error) {
	fi, err := f.stat(name)
	if f.h != nil {
		f.observe("stat", f.full(name), err)
	}
	return fi, err
}

func (f *FS) stat(name string) (iofs.FileInfo, error) {
	n, d, err := f.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return &d.info, nil
	}
	return &n.info, nil
}

// ReadFile returns a new copy of the bytes of the logical file or hashed
// name. Reading a directory fails with ErrIsDir.
func (f *FS) ReadFile(name string) ([]byte, error) {
	b, err := f.readFile(name)
	if f.h != nil {
		f.observe("readfile", f.full(name), err)
	}
	return b, err
}

func (f *FS) readFile(name string) ([]byte, error) {
	n, d, err := f.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if d != nil {
		return nil, &iofs.PathError{Op: "read", Path: name, Err: ErrIsDir}
	}
	ra, closer, err := n.variants[0].open(f.tree().data)
	if err != nil {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: err}
	}
	if closer != nil {
		defer closer.Close()
	}
	b := make([]byte, n.info.size)
	if k, err := ra.ReadAt(b, 0); k < len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, &iofs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

// ReadDir returns the entries of the directory name, sorted by name, in a
// new slice. The entries are computed once in New.
func (f *FS) ReadDir(name string) ([]iofs.DirEntry, error) {
	entries, err := f.readDir(name)
	if f.h != nil {
		f.observe("readdir", f.full(name), err)
	}
	return entries, err
}

func (f *FS) readDir(name string) ([]iofs.DirEntry, error) {
	n, d, err := f.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if n != nil {
		return nil, &iofs.PathError{Op: "readdir", Path: name, Err: ErrNotDir}
	}
	entries, shared := f.children(d)
	if shared {
		return slices.Clone(entries), nil
	}
	return entries, nil
}

// children returns the entries of d that f shows, sorted by name: all of
// them, shared, without hooks; the ones every Allow accepts, in a new
// slice, with hooks. d itself is visible.
func (f *FS) children(d *dir) (entries []iofs.DirEntry, shared bool) {
	if f.h == nil || !f.h.allows() {
		return d.entries, true
	}
	shown := make([]iofs.DirEntry, 0, len(d.entries))
	for i, e := range d.entries {
		if f.allowed(d.paths[i]) == nil {
			shown = append(shown, e)
		}
	}
	return shown, false
}

// Path returns the hashed name of the logical file name
// ("js/app.js" → "js/app.3f2a1b9c0d.js"), relative to f. It returns name
// itself when the file is not fingerprinted, when name is already a hashed
// name, when name is not a file of f, or, in a Sub, when the hashed name
// lies outside it.
func (f *FS) Path(name string) string {
	if !iofs.ValidPath(name) {
		return name
	}
	n, ok := f.tree().names[f.full(name)]
	if !ok || n.entry.Hashed == "" || f.h != nil && f.visible(n.entry.Path) != nil {
		return name
	}
	if rel, ok := f.rel(n.entry.Hashed); ok {
		return rel
	}
	return name
}

// Integrity returns the Subresource Integrity value ("sha384-…") of the
// file name (logical or hashed), or "" when name is not a file of f.
func (f *FS) Integrity(name string) string {
	if e, ok := f.entry(name); ok {
		return e.Integrity
	}
	return ""
}

// Entry returns a copy of the manifest entry of the file name (logical or
// hashed) and whether there is one. Its paths are those of the manifest,
// relative to the top of the tree even in a Sub.
func (f *FS) Entry(name string) (Entry, bool) {
	e, ok := f.entry(name)
	if !ok {
		return Entry{}, false
	}
	c := *e
	c.Encodings = slices.Clone(e.Encodings)
	c.Imports, c.DynamicImports, c.CSS = slices.Clone(e.Imports), slices.Clone(e.DynamicImports), slices.Clone(e.CSS)
	return c, true
}

func (f *FS) entry(name string) (*Entry, bool) {
	if !iofs.ValidPath(name) {
		return nil, false
	}
	n, ok := f.tree().names[f.full(name)]
	if !ok || f.h != nil && f.visible(n.entry.Path) != nil {
		return nil, false
	}
	return &n.entry, true
}
