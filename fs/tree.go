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
	// deltas gives, for each of entry.Deltas in order, its dictionary's
	// SHA-256 and its index in variants, which holds the deltas after
	// the encodings.
	deltas []deltaVariant
}

// A deltaVariant is a variant of a file compressed against a dictionary.
type deltaVariant struct {
	dictionary [sha256Size]byte
	index      int
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

// newTree validates m, checks it against data when check is set, and
// computes the tree.
func newTree(data iofs.FS, m *Manifest, check bool) (*tree, error) {
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
	headers := newHeaderArena(m)
	arena := newNodeArena(m)
	for i := range m.Files {
		n := &t.files[i]
		if err := n.init(data, m.Files[i], check, headers, arena); err != nil {
			return nil, err
		}
		t.names[n.entry.Path] = n
		if n.entry.Previous != "" {
			continue // a kept file of an earlier release: served, never listed
		}
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
		var full string
		switch fi, _ := e.(*fileInfo); {
		case fi != nil && fi.entry != nil:
			full = fi.entry.Path // a file: its path, not a new string
		case name == ".":
			full = e.Name()
		default:
			full = name + "/" + e.Name()
		}
		d.paths[i] = full
		t.walk = append(t.walk, full)
		if e.IsDir() {
			t.fillWalk(full)
		}
	}
	d.hi = len(t.walk)
}

// init fills n from the manifest entry e and, with check, checks e's
// files in data. Header values are cut from headers, slices from arena.
func (n *node) init(data iofs.FS, e Entry, check bool, headers *headerArena, arena *nodeArena) error {
	if len(e.Encodings)+len(e.Deltas) > 254 {
		return fmt.Errorf("%w: %s: too many encodings", ErrManifest, e.Path)
	}
	e.Encodings = append(arena.encodings(len(e.Encodings)), e.Encodings...)
	n.entry = e
	sum256, sum384 := arena.sums()
	if len(e.SHA256) != 2*len(sum256) {
		return fmt.Errorf("%w: %s: sha256 %q", ErrManifest, e.Path, e.SHA256)
	}
	if _, err := hex.Decode(sum256, []byte(e.SHA256)); err != nil {
		return fmt.Errorf("%w: %s: sha256: %v", ErrManifest, e.Path, err)
	}
	sri := strings.TrimPrefix(e.Integrity, "sha384-")
	if k, err := base64.StdEncoding.Decode(sum384, []byte(sri)); err != nil || k != len(sum384) || base64.StdEncoding.DecodedLen(len(sri)) != len(sum384) {
		return fmt.Errorf("%w: %s: bad integrity %q", ErrManifest, e.Path, e.Integrity)
	}
	hashes := arena.hashes()
	hashes[0], hashes[1] = Hash{Algorithm: "sha256", Sum: sum256}, Hash{Algorithm: "sha384", Sum: sum384}
	n.info = fileInfo{
		name:   path.Base(e.Path),
		size:   e.Size,
		mode:   0o444,
		hashes: hashes,
		entry:  &n.entry,
	}
	n.variants = arena.variants(1 + len(e.Encodings) + len(e.Deltas))
	if err := n.variants[0].init(data, e.Path, e.Size, "", check, headers); err != nil {
		return err
	}
	for i, enc := range e.Encodings {
		c := codingOf(enc.Name)
		if c == codingIdentity {
			return fmt.Errorf("%w: %s: unknown encoding %q", ErrManifest, e.Path, enc.Name)
		}
		if err := n.variants[1+i].init(data, enc.Path, enc.Size, enc.Name, check, headers); err != nil {
			return err
		}
		n.byCoding[c] = uint8(1 + i)
		n.avail |= 1 << c
	}
	if len(e.Deltas) > 0 {
		n.deltas = make([]deltaVariant, len(e.Deltas))
	}
	for i, d := range e.Deltas {
		k := 1 + len(e.Encodings) + i
		if _, err := hex.Decode(n.deltas[i].dictionary[:], []byte(d.Dictionary)); err != nil {
			return fmt.Errorf("%w: %s: delta dictionary: %v", ErrManifest, e.Path, err)
		}
		n.deltas[i].index = k
		if err := n.variants[k].init(data, d.Path, d.Size, DeltaEncoding, check, headers); err != nil {
			return err
		}
	}
	return nil
}

// A nodeArena allocates the slices of all nodes of a tree at once (hash
// sums, hashes, variants, encodings), so that building the tree of
// thousands of files costs a few allocations instead of several per file.
// Each node gets pieces whose capacity ends with them, so that an append
// to one never writes into the next.
type nodeArena struct {
	sumBytes []byte
	hashList []Hash
	varList  []variant
	encList  []Encoding
}

// newNodeArena sizes an arena for the files of m.
func newNodeArena(m *Manifest) *nodeArena {
	nv, ne := 0, 0
	for _, e := range m.Files {
		nv += 1 + len(e.Encodings) + len(e.Deltas)
		ne += len(e.Encodings)
	}
	return &nodeArena{
		sumBytes: make([]byte, len(m.Files)*(sha256Size+sha384Size)),
		hashList: make([]Hash, 2*len(m.Files)),
		varList:  make([]variant, nv),
		encList:  make([]Encoding, 0, ne),
	}
}

// Sizes of the sums a file's hashes hold.
const (
	sha256Size = 32
	sha384Size = 48
)

func (a *nodeArena) sums() (sum256, sum384 []byte) {
	sum256 = a.sumBytes[:sha256Size:sha256Size]
	sum384 = a.sumBytes[sha256Size : sha256Size+sha384Size : sha256Size+sha384Size]
	a.sumBytes = a.sumBytes[sha256Size+sha384Size:]
	return sum256, sum384
}

func (a *nodeArena) hashes() []Hash {
	h := a.hashList[:2:2]
	a.hashList = a.hashList[2:]
	return h
}

func (a *nodeArena) variants(n int) []variant {
	v := a.varList[:n:n]
	a.varList = a.varList[n:]
	return v
}

// encodings returns an empty slice with room for n encodings.
func (a *nodeArena) encodings(n int) []Encoding {
	if n == 0 {
		return nil
	}
	start := len(a.encList)
	a.encList = a.encList[:start+n]
	return a.encList[start : start : start+n]
}

// init fills v for the file name of the given size and coding, taking its
// header values from headers, and with check checks the file in data.
func (v *variant) init(data iofs.FS, name string, size int64, coding string, check bool, headers *headerArena) error {
	if check {
		if err := checkFile(data, name, size); err != nil {
			return err
		}
	}
	v.path, v.size = name, size
	v.etag, v.length = headers.take(), headers.take()
	v.encoding = coding
	return nil
}

// checkFile reports, as an error wrapping ErrTree that names the file,
// that data has no regular file name of the given size.
func checkFile(data iofs.FS, name string, size int64) error {
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
	return nil
}

// A headerArena holds the header values of all variants of a manifest
// (ETag, then Content-Length, of each entry's identity bytes, then of
// each encoding, then of each delta, in manifest order) in one string, and hands them out in
// that order, so that a tree of thousands of files costs one allocation
// for them instead of two per variant.
type headerArena struct {
	text string
	ends []int // ends[i] is where value i ends in text
	next int
}

// newHeaderArena computes the header values of the variants of m.
func newHeaderArena(m *Manifest) *headerArena {
	n := 0
	for _, e := range m.Files {
		n += 1 + len(e.Encodings) + len(e.Deltas)
	}
	// An ETag is 2 quotes, etagLen digits, a dash and a coding name; a
	// length at most 19 digits.
	buf := make([]byte, 0, n*(etagLen+12+19))
	ends := make([]int, 0, 2*n)
	add := func(sha256, coding string, size int64) {
		buf = append(buf, '"')
		buf = append(buf, sha256[:min(etagLen, len(sha256))]...)
		if coding != "" {
			buf = append(buf, '-')
			buf = append(buf, coding...)
		}
		buf = append(buf, '"')
		ends = append(ends, len(buf))
		buf = strconv.AppendInt(buf, size, 10)
		ends = append(ends, len(buf))
	}
	for _, e := range m.Files {
		add(e.SHA256, "", e.Size)
		for _, enc := range e.Encodings {
			add(enc.SHA256, enc.Name, enc.Size)
		}
		for _, d := range e.Deltas {
			add(d.SHA256, DeltaEncoding, d.Size)
		}
	}
	return &headerArena{text: string(buf), ends: ends}
}

// take returns the next header value.
func (a *headerArena) take() string {
	start := 0
	if a.next > 0 {
		start = a.ends[a.next-1]
	}
	a.next++
	return a.text[start:a.ends[a.next-1]]
}
