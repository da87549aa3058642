package fs

import (
	"fmt"
	"strings"
)

// A Delta is a variant of an entry compressed against an earlier version
// of the same file, served to a browser that offers that version as a
// compression dictionary (Compression Dictionary Transport, RFC 9842).
type Delta struct {
	// Dictionary is the lowercase hex SHA-256 of the dictionary: the
	// bytes of a kept entry of the same file (see Entry.Previous).
	Dictionary string `json:"dictionary"`
	// Path is where the delta's bytes are in the tree: DeltaPath of the
	// entry's path and the dictionary.
	Path string `json:"path"`
	// Size is the length of the delta's bytes, header included.
	Size int64 `json:"size"`
	// SHA256 is the lowercase hex SHA-256 of the delta's bytes.
	SHA256 string `json:"sha256"`
}

// DeltaEncoding is the Content-Encoding of a delta: "dcz", a Zstandard
// frame with the dictionary as raw content behind a 40-byte header that
// names the dictionary (RFC 9842 section 4).
const DeltaEncoding = "dcz"

// DeltaPath returns where the delta of the file name against the
// dictionary whose SHA-256 is dictionary (lowercase hex) is in a tree:
// name, the first HashLen digits of the dictionary's hash and ".dcz"
// ("js/app.js" against "5e2a…" is "js/app.js.5e2a4d1820.dcz").
func DeltaPath(name, dictionary string) string {
	return name + "." + dictionary[:min(HashLen, len(dictionary))] + ".dcz"
}

// validateKept checks the kept entries of m (those with Previous): each is
// the hashed name of its earlier logical path and nothing else of a
// logical file.
func (m *Manifest) validateKept() error {
	for i := range m.Files {
		e := &m.Files[i]
		if e.Previous == "" {
			if e.Release != 0 {
				return fmt.Errorf("%w: %s: release without previous", ErrManifest, e.Path)
			}
			continue
		}
		switch {
		case e.Release < 1:
			return fmt.Errorf("%w: %s: kept entry with release %d, want 1 or more", ErrManifest, e.Path, e.Release)
		case HashedName(e.Previous, e.SHA256) != e.Path:
			return fmt.Errorf("%w: %s: kept entry is not the hashed name of %q", ErrManifest, e.Path, e.Previous)
		case e.Hashed != "" || e.Fingerprinted || e.Source != "" || e.Width != 0 || e.Height != 0 ||
			len(e.Imports)+len(e.DynamicImports)+len(e.CSS)+len(e.Deltas) > 0:
			return fmt.Errorf("%w: %s: a kept entry has only path, previous, release, size, type, sums and encodings", ErrManifest, e.Path)
		}
	}
	return nil
}

// validateDeltas checks the deltas of m, whose kept entries are valid: each
// delta's dictionary is a kept version of its entry, at most one delta per
// dictionary, sorted by dictionary; claim takes each delta's path.
func (m *Manifest) validateDeltas(claim func(owner, name, what string) error) error {
	var kept map[string]map[string]bool // logical path -> dictionary sums
	for i := range m.Files {
		if e := &m.Files[i]; e.Previous != "" {
			if kept == nil {
				kept = make(map[string]map[string]bool)
			}
			if kept[e.Previous] == nil {
				kept[e.Previous] = make(map[string]bool)
			}
			kept[e.Previous][e.SHA256] = true
		}
	}
	for i := range m.Files {
		e := &m.Files[i]
		for j, d := range e.Deltas {
			switch {
			case j > 0 && e.Deltas[j-1].Dictionary >= d.Dictionary:
				return fmt.Errorf("%w: %s: deltas not sorted by dictionary or duplicated", ErrManifest, e.Path)
			case !isHexSHA256(d.Dictionary) || d.Dictionary == e.SHA256:
				return fmt.Errorf("%w: %s: bad delta dictionary %q", ErrManifest, e.Path, d.Dictionary)
			case !kept[e.Path][d.Dictionary]:
				return fmt.Errorf("%w: %s: delta dictionary %s is not a kept version of the file", ErrManifest, e.Path, d.Dictionary)
			case d.Path != DeltaPath(e.Path, d.Dictionary):
				return fmt.Errorf("%w: %s: delta path %q, want %q", ErrManifest, e.Path, d.Path, DeltaPath(e.Path, d.Dictionary))
			case d.Size < 40 || !isHexSHA256(d.SHA256):
				return fmt.Errorf("%w: %s: bad size or sha256 of the delta against %s", ErrManifest, e.Path, d.Dictionary)
			}
			if err := claim(e.Path, d.Path, "delta path"); err != nil {
				return err
			}
		}
	}
	return nil
}

// dictionaryMatch returns the value of the Use-As-Dictionary header of the
// responses of a hashed file at the logical path name (RFC 9842 section
// 2.1): a URL pattern, relative to the response's URL, that matches the
// hashed names of every version of the file ("app.*.js" for "js/app.js"),
// and the request destination for scripts and style sheets. It returns ""
// for a type that is not worth a dictionary and for a base name that a
// header cannot carry (bytes outside printable ASCII).
func dictionaryMatch(name, typ string) string {
	dest := ""
	switch {
	case isJavaScript(typ):
		dest = `, match-dest=("script")`
	case isCSS(typ):
		dest = `, match-dest=("style")`
	case DictionaryType(typ):
	default:
		return ""
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	stem, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem, ext = base[:i], base[i:]
	}
	var b strings.Builder
	b.WriteString(`match="`)
	for _, part := range [...]string{stem, ".*", ext} {
		if part == ".*" {
			b.WriteString(part)
			continue
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if c < 0x20 || c > 0x7e {
				return ""
			}
			if strings.IndexByte(`\*+?(){}:[]|^$`, c) >= 0 {
				b.WriteString(`\\`) // a URLPattern escape, escaped for sf-string
			}
			if c == '"' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	b.WriteString(dest)
	return b.String()
}

// DictionaryType reports whether files of the media type are offered as
// compression dictionaries and get deltas: JavaScript, CSS, JSON,
// WebAssembly and SVG, text that changes a little from one release to
// the next.
func DictionaryType(typ string) bool {
	if isJavaScript(typ) || isCSS(typ) {
		return true
	}
	t := mediaType(typ)
	return t == "application/json" || strings.HasSuffix(t, "+json") || t == "application/wasm" || t == "image/svg+xml"
}
