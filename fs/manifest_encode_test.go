package fs

import (
	"bytes"
	"reflect"
	"testing"
)

// fingerprintedManifest is a valid manifest with every kind of entry:
// hashed with variants, fingerprinted, and made from another source.
func fingerprintedManifest() *Manifest {
	return &Manifest{Version: ManifestVersion, Files: []Entry{
		{Path: "a.js", Size: 6, Type: "text/javascript; charset=utf-8", SHA256: sumA, Hashed: "a.1921b918b1.js", Integrity: sri,
			Encodings: []Encoding{{Name: "br", Path: "a.js.br", Size: 3, SHA256: sumB}, {Name: "gzip", Path: "a.js.gz", Size: 4, SHA256: sumB}}},
		{Path: "assets/logo-5XJ3KQ2M.png", Size: 6, Type: "image/png", SHA256: sumB, Fingerprinted: true, Integrity: sri},
		{Path: "img/b.png", Source: "img/b.jpg", Size: 6, Type: "image/png", SHA256: sumB, Integrity: sri, Width: 2, Height: 1},
	}}
}

// deltaManifest is a valid manifest of a release with a kept file of the
// release before and a delta against it.
func deltaManifest() *Manifest {
	kept := HashedName("a.js", sumB)
	return &Manifest{Version: ManifestVersion, Files: []Entry{
		{Path: kept, Size: 6, Type: "text/javascript; charset=utf-8", SHA256: sumB, Integrity: sri, Previous: "a.js", Release: 1,
			Encodings: []Encoding{{Name: "br", Path: kept + ".br", Size: 3, SHA256: sumA}}},
		{Path: "a.js", Size: 6, Type: "text/javascript; charset=utf-8", SHA256: sumA, Hashed: "a.1921b918b1.js", Integrity: sri,
			Encodings: []Encoding{{Name: "br", Path: "a.js.br", Size: 3, SHA256: sumB}},
			Deltas:    []Delta{{Dictionary: sumB, Path: DeltaPath("a.js", sumB), Size: 41, SHA256: sumA}}},
	}}
}

func TestEncodeManifestRoundTrip(t *testing.T) {
	for name, want := range map[string]*Manifest{"fingerprinted": fingerprintedManifest(), "modules": moduleManifest(), "delta": deltaManifest()} {
		t.Run(name, func(t *testing.T) {
			raw, err := EncodeManifest(want)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ParseManifest(raw)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m, want) {
				t.Fatalf("parsed\n%+v\nwant\n%+v", m, want)
			}
			again, err := EncodeManifest(m)
			if err != nil || !bytes.Equal(raw, again) {
				t.Fatalf("EncodeManifest of a parsed manifest differs: %v\n%s\n%s", err, raw, again)
			}
		})
	}
	bad := fingerprintedManifest()
	bad.Files[1], bad.Files[2] = bad.Files[2], bad.Files[1]
	if _, err := EncodeManifest(bad); err == nil {
		t.Fatal("an unsorted manifest was encoded")
	}
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	odd := fingerprintedManifest()
	odd.Files[2].Source = "img/\"quoted\" \\ <b>&amp;</b>\t\n\r\b\f\x00\x1f\x7f é \u2028\u2029 \xff end"
	for name, m := range map[string]*Manifest{
		"valid":   fingerprintedManifest(),
		"modules": moduleManifest(),
		"delta":   deltaManifest(),
		"empty":   {Version: ManifestVersion, Files: []Entry{}},
		"nil":     {Version: ManifestVersion},
		"strings": odd,
	} {
		t.Run(name, func(t *testing.T) {
			if got, want := appendManifest(nil, m), encodingJSON(t, m); !bytes.Equal(got, want) {
				t.Fatalf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func FuzzMarshalMatchesEncodingJSON(f *testing.F) {
	f.Add("a.js", "src/a.ts", "br", int64(3), 7, false)
	f.Add("\u2028\xff\"\\", "", "", int64(0), 0, false)
	f.Add("assets/logo-5XJ3KQ2M.png", "logo.png", "", int64(6), 2, true)
	f.Fuzz(func(t *testing.T, path, source, enc string, size int64, width int, fingerprinted bool) {
		m := &Manifest{Version: ManifestVersion, Files: []Entry{{
			Path: path, Source: source, Size: size, Type: source, SHA256: path,
			Hashed: enc, Fingerprinted: fingerprinted, Integrity: source, Width: width, Height: -width,
		}}}
		if enc != "" {
			m.Files[0].Encodings = []Encoding{{Name: enc, Path: path, Size: -size, SHA256: source}, {Name: source}}
			m.Files[0].Imports = []string{enc, path}
			m.Files[0].CSS = []string{source}
		}
		if fingerprinted {
			m.Files[0].DynamicImports = []string{""}
		}
		if got, want := appendManifest(nil, m), encodingJSON(t, m); !bytes.Equal(got, want) {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
}
