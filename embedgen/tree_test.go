package embedgen

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	bakefs "github.com/bakefs/bakefs/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A testFile is one logical file of a test tree.
type testFile struct {
	path, typ, body string
	source          string
	hashed          bool // give it a hashed name
	gzip            bool // give it a gzip variant
	extra           map[string]string
	width, height   int
	// imports, dynamicImports and css are the module graph (Entry.Imports, …).
	imports, dynamicImports, css []string
}

// writeTree writes an output tree of files under dir, with a correct
// manifest (built with the fs types, by hand), and returns the manifest.
// extra adds variants with the given encoding name and bytes.
func writeTree(t testing.TB, dir string, files []testFile) *bakefs.Manifest {
	t.Helper()
	m := &bakefs.Manifest{Version: bakefs.ManifestVersion}
	for _, f := range files {
		body := []byte(f.body)
		e := bakefs.Entry{Path: f.path, Source: f.source, Size: int64(len(body)), Type: f.typ,
			SHA256: hexSHA256(body), Integrity: sri(body), Width: f.width, Height: f.height,
			Imports: f.imports, DynamicImports: f.dynamicImports, CSS: f.css}
		if e.Type == "" {
			e.Type = "text/plain; charset=utf-8"
		}
		if f.hashed {
			e.Hashed = bakefs.HashedName(f.path, e.SHA256)
		}
		put(t, dir, f.path, body)
		variants := map[string][]byte{}
		if f.gzip {
			variants["gzip"] = gzipBytes(t, body)
		}
		for name, b := range f.extra {
			variants[name] = []byte(b)
		}
		for _, name := range slices.Sorted(maps.Keys(variants)) {
			suffix, _ := bakefs.EncodingSuffix(name)
			b := variants[name]
			e.Encodings = append(e.Encodings, bakefs.Encoding{Name: name, Path: f.path + suffix, Size: int64(len(b)), SHA256: hexSHA256(b)})
			put(t, dir, f.path+suffix, b)
		}
		m.Files = append(m.Files, e)
	}
	slices.SortFunc(m.Files, func(a, b bakefs.Entry) int { return strings.Compare(a.Path, b.Path) })
	putManifest(t, dir, m)
	return m
}

// putManifest writes m as the manifest of the tree dir, without
// validating it (tests of invalid manifests use it too).
func putManifest(t testing.TB, dir string, m *bakefs.Manifest) {
	t.Helper()
	raw, err := json.MarshalIndent(m, "", "  ")
	raw = append(raw, '\n') // the canonical form ends with a newline
	if err != nil {
		t.Fatal(err)
	}
	put(t, dir, bakefs.ManifestName, raw)
}

func put(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func hexSHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func sri(b []byte) string {
	s := sha512.Sum384(b)
	return "sha384-" + base64.StdEncoding.EncodeToString(s[:])
}

// gzipBytes compresses b at a fixed level, with no name or time in the
// header, so the bytes are the same on every run.
func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// smallTree is the tree of the golden and example tests: a plain file, a
// hashed file with variants, names starting with "." and "_", a name with
// a bracket and one with a space.
func smallTree() []testFile {
	return []testFile{
		{path: "css/site.css", typ: "text/css; charset=utf-8", body: "body{margin:0}\n", hashed: true, gzip: true, extra: map[string]string{"br": "br-bytes-of-site.css"}},
		{path: "js/app.js", typ: "text/javascript; charset=utf-8", source: "js/app.ts", body: "console.log(1)\n", hashed: true, gzip: true},
		{path: ".well-known/security.txt", body: "Contact: mailto:security@example.test\n"},
		{path: "_next/chunk [1].js", typ: "text/javascript; charset=utf-8", body: "export{}\n"},
		{path: "img/logo.png", typ: "image/png", body: "\x89PNG\r\n\x1a\nnot really", width: 16, height: 8, source: "img/logo.svg"},
	}
}

// marshalUnchecked encodes m as JSON without validating it, to write
// invalid manifests.
func marshalUnchecked(t testing.TB, m *bakefs.Manifest) []byte {
	t.Helper()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
