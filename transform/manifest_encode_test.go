package transform

import (
	"bytes"
	"encoding/json"
	"testing"

	bfs "github.com/bakefs/bakefs/fs"
)

const (
	encSumA = "1921b918b15842c7fdb115078e610263fac85f159c1d8e0ecec3d89a0faa4005"
	encSumB = "8a51c1b8853b568b5ca25570ef461d6f5a8896f64a952364ed61be1a1e99eb00"
	encSRI  = "sha384-aa2pOjyGkOWdUDx78GrRC8Bk/k2+/qhHRXOGWfm1YaqwUgpoOJCIr2yCuLRVoEm7"
)

func validManifest() *bfs.Manifest {
	return &bfs.Manifest{Version: bfs.ManifestVersion, Files: []bfs.Entry{
		{Path: "a.js", Size: 6, Type: "text/javascript; charset=utf-8", SHA256: encSumA, Hashed: "a.1921b918b1.js", Integrity: encSRI,
			Encodings: []bfs.Encoding{{Name: "br", Path: "a.js.br", Size: 3, SHA256: encSumB}, {Name: "gzip", Path: "a.js.gz", Size: 4, SHA256: encSumB}}},
		{Path: "assets/logo-5XJ3KQ2M.png", Size: 6, Type: "image/png", SHA256: encSumB, Fingerprinted: true, Integrity: encSRI},
		{Path: "img/b.png", Source: "img/b.jpg", Size: 6, Type: "image/png", SHA256: encSumB, Integrity: encSRI, Width: 2, Height: 1},
	}}
}

func TestEncodeManifestRoundTrip(t *testing.T) {
	raw, err := EncodeManifest(validManifest())
	if err != nil {
		t.Fatal(err)
	}
	m, err := bfs.ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	again, err := EncodeManifest(m)
	if err != nil || !bytes.Equal(raw, again) {
		t.Fatalf("EncodeManifest of a parsed manifest differs: %v\n%s\n%s", err, raw, again)
	}
	bad := validManifest()
	bad.Files[1], bad.Files[2] = bad.Files[2], bad.Files[1]
	if _, err := EncodeManifest(bad); err == nil {
		t.Fatal("an unsorted manifest was encoded")
	}
}

// encodingJSON is the reference for appendManifest: encoding/json with two-space
// indentation and HTML escaping off.
func encodingJSON(t testing.TB, m *bfs.Manifest) []byte {
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

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	odd := validManifest()
	odd.Files[2].Source = "img/\"quoted\" \\ <b>&amp;</b>\t\n\r\b\f\x00\x1f\x7f é \u2028\u2029 \xff end"
	for name, m := range map[string]*bfs.Manifest{
		"valid":   validManifest(),
		"empty":   {Version: bfs.ManifestVersion, Files: []bfs.Entry{}},
		"nil":     {Version: bfs.ManifestVersion},
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
		m := &bfs.Manifest{Version: bfs.ManifestVersion, Files: []bfs.Entry{{
			Path: path, Source: source, Size: size, Type: source, SHA256: path,
			Hashed: enc, Fingerprinted: fingerprinted, Integrity: source, Width: width, Height: -width,
		}}}
		if enc != "" {
			m.Files[0].Encodings = []bfs.Encoding{{Name: enc, Path: path, Size: -size, SHA256: source}, {Name: source}}
		}
		if got, want := appendManifest(nil, m), encodingJSON(t, m); !bytes.Equal(got, want) {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
}
