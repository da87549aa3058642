package fs_test

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	bakefs "github.com/bakefs/bakefs/fs"
)

// releaseTree is a tree of release 2 of js/app.js and css/site.css that
// keeps release 1's files and has a delta of each against it. The delta
// bytes are a dcz header and a marker, enough for the handler, which
// never decodes them.
type releaseTree struct {
	fsys               *bakefs.FS
	m                  *bakefs.Manifest
	data               fstest.MapFS
	oldJS, newJS       string // the two versions' bytes
	oldJSSum, newJSSum string
}

func sum256(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func entryFor(path, typ, data string) bakefs.Entry {
	sri := sha512.Sum384([]byte(data))
	return bakefs.Entry{Path: path, Size: int64(len(data)), Type: typ, SHA256: sum256(data),
		Integrity: "sha384-" + base64.StdEncoding.EncodeToString(sri[:])}
}

func newReleaseTree(t *testing.T) *releaseTree {
	t.Helper()
	rt := &releaseTree{data: fstest.MapFS{}, oldJS: "console.log('release 1')\n", newJS: "console.log('release 2')\n"}
	rt.oldJSSum, rt.newJSSum = sum256(rt.oldJS), sum256(rt.newJS)
	m := &bakefs.Manifest{Version: bakefs.ManifestVersion}
	add := func(path, typ, old, cur string) {
		e := entryFor(path, typ, cur)
		e.Hashed = bakefs.HashedName(path, e.SHA256)
		rt.data[path] = &fstest.MapFile{Data: []byte(cur)}
		br := "br of " + cur
		e.Encodings = []bakefs.Encoding{{Name: "br", Path: path + ".br", Size: int64(len(br)), SHA256: sum256(br)}}
		rt.data[path+".br"] = &fstest.MapFile{Data: []byte(br)}
		dict := sum256(old)
		raw, _ := hex.DecodeString(dict)
		delta := "\x5e\x2a\x4d\x18\x20\x00\x00\x00" + string(raw) + "delta of " + path
		d := bakefs.Delta{Dictionary: dict, Path: bakefs.DeltaPath(path, dict), Size: int64(len(delta)), SHA256: sum256(delta)}
		e.Deltas = []bakefs.Delta{d}
		rt.data[d.Path] = &fstest.MapFile{Data: []byte(delta)}
		m.Files = append(m.Files, e)

		k := entryFor(bakefs.HashedName(path, dict), typ, old)
		k.Previous, k.Release = path, 1
		rt.data[k.Path] = &fstest.MapFile{Data: []byte(old)}
		m.Files = append(m.Files, k)
	}
	add("js/app.js", "text/javascript; charset=utf-8", rt.oldJS, rt.newJS)
	add("css/site.css", "text/css; charset=utf-8", "body{color:red}", "body{color:blue}")
	slices.SortFunc(m.Files, func(a, b bakefs.Entry) int { return strings.Compare(a.Path, b.Path) })
	f, err := bakefs.New(rt.data, m)
	if err != nil {
		t.Fatal(err)
	}
	rt.fsys, rt.m = f, m
	return rt
}

// dictionaryHeader is the Available-Dictionary value for the hex sum.
func dictionaryHeader(sum string) string {
	raw, _ := hex.DecodeString(sum)
	return ":" + base64.StdEncoding.EncodeToString(raw) + ":"
}

func TestDeltaManifestRules(t *testing.T) {
	rt := newReleaseTree(t)
	app := func(m *bakefs.Manifest) *bakefs.Entry { e, _ := m.Lookup("js/app.js"); return e }
	site := func(m *bakefs.Manifest) *bakefs.Entry { e, _ := m.Lookup("css/site.css"); return e }
	kept := func(m *bakefs.Manifest) *bakefs.Entry {
		e, _ := m.Lookup(bakefs.HashedName("js/app.js", rt.oldJSSum))
		return e
	}
	for name, edit := range map[string]func(m *bakefs.Manifest){
		"kept not at its hashed name": func(m *bakefs.Manifest) { kept(m).Previous = "js/other.js" },
		"kept without release":        func(m *bakefs.Manifest) { kept(m).Release = 0 },
		"release without previous":    func(m *bakefs.Manifest) { app(m).Release = 1 },
		"kept with a hashed name":     func(m *bakefs.Manifest) { kept(m).Hashed = "css/x.css" },
		"dictionary not kept":         func(m *bakefs.Manifest) { app(m).Deltas[0].Dictionary = strings.Repeat("0", 64) },
		"delta at another path":       func(m *bakefs.Manifest) { app(m).Deltas[0].Path = "css/site.css.dcz" },
		"delta path taken":            func(m *bakefs.Manifest) { site(m).Deltas[0].Path = app(m).Deltas[0].Path },
		"delta shorter than a header": func(m *bakefs.Manifest) { app(m).Deltas[0].Size = 39 },
		"delta against itself":        func(m *bakefs.Manifest) { app(m).Deltas[0].Dictionary = app(m).SHA256 },
	} {
		t.Run(name, func(t *testing.T) {
			m := cloneManifest(rt.m)
			edit(m)
			if err := m.Validate(); !errors.Is(err, bakefs.ErrManifest) {
				t.Fatalf("Validate = %v, want ErrManifest", err)
			}
		})
	}
	if err := rt.m.Validate(); err != nil {
		t.Fatal(err)
	}
}

// cloneManifest copies m deeply enough for the edits of a test.
func cloneManifest(m *bakefs.Manifest) *bakefs.Manifest {
	c := &bakefs.Manifest{Version: m.Version, Files: slices.Clone(m.Files)}
	for i := range c.Files {
		c.Files[i].Deltas = slices.Clone(c.Files[i].Deltas)
	}
	return c
}

func TestKeptFilesAreServedNotListed(t *testing.T) {
	rt := newReleaseTree(t)
	old := bakefs.HashedName("js/app.js", rt.oldJSSum)
	got, err := rt.fsys.ReadFile(old)
	if err != nil || string(got) != rt.oldJS {
		t.Fatalf("ReadFile(%s) = %q, %v; want release 1's bytes", old, got, err)
	}
	var walked []string
	err = iofs.WalkDir(rt.fsys, ".", func(p string, d iofs.DirEntry, err error) error {
		walked = append(walked, p)
		return err
	})
	if want := []string{".", "css", "css/site.css", "js", "js/app.js"}; err != nil || !slices.Equal(walked, want) {
		t.Fatalf("WalkDir = %q, %v; want %q", walked, err, want)
	}
	if names, _ := iofs.Glob(rt.fsys, "js/*"); !slices.Equal(names, []string{"js/app.js"}) {
		t.Fatalf("Glob = %q", names)
	}
}

// dictionaryClient sends the request as given: no Accept-Encoding of its
// own, no decoding.
var dictionaryClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

func TestHandlerDeltas(t *testing.T) {
	rt := newReleaseTree(t)
	srv := httptest.NewServer(http.StripPrefix("/static/", rt.fsys.Handler()))
	t.Cleanup(srv.Close)
	newName := bakefs.HashedName("js/app.js", rt.newJSSum)
	oldName := bakefs.HashedName("js/app.js", rt.oldJSSum)
	offer := dictionaryHeader(rt.oldJSSum)
	dcz := "gzip, deflate, br, zstd, dcb, dcz"
	app, _ := rt.m.Lookup("js/app.js")
	delta := app.Deltas[0]
	deltaETag := `"` + delta.SHA256[:20] + `-dcz"`
	const scriptMatch = `match="app.*.js", match-dest=("script")`
	for _, c := range []struct {
		name     string
		path     string
		header   map[string]string
		status   int
		encoding string
		body     string // "" means: not checked
		match    string // Use-As-Dictionary; "-" for none
		vary     string
	}{
		{"delta for a known dictionary", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer}, 200, "dcz", "", scriptMatch, "Accept-Encoding, Available-Dictionary"},
		{"delta under the logical name", "js/app.js", map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer}, 200, "dcz", "", "-", "Accept-Encoding, Available-Dictionary"},
		{"no dictionary offered", newName, map[string]string{"Accept-Encoding": dcz}, 200, "br", "br of " + rt.newJS, scriptMatch, "Accept-Encoding, Available-Dictionary"},
		{"unknown dictionary", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": dictionaryHeader(sum256("other"))}, 200, "br", "", scriptMatch, ""},
		{"dcz not accepted", newName, map[string]string{"Accept-Encoding": "gzip, br", "Available-Dictionary": offer}, 200, "br", "", scriptMatch, ""},
		{"dcz refused", newName, map[string]string{"Accept-Encoding": "br, dcz;q=0", "Available-Dictionary": offer}, 200, "br", "", scriptMatch, ""},
		{"star is not dcz", newName, map[string]string{"Accept-Encoding": "*", "Available-Dictionary": offer}, 200, "br", "", scriptMatch, ""},
		{"malformed offer", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": strings.Trim(offer, ":")}, 200, "br", "", scriptMatch, ""},
		{"range gets an ordinary variant", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer, "Range": "bytes=0-3"}, 206, "br", "br o", scriptMatch, ""},
		{"cross-site no-cors", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 200, "br", "", scriptMatch, ""},
		{"cross-site cors", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, 200, "dcz", "", scriptMatch, ""},
		{"same-origin no-cors", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors"}, 200, "dcz", "", scriptMatch, ""},
		{"revalidated delta", newName, map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": offer, "If-None-Match": deltaETag}, 304, "", "", "-", "Accept-Encoding, Available-Dictionary"},
		{"kept file of the release before", oldName, map[string]string{"Accept-Encoding": dcz}, 200, "", rt.oldJS, scriptMatch, "-"},
		{"style sheet", bakefs.HashedName("css/site.css", sum256("body{color:blue}")), map[string]string{"Accept-Encoding": dcz, "Available-Dictionary": dictionaryHeader(sum256("body{color:red}"))}, 200, "dcz", "", `match="site.*.css", match-dest=("style")`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/static/"+c.path, nil)
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := dictionaryClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || resp.Header.Get("Content-Encoding") != c.encoding {
				t.Fatalf("status %d, Content-Encoding %q; want %d, %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), c.status, c.encoding)
			}
			if c.encoding == "dcz" {
				if got := resp.Header.Get("Etag"); !strings.HasSuffix(got, `-dcz"`) {
					t.Errorf("ETag %q, want a delta's own", got)
				}
				if len(body) < 40 || string(body[:8]) != "\x5e\x2a\x4d\x18\x20\x00\x00\x00" {
					t.Errorf("body %q is not a dcz stream", body)
				}
				if c.path == newName && resp.Header.Get("Etag") != deltaETag {
					t.Errorf("ETag %q, want %q", resp.Header.Get("Etag"), deltaETag)
				}
			}
			if c.body != "" && string(body) != c.body {
				t.Errorf("body %q, want %q", body, c.body)
			}
			if got := resp.Header.Get("Use-As-Dictionary"); c.match == "-" && got != "" || c.match != "-" && got != c.match {
				t.Errorf("Use-As-Dictionary %q, want %q", got, c.match)
			}
			if got := strings.Join(resp.Header.Values("Vary"), ", "); c.vary == "-" && got != "" || c.vary != "" && c.vary != "-" && got != c.vary {
				t.Errorf("Vary %q, want %q", got, c.vary)
			}
		})
	}
}
