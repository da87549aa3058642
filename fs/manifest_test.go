package fs

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const (
	sumA = "1921b918b15842c7fdb115078e610263fac85f159c1d8e0ecec3d89a0faa4005"
	sumB = "8a51c1b8853b568b5ca25570ef461d6f5a8896f64a952364ed61be1a1e99eb00"
	sri  = "sha384-aa2pOjyGkOWdUDx78GrRC8Bk/k2+/qhHRXOGWfm1YaqwUgpoOJCIr2yCuLRVoEm7"
)

func validManifest() *Manifest {
	return &Manifest{Version: ManifestVersion, Files: []Entry{
		{Path: "a.js", Size: 6, Type: "text/javascript; charset=utf-8", SHA256: sumA, Hashed: "a.1921b918b1.js", Integrity: sri,
			Encodings: []Encoding{{Name: "br", Path: "a.js.br", Size: 3, SHA256: sumB}, {Name: "gzip", Path: "a.js.gz", Size: 4, SHA256: sumB}}},
		{Path: "img/b.png", Source: "img/b.jpg", Size: 6, Type: "image/png", SHA256: sumB, Integrity: sri, Width: 2, Height: 1},
	}}
}

// moduleManifest is a valid manifest with a module graph: an entry point
// with two chunks that import each other, a chunk loaded with import()
// and a style sheet.
func moduleManifest() *Manifest {
	const js = "text/javascript; charset=utf-8"
	return &Manifest{Version: ManifestVersion, Files: []Entry{
		{Path: "css/app.css", Size: 6, Type: "text/css; charset=utf-8", SHA256: sumA, Integrity: sri},
		{Path: "js/app.js", Size: 6, Type: js, SHA256: sumA, Hashed: "js/app.1921b918b1.js", Integrity: sri,
			Imports: []string{"js/chunk-a.js", "js/chunk-b.js"}, DynamicImports: []string{"js/lazy.js"}, CSS: []string{"css/app.css"}},
		{Path: "js/chunk-a.js", Size: 6, Type: js, SHA256: sumB, Hashed: "js/chunk-a.8a51c1b885.js", Integrity: sri,
			Imports: []string{"js/chunk-b.js"}},
		{Path: "js/chunk-b.js", Size: 6, Type: js, SHA256: sumA, Integrity: sri, Imports: []string{"js/chunk-a.js"}},
		{Path: "js/lazy.js", Size: 6, Type: "application/javascript", SHA256: sumB, Integrity: sri},
	}}
}

func TestManifestValidateModules(t *testing.T) {
	const app, chunkA, lazy, css = 1, 2, 4, 0 // indexes in moduleManifest
	tests := []struct {
		name   string
		change func(f []Entry)
		want   string
	}{
		{"not an entry", func(f []Entry) { f[app].Imports = []string{"js/chunk-a.js", "js/nope.js"} },
			`js/app.js: imports "js/nope.js" is not the path of an entry`},
		{"hashed name", func(f []Entry) { f[app].Imports = []string{"js/chunk-a.8a51c1b885.js"} },
			`js/app.js: imports "js/chunk-a.8a51c1b885.js" is not the path of an entry`},
		{"import of CSS", func(f []Entry) { f[app].Imports = []string{"css/app.css"} },
			`js/app.js: imports "css/app.css" is text/css; charset=utf-8, not JavaScript`},
		{"dynamic import of CSS", func(f []Entry) { f[app].DynamicImports = []string{"css/app.css"} },
			`js/app.js: dynamicImports "css/app.css" is text/css; charset=utf-8, not JavaScript`},
		{"css of JavaScript", func(f []Entry) { f[app].CSS = []string{"js/lazy.js"} },
			`js/app.js: css "js/lazy.js" is application/javascript, not CSS`},
		{"imports unsorted", func(f []Entry) { f[app].Imports = []string{"js/chunk-b.js", "js/chunk-a.js"} },
			"js/app.js: imports not sorted or duplicated"},
		{"imports duplicated", func(f []Entry) { f[app].Imports = []string{"js/chunk-a.js", "js/chunk-a.js"} },
			"js/app.js: imports not sorted or duplicated"},
		{"dynamic imports duplicated", func(f []Entry) { f[app].DynamicImports = []string{"js/lazy.js", "js/lazy.js"} },
			"js/app.js: dynamicImports not sorted or duplicated"},
		{"css duplicated", func(f []Entry) { f[app].CSS = []string{"css/app.css", "css/app.css"} },
			"js/app.js: css not sorted or duplicated"},
		{"imports itself", func(f []Entry) { f[chunkA].Imports = []string{"js/chunk-a.js"} },
			"js/chunk-a.js: imports itself"},
		{"dynamic import of itself", func(f []Entry) { f[lazy].DynamicImports = []string{"js/lazy.js"} },
			"js/lazy.js: dynamicImports itself"},
		{"style sheet with imports", func(f []Entry) { f[css].Imports = []string{"js/app.js"} },
			"css/app.css: has imports or css but is text/css; charset=utf-8, not JavaScript"},
		{"unsorted files first", func(f []Entry) { f[chunkA], f[chunkA+1] = f[chunkA+1], f[chunkA] },
			"js/chunk-a.js: files not sorted"},
	}
	if err := moduleManifest().Validate(); err != nil {
		t.Fatalf("valid manifest: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := moduleManifest()
			tt.change(m.Files)
			err := m.Validate()
			if !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want ErrManifest with %q", err, tt.want)
			}
		})
	}
}

func TestManifestRoundTrip(t *testing.T) {
	raw := encodingJSON(t, validManifest())
	m, err := ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	if again := encodingJSON(t, m); !bytes.Equal(raw, again) {
		t.Fatalf("a parsed manifest encodes differently:\n%s\n%s", raw, again)
	}
	if e, ok := m.Lookup("img/b.png"); !ok || e.Width != 2 {
		t.Fatalf("Lookup = %+v, %v", e, ok)
	}
	if _, ok := m.Lookup("img"); ok {
		t.Fatal("Lookup found a directory")
	}
}

func TestManifestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(m *Manifest)
		want   string
	}{
		{"version", func(m *Manifest) { m.Version = 2 }, "version must be 1"},
		{"unsorted", func(m *Manifest) { m.Files[0], m.Files[1] = m.Files[1], m.Files[0] }, "not sorted"},
		{"invalid path", func(m *Manifest) { m.Files[0].Path = "../a.js" }, `invalid path "../a.js"`},
		{"reserved name", func(m *Manifest) { m.Files[0].Path = ManifestName }, "is reserved"},
		{"variant clashes", func(m *Manifest) { m.Files[0].Encodings[0].Path = "img/b.png" }, `img/b.png: path "img/b.png" is also used by a.js`},
		{"hashed clashes", func(m *Manifest) { m.Files[0].Hashed = "a.js.gz" }, `encoding path "a.js.gz" is also used by a.js`},
		{"bad sha256", func(m *Manifest) { m.Files[0].SHA256 = strings.ToUpper(sumA) }, "bad size, type, sha256 or integrity"},
		{"sha256 not hex", func(m *Manifest) { m.Files[0].SHA256 = sumA[:63] + "g" }, "bad size, type, sha256 or integrity"},
		{"encoding sha256 short", func(m *Manifest) { m.Files[0].Encodings[0].SHA256 = sumA[:63] }, "bad size or sha256 of encoding"},
		{"bad integrity", func(m *Manifest) { m.Files[0].Integrity = "sha256-abc" }, "bad size, type, sha256 or integrity"},
		{"integrity not base64", func(m *Manifest) {
			m.Files[0].Integrity = m.Files[0].Integrity[:len(m.Files[0].Integrity)-1] + "-"
		}, "bad size, type, sha256 or integrity"},
		{"integrity padded", func(m *Manifest) {
			m.Files[0].Integrity = m.Files[0].Integrity[:len(m.Files[0].Integrity)-1] + "="
		}, "bad size, type, sha256 or integrity"},
		{"unknown encoding", func(m *Manifest) { m.Files[0].Encodings[0].Name = "deflate" }, `unknown encoding "deflate"`},
		{"encodings unsorted", func(m *Manifest) {
			e := m.Files[0].Encodings
			e[0], e[1] = e[1], e[0]
		}, "encodings not sorted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validManifest()
			tt.change(m)
			err := m.Validate()
			if !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want ErrManifest with %q", err, tt.want)
			}
		})
	}
	if _, err := ParseManifest([]byte(`{"version":1,"files":[],"extra":1}`)); !errors.Is(err, ErrManifest) {
		t.Fatalf("unknown field accepted: %v", err)
	}
}

func TestHashedName(t *testing.T) {
	for name, want := range map[string]string{
		"js/app.js":      "js/app.1921b918b1.js",
		"a.tar.gz":       "a.tar.1921b918b1.gz",
		"LICENSE":        "LICENSE.1921b918b1",
		".well/.env":     ".well/.env.1921b918b1",
		"dir.v2/archive": "dir.v2/archive.1921b918b1",
	} {
		if got := HashedName(name, sumA); got != want {
			t.Errorf("HashedName(%q) = %q, want %q", name, got, want)
		}
	}
	// A sum without HashLen lowercase hex digits gives name back, without
	// panicking on a short one.
	for _, sum := range []string{"", "1921b918b", "1921B918B1", "1921b918bz00", "1921b918b1"[:3]} {
		if got := HashedName("js/app.js", sum); got != "js/app.js" {
			t.Errorf("HashedName(js/app.js, %q) = %q, want the name itself", sum, got)
		}
	}
	if got := HashedName("js/app.js", "1921b918b1"); got != "js/app.1921b918b1.js" {
		t.Errorf("HashedName with exactly HashLen digits = %q", got)
	}
}

// encodingJSON is the canonical form of a manifest: encoding/json with
// two-space indentation and HTML escaping off.
func encodingJSON(t testing.TB, m *Manifest) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
