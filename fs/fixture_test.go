package fs_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	bakefs "github.com/bakefs/bakefs/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A treeFile is one logical file of a test tree.
type treeFile struct {
	path      string
	source    string
	typ       string
	data      string
	hashed    bool
	encodings []string // "br", "gzip", "zstd"
	width     int
	// imports, dynamicImports and css are the module graph (Entry.Imports, …).
	imports, dynamicImports, css []string
}

// buildTree writes files the way the pipeline does: each file at its path,
// each variant at path + suffix, and returns the tree with its manifest
// (whose file is also in the tree).
func buildTree(files []treeFile) (fstest.MapFS, *bakefs.Manifest) {
	tree := fstest.MapFS{}
	m := &bakefs.Manifest{Version: bakefs.ManifestVersion}
	for _, f := range files {
		data := []byte(f.data)
		sum := sha256.Sum256(data)
		sri := sha512.Sum384(data)
		e := bakefs.Entry{
			Path:      f.path,
			Source:    f.source,
			Size:      int64(len(data)),
			Type:      f.typ,
			SHA256:    hex.EncodeToString(sum[:]),
			Integrity: "sha384-" + base64.StdEncoding.EncodeToString(sri[:]),
			Width:     f.width,
			Imports:   f.imports, DynamicImports: f.dynamicImports, CSS: f.css,
		}
		if f.width > 0 {
			e.Height = f.width / 2
		}
		if f.hashed {
			e.Hashed = bakefs.HashedName(f.path, e.SHA256)
		}
		tree[f.path] = &fstest.MapFile{Data: data, Mode: 0o444}
		for _, name := range slices.Sorted(slices.Values(f.encodings)) {
			enc := encode(name, data)
			suffix, _ := bakefs.EncodingSuffix(name)
			esum := sha256.Sum256(enc)
			e.Encodings = append(e.Encodings, bakefs.Encoding{
				Name: name, Path: f.path + suffix, Size: int64(len(enc)), SHA256: hex.EncodeToString(esum[:]),
			})
			tree[f.path+suffix] = &fstest.MapFile{Data: enc, Mode: 0o444}
		}
		m.Files = append(m.Files, e)
	}
	slices.SortFunc(m.Files, func(a, b bakefs.Entry) int { return strings.Compare(a.Path, b.Path) })
	b, err := json.MarshalIndent(m, "", "  ")
	b = append(b, '\n') // the canonical form ends with a newline
	if err != nil {
		panic(err)
	}
	tree[bakefs.ManifestName] = &fstest.MapFile{Data: b, Mode: 0o444}
	return tree, m
}

// encode returns data in the named content coding. gzip uses
// compress/gzip; br and zstd are valid streams made of stored
// (uncompressed) blocks, which any decoder reads, as the standard library
// has no compressor for them.
func encode(name string, data []byte) []byte {
	switch name {
	case "gzip":
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		return buf.Bytes()
	case "br":
		return storedBrotli(data)
	case "zstd":
		return storedZstd(data)
	}
	panic("unknown coding " + name)
}

// storedBrotli returns a brotli stream (RFC 7932) of uncompressed
// meta-blocks holding data.
func storedBrotli(data []byte) []byte {
	var out []byte
	var acc uint64
	var nbits uint
	put := func(v uint64, n uint) {
		acc |= v << nbits
		nbits += n
		for nbits >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	flush := func() {
		if nbits > 0 {
			put(0, 8-nbits)
		}
	}
	put(0, 1) // WBITS = 16
	for len(data) > 0 {
		n := min(len(data), 1<<16)
		put(0, 1)            // ISLAST = 0
		put(0, 2)            // MNIBBLES = 4
		put(uint64(n-1), 16) // MLEN - 1
		put(1, 1)            // ISUNCOMPRESSED
		flush()              // uncompressed bytes start on a byte boundary
		out = append(out, data[:n]...)
		data = data[n:]
	}
	put(1, 1) // ISLAST
	put(1, 1) // ISLASTEMPTY
	flush()
	return out
}

// storedZstd returns a zstd frame (RFC 8878) of raw blocks holding data.
func storedZstd(data []byte) []byte {
	out := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0} // magic; single segment, 4-byte content size
	out = binary.LittleEndian.AppendUint32(out, uint32(len(data)))
	for {
		n := min(len(data), 1<<17)
		last := uint32(0)
		if n == len(data) {
			last = 1
		}
		h := uint32(n)<<3 | last // raw block
		out = append(out, byte(h), byte(h>>8), byte(h>>16))
		out = append(out, data[:n]...)
		data = data[n:]
		if last == 1 {
			return out
		}
	}
}

const (
	typeJS   = "text/javascript; charset=utf-8"
	typeCSS  = "text/css; charset=utf-8"
	typeHTML = "text/html; charset=utf-8"
	typeText = "text/plain; charset=utf-8"
	typeJPEG = "image/jpeg"
)

// appJS is a script long enough for ranges and compression to matter.
var appJS = strings.Repeat("export function greet(name) { return `hello, ${name}`; }\n", 40)

// testFiles is the tree most tests use.
var testFiles = []treeFile{
	{path: "index.html", typ: typeHTML, data: "<!doctype html><title>home</title>\n", encodings: []string{"gzip"}},
	{path: "robots.txt", typ: typeText, data: "User-agent: *\n"},
	{path: "empty.txt", typ: typeText, data: ""},
	{path: "sniff.txt", typ: typeText, data: "<html><script>alert(1)</script>"},
	{path: "js/app.js", typ: typeJS, data: appJS, hashed: true, encodings: []string{"br", "gzip", "zstd"}},
	{path: "js/vendor/lib.js", typ: typeJS, data: "var lib = {};\n", hashed: true, encodings: []string{"gzip"}},
	{path: "css/site.css", typ: typeCSS, data: "body { margin: 0 }\n", hashed: true, encodings: []string{"br", "gzip"}},
	{path: "img/hero-800w.jpg", source: "img/hero.jpg", typ: typeJPEG, data: "\xff\xd8 800 wide", hashed: true, width: 800},
	{path: "img/hero-400w.jpg", source: "img/hero.jpg", typ: typeJPEG, data: "\xff\xd8 400 wide", hashed: true, width: 400},
	{path: "img/logo.svg", typ: "image/svg+xml", data: "<svg/>", hashed: true},
	{path: "docs/index.html", typ: typeHTML, data: "<title>docs</title>\n"},
	{path: "docs/guide/intro.html", typ: typeHTML, data: "<title>intro</title>\n", hashed: true},
	{path: "data/.env", typ: typeText, data: "A=1\n", hashed: true},
	{path: "data/LICENSE", typ: typeText, data: "MIT\n", hashed: true},
	{path: "templates/page.html", typ: typeHTML, data: `<script src="{{asset "js/app.js"}}" integrity="{{integrity "js/app.js"}}"></script>`},
}

// testLogical lists the logical files of testFiles.
func testLogical() []string {
	var names []string
	for _, f := range testFiles {
		names = append(names, f.path)
	}
	return names
}

// newTestFS returns the FS of testFiles, its tree and manifest.
func newTestFS(tb testing.TB) (*bakefs.FS, fstest.MapFS, *bakefs.Manifest) {
	tb.Helper()
	tree, m := buildTree(testFiles)
	fsys, err := bakefs.New(tree, m)
	if err != nil {
		tb.Fatal(err)
	}
	return fsys, tree, m
}

// newTreeFS returns the FS of files and its manifest.
func newTreeFS(tb testing.TB, files []treeFile) (*bakefs.FS, *bakefs.Manifest) {
	tb.Helper()
	tree, m := buildTree(files)
	fsys, err := bakefs.New(tree, m)
	if err != nil {
		tb.Fatal(err)
	}
	return fsys, m
}

// entryOf returns the manifest entry of path.
func entryOf(tb testing.TB, m *bakefs.Manifest, path string) *bakefs.Entry {
	tb.Helper()
	e, ok := m.Lookup(path)
	if !ok {
		tb.Fatalf("no entry %s", path)
	}
	return e
}
