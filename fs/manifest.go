package fs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"
)

// ManifestName is the name of the manifest file at the root of an output
// tree. No asset may have this path.
const ManifestName = "bakefs-manifest.json"

// ManifestVersion is the version of the manifest format that this package
// reads and writes. A manifest with another version is refused.
const ManifestVersion = 1

// ErrManifest reports a manifest that is malformed or breaks one of the
// rules documented on Manifest.
var ErrManifest = errors.New("bakefs: invalid manifest")

// A Manifest lists every logical file of an output tree. It is the contract
// between the transform pipeline, which writes it, and the embed generator and
// runtime, which read it.
//
// The JSON form (version 1) is:
//
//	{
//	  "version": 1,
//	  "files": [
//	    {
//	      "path": "js/app.js",
//	      "source": "js/app.ts",
//	      "size": 1234,
//	      "type": "text/javascript; charset=utf-8",
//	      "sha256": "<64 lowercase hex digits>",
//	      "hashed": "js/app.3f2a1b9c0d.js",
//	      "fingerprinted": true,
//	      "integrity": "sha384-<standard base64>",
//	      "encodings": [
//	        {"name": "br", "path": "js/app.js.br", "size": 301, "sha256": "…"},
//	        {"name": "gzip", "path": "js/app.js.gz", "size": 356, "sha256": "…"}
//	      ],
//	      "imports": ["js/chunk-5XJ3KQ2M.js"],
//	      "dynamicImports": ["js/editor.js"],
//	      "css": ["css/app.css"]
//	    }
//	  ]
//	}
//
// Rules: files are sorted by path and paths are unique and valid
// (io/fs.ValidPath); every path, hashed name and encoding path names a
// distinct file of the tree (hashed names are aliases resolved through the
// manifest; on disk, bakefs build also gives each hashed file and variant
// its hashed name as a hard link, for static servers, which the manifest
// does not list and readers ignore); encodings are sorted by name and
// each name appears once; size and sha256 describe the exact bytes of the
// file or variant. Width and height are set for images. Only a JavaScript
// entry (see FS.ModulePreloads) has imports, dynamicImports and css; each
// is sorted, without duplicates, and names other entries by path:
// JavaScript ones for imports and dynamicImports, style sheets (text/css)
// for css. A kept entry (Previous set) has a Path that is the hashed
// name of its Previous, a Release of 1 or more, no hashed name, source,
// size in pixels, module graph or deltas. A delta's dictionary is the
// sha256 of a kept entry whose Previous is the delta's entry, and its
// path is DeltaPath of the two. The encoding is canonical: what encoding/json writes with
// two-space indentation and HTML escaping off (the pipeline writes it
// with EncodeManifest; this runtime package only reads it).
type Manifest struct {
	Version int     `json:"version"`
	Files   []Entry `json:"files"`
}

// An Entry describes one logical file.
type Entry struct {
	// Path is the logical, slash-separated path, valid for io/fs.
	Path string `json:"path"`
	// Source is the path of the source file this entry was made from, when
	// it differs from Path (a.ts for a.js, hero.jpg for hero-800w.jpg).
	Source string `json:"source,omitempty"`
	// Size is the length of the identity bytes.
	Size int64 `json:"size"`
	// Type is the media type sent as Content-Type.
	Type string `json:"type"`
	// SHA256 is the lowercase hex SHA-256 of the identity bytes.
	SHA256 string `json:"sha256"`
	// Hashed is the fingerprinted name (see HashedName), or empty when the
	// file is not fingerprinted.
	Hashed string `json:"hashed,omitempty"`
	// Fingerprinted reports that Path itself is content-named: a tool
	// put a hash of the bytes in it (esbuild's assets/logo-5XJ3KQ2M.png),
	// so the file is served as immutable under its logical name, as a
	// hashed name is. A manifest that predates the field reads as false;
	// it is written only when true, so other manifests are unchanged.
	Fingerprinted bool `json:"fingerprinted,omitempty"`
	// Integrity is the Subresource Integrity value, "sha384-" and the
	// standard base64 of the SHA-384 of the identity bytes.
	Integrity string `json:"integrity"`
	// Width and Height are the pixel size of an image, zero otherwise.
	// The variants of one logical image (hero-400w.avif, hero-400w.jpg, …)
	// are the entries with its name as Source and a Width, their Type
	// giving the format: how FuncMap's srcset and picture find them.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Encodings are the precompressed variants, sorted by name.
	Encodings []Encoding `json:"encodings,omitempty"`
	// Imports, DynamicImports and CSS give the module graph of a
	// JavaScript output of a bundle with code splitting, as Vite's
	// manifest does, by logical path of other entries: the chunks it
	// imports with import statements (to be preloaded with it), the
	// chunks it loads on demand with import(), and the style sheets that
	// it and its static imports need (to be linked with it). Each is
	// sorted, without duplicates, and omitted when empty, so that a
	// manifest without splitting is unchanged.
	Imports        []string `json:"imports,omitempty"`
	DynamicImports []string `json:"dynamicImports,omitempty"`
	CSS            []string `json:"css,omitempty"`
	// Deltas are the variants of the file compressed against kept
	// versions of it (see Delta), sorted by dictionary; omitted when
	// empty.
	Deltas []Delta `json:"deltas,omitempty"`
	// Previous, set on a kept entry only, is the logical path that the
	// file had in an earlier release: the entry is that release's file,
	// kept so that pages of that release still load it and so that it
	// serves as the dictionary of the new version's delta. Its Path is
	// HashedName(Previous, SHA256); it is served as immutable under that
	// name and never listed (ReadDir, Glob, fs.WalkDir).
	Previous string `json:"previous,omitempty"`
	// Release, on a kept entry, counts the releases back to the one it
	// comes from: 1 for the release before this one.
	Release int `json:"release,omitempty"`
}

// An Encoding is one precompressed variant of an entry.
type Encoding struct {
	// Name is the Content-Encoding token: "br", "gzip" or "zstd".
	Name string `json:"name"`
	// Path is where the variant's bytes are in the tree, usually the
	// entry's path plus ".br", ".gz" or ".zst".
	Path string `json:"path"`
	// Size is the length of the encoded bytes.
	Size int64 `json:"size"`
	// SHA256 is the lowercase hex SHA-256 of the encoded bytes.
	SHA256 string `json:"sha256"`
}

// Encodings known to the manifest, with the file suffix of their variant.
var encodingSuffix = map[string]string{"br": ".br", "gzip": ".gz", "zstd": ".zst"}

// EncodingSuffix returns the file suffix of a variant in the given
// Content-Encoding (".br", ".gz", ".zst") and whether the encoding is known.
func EncodingSuffix(name string) (string, bool) {
	s, ok := encodingSuffix[name]
	return s, ok
}

var errNoVersion = fmt.Errorf("%w: version must be %d", ErrManifest, ManifestVersion)

// isHexSHA256 reports whether s is 64 lowercase hex digits. A table
// lookup per byte, not a regular expression: New validates every entry at
// start-up, and dev mode at every rebuild.
func isHexSHA256(s string) bool {
	return len(s) == 64 && allIn(s, &charClass, lowerHex)
}

// isSRISHA384 reports whether s is "sha384-" and 64 characters of
// unpadded-length standard base64 (48 bytes encode without padding).
func isSRISHA384(s string) bool {
	b64, ok := strings.CutPrefix(s, "sha384-")
	return ok && len(b64) == 64 && allIn(b64, &charClass, base64Std)
}

// Classes of charClass.
const (
	lowerHex  = 1 << iota // 0-9 a-f
	base64Std             // A-Z a-z 0-9 + /
)

// charClass gives the classes each byte belongs to.
var charClass = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] |= lowerHex | base64Std
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= base64Std
		if c <= 'f' {
			t[c] |= lowerHex
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= base64Std
	}
	t['+'] |= base64Std
	t['/'] |= base64Std
	return t
}()

// allIn reports whether every byte of s is in class.
func allIn(s string, t *[256]uint8, class uint8) bool {
	var all uint8 = class
	for i := 0; i < len(s); i++ {
		all &= t[s[i]]
	}
	return all != 0
}

// ParseManifest decodes and validates a manifest. Errors wrap ErrManifest
// and name the offending entry.
func ParseManifest(data []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrManifest, err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks the rules documented on Manifest. Errors wrap ErrManifest.
func (m *Manifest) Validate() error {
	if m.Version != ManifestVersion {
		return errNoVersion
	}
	n := 0
	for i := range m.Files {
		n += 2 + len(m.Files[i].Encodings) + len(m.Files[i].Deltas) // path, hashed name, variants
	}
	names := make(map[string]string, n) // tree name -> entry path that owns it
	claim := func(owner, name, what string) error {
		if !iofs.ValidPath(name) || name == "." {
			return fmt.Errorf("%w: %s: invalid %s %q", ErrManifest, owner, what, name)
		}
		if name == ManifestName {
			return fmt.Errorf("%w: %s: %s %q is reserved", ErrManifest, owner, what, name)
		}
		if prev, ok := names[name]; ok {
			return fmt.Errorf("%w: %s: %s %q is also used by %s", ErrManifest, owner, what, name, prev)
		}
		names[name] = owner
		return nil
	}
	for i, e := range m.Files {
		if i > 0 && m.Files[i-1].Path >= e.Path {
			return fmt.Errorf("%w: %s: files not sorted by path or duplicated", ErrManifest, e.Path)
		}
		if err := claim(e.Path, e.Path, "path"); err != nil {
			return err
		}
		if e.Hashed != "" {
			if err := claim(e.Path, e.Hashed, "hashed name"); err != nil {
				return err
			}
		}
		if e.Size < 0 || !isHexSHA256(e.SHA256) || !isSRISHA384(e.Integrity) || e.Type == "" {
			return fmt.Errorf("%w: %s: bad size, type, sha256 or integrity", ErrManifest, e.Path)
		}
		for j, enc := range e.Encodings {
			if _, ok := encodingSuffix[enc.Name]; !ok {
				return fmt.Errorf("%w: %s: unknown encoding %q", ErrManifest, e.Path, enc.Name)
			}
			if j > 0 && e.Encodings[j-1].Name >= enc.Name {
				return fmt.Errorf("%w: %s: encodings not sorted by name or duplicated", ErrManifest, e.Path)
			}
			if err := claim(e.Path, enc.Path, "encoding path"); err != nil {
				return err
			}
			if enc.Size < 0 || !isHexSHA256(enc.SHA256) {
				return fmt.Errorf("%w: %s: bad size or sha256 of encoding %s", ErrManifest, e.Path, enc.Name)
			}
		}
	}
	if err := m.validateKept(); err != nil {
		return err
	}
	if err := m.validateDeltas(claim); err != nil {
		return err
	}
	return m.validateModules()
}

// Lookup returns the entry with the given logical path, using binary search
// over the sorted files.
func (m *Manifest) Lookup(name string) (*Entry, bool) {
	lo, hi := 0, len(m.Files)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if m.Files[mid].Path < name {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(m.Files) && m.Files[lo].Path == name {
		return &m.Files[lo], true
	}
	return nil, false
}

// HashedName returns the fingerprinted form of name for a file whose SHA-256
// is sum (lowercase hex): the first HashLen hex digits are inserted before
// the last extension, "js/app.js" becoming "js/app.3f2a1b9c0d.js". A name
// without extension gets the digits appended after a dot. A name whose base
// starts with a dot (".env") keeps that dot as part of the stem.
//
// HashedName returns name itself when sum does not start with HashLen
// lowercase hex digits (a short or malformed sum), so that the result is
// a hashed name exactly when it differs from name; a manifest whose Hashed
// equals its Path fails Validate.
func HashedName(name, sum string) string {
	if len(sum) < HashLen || !isHashDigits(sum[:HashLen]) {
		return name
	}
	dir, base := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir, base = name[:i+1], name[i+1:]
	}
	h := sum[:HashLen]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return dir + base[:i] + "." + h + base[i:]
	}
	return dir + base + "." + h
}

// HashLen is the number of hex digits of the SHA-256 in a hashed name: 10
// digits, 40 bits, enough that two versions of one file do not collide.
const HashLen = 10
