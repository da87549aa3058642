package fs

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	iofs "io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A tree is what New computes once from a manifest and the bytes of its
// output tree. It is immutable afterwards and shared by an FS and all its
// Subs, handlers and template funcs.
type tree struct {
	data  iofs.FS
	files []node           // one per manifest entry, sorted by path
	names map[string]*node // logical path and hashed name -> file
	dirs  map[string]*dir  // "." and every directory of a logical path
	// walk lists every logical file and directory except ".", in the
	// order of fs.WalkDir (sorted by name within each directory, a
	// directory before its contents). A directory's descendants are the
	// contiguous range walk[lo:hi] of its dir.
	walk []string
	// images maps an entry's Source to the entries made from it that have
	// a width, sorted by width then path (see FuncMap's srcset).
	images map[string][]*node
}

// A node is one logical file.
type node struct {
	entry Entry
	info  fileInfo
	// variants[0] holds the identity bytes, variants[1:] the encodings in
	// the order of entry.Encodings.
	variants []variant
	// byCoding gives, for each coding, its index in variants; 0 when the
	// file has no variant in that coding.
	byCoding [numCodings]uint8
	avail    codingSet
}

// A variant is the identity bytes or one encoded variant of a file, with
// the header values that serve it, built once so that serving allocates
// nothing.
type variant struct {
	blob
	etag     string // strong, quoted
	length   string // Content-Length
	encoding string // Content-Encoding; "" for identity
}

// A dir is one directory of the logical files.
type dir struct {
	info    fileInfo
	entries []iofs.DirEntry // sorted by name
	paths   []string        // the tree path of each of entries
	lo, hi  int             // descendants in tree.walk
}

// etagLen is the number of hex digits of a SHA-256 in an ETag: 80 bits.
const etagLen = 20

// newTree validates m against data and computes the tree.
func newTree(data iofs.FS, m *Manifest) (*tree, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil manifest", ErrManifest)
	}
	if data == nil {
		return nil, fmt.Errorf("%w: nil data", ErrTree)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	t := &tree{
		data:   data,
		files:  make([]node, len(m.Files)),
		names:  make(map[string]*node, 2*len(m.Files)),
		dirs:   make(map[string]*dir),
		images: make(map[string][]*node),
	}
	children := make(map[string][]iofs.DirEntry) // dir -> entries
	var addDir func(name string)
	addDir = func(name string) {
		if _, ok := t.dirs[name]; ok {
			return
		}
		t.dirs[name] = &dir{info: fileInfo{name: path.Base(name), mode: iofs.ModeDir | 0o555}}
		if name != "." {
			parent := path.Dir(name)
			addDir(parent)
			children[parent] = append(children[parent], &t.dirs[name].info)
		}
	}
	addDir(".")
	for i := range m.Files {
		n := &t.files[i]
		if err := n.init(data, m.Files[i]); err != nil {
			return nil, err
		}
		t.names[n.entry.Path] = n
		if n.entry.Hashed != "" {
			t.names[n.entry.Hashed] = n
		}
		parent := path.Dir(n.entry.Path)
		addDir(parent)
		children[parent] = append(children[parent], &n.info)
		if n.entry.Source != "" && n.entry.Width > 0 {
			t.images[n.entry.Source] = append(t.images[n.entry.Source], n)
		}
	}
	dirNames := slices.Sorted(maps.Keys(t.dirs))
	for _, name := range dirNames {
		if n, ok := t.names[name]; ok {
			what := "path"
			if n.entry.Path != name {
				what = "hashed name"
			}
			return nil, fmt.Errorf("%w: %s: %s %q is also a directory", ErrManifest, n.entry.Path, what, name)
		}
	}
	for name, d := range t.dirs {
		d.entries = children[name]
		slices.SortFunc(d.entries, func(a, b iofs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	t.walk = make([]string, 0, len(t.files)+len(t.dirs)-1)
	t.fillWalk(".")
	for _, imgs := range t.images {
		slices.SortFunc(imgs, func(a, b *node) int {
			if a.entry.Width != b.entry.Width {
				return a.entry.Width - b.entry.Width
			}
			return strings.Compare(a.entry.Path, b.entry.Path)
		})
	}
	return t, nil
}

// fillWalk appends the descendants of the directory name to t.walk.
func (t *tree) fillWalk(name string) {
	d := t.dirs[name]
	d.lo = len(t.walk)
	d.paths = make([]string, len(d.entries))
	for i, e := range d.entries {
		full := e.Name()
		if name != "." {
			full = name + "/" + full
		}
		d.paths[i] = full
		t.walk = append(t.walk, full)
		if e.IsDir() {
			t.fillWalk(full)
		}
	}
	d.hi = len(t.walk)
}

// init fills n from the manifest entry e and checks e's files in data.
func (n *node) init(data iofs.FS, e Entry) error {
	e.Encodings = slices.Clone(e.Encodings)
	n.entry = e
	sum256, err := hex.DecodeString(e.SHA256)
	if err != nil {
		return fmt.Errorf("%w: %s: sha256: %v", ErrManifest, e.Path, err)
	}
	sum384, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(e.Integrity, "sha384-"))
	if err != nil || len(sum384) != 48 {
		return fmt.Errorf("%w: %s: bad integrity %q", ErrManifest, e.Path, e.Integrity)
	}
	n.info = fileInfo{
		name:   path.Base(e.Path),
		size:   e.Size,
		mode:   0o444,
		hashes: []Hash{{Algorithm: "sha256", Sum: sum256}, {Algorithm: "sha384", Sum: sum384}},
		entry:  &n.entry,
	}
	if len(e.Encodings) > 254 {
		return fmt.Errorf("%w: %s: too many encodings", ErrManifest, e.Path)
	}
	n.variants = make([]variant, 1+len(e.Encodings))
	if err := n.variants[0].init(data, e.Path, e.Size, e.SHA256, ""); err != nil {
		return err
	}
	for i, enc := range e.Encodings {
		c := codingOf(enc.Name)
		if c == codingIdentity {
			return fmt.Errorf("%w: %s: unknown encoding %q", ErrManifest, e.Path, enc.Name)
		}
		if err := n.variants[1+i].init(data, enc.Path, enc.Size, enc.SHA256, enc.Name); err != nil {
			return err
		}
		n.byCoding[c] = uint8(1 + i)
		n.avail |= 1 << c
	}
	return nil
}

// init fills v and checks that data holds a regular file of the given size
// at name.
func (v *variant) init(data iofs.FS, name string, size int64, sha256, coding string) error {
	fi, err := iofs.Stat(data, name)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrTree, name, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s: not a regular file", ErrTree, name)
	}
	if fi.Size() != size {
		return fmt.Errorf("%w: %s: size %d, manifest says %d", ErrTree, name, fi.Size(), size)
	}
	v.path, v.size = name, size
	if coding == "" {
		v.etag = `"` + sha256[:etagLen] + `"`
	} else {
		v.etag = `"` + sha256[:etagLen] + "-" + coding + `"`
		v.encoding = coding
	}
	v.length = strconv.FormatInt(size, 10)
	return nil
}
