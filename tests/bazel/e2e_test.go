// Package bazel_test checks, under Bazel, the Go packages that go_embed_data
// generates from chained asset_transform targets (see BUILD.bazel): the
// embedded bytes against the transform's output tree, the manifest's hashes,
// hashed names and image sizes, the precompressed variants, and the HTTP
// handler's responses, and that go_embed_data gives its base to the rewrite
// of references. It builds only under Bazel, where the generated
// packages exist; the go.mod beside it keeps it out of the main module.
package bazel_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"image/jpeg"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/tests/bazel/assets"
	"github.com/bakefs/bakefs/tests/bazel/mixed"
	"github.com/bakefs/bakefs/tests/bazel/rooted"
)

// siteTree is the output tree of //tests/bazel:site in the test's runfiles.
const siteTree = "site"

// files returns the logical files of fsys, sorted.
func files(t *testing.T, fsys iofs.FS) []string {
	t.Helper()
	var names []string
	err := iofs.WalkDir(fsys, ".", func(name string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

func TestEmbeddedFilesMatchTree(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(siteTree, bakefs.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bakefs.ParseManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range m.Files {
		want = append(want, e.Path)
	}
	got := files(t, assets.FS)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("embedded files = %q, manifest of %s lists %q", got, siteTree, want)
	}
	wantFiles := []string{"img/photo.jpg", "index.html", "js/app.js", "js/standalone.js"}
	if strings.Join(got, " ") != strings.Join(wantFiles, " ") {
		t.Fatalf("embedded files = %q, want %q", got, wantFiles)
	}
	for _, e := range m.Files {
		t.Run(e.Path, func(t *testing.T) {
			b, err := assets.FS.ReadFile(e.Path)
			if err != nil {
				t.Fatal(err)
			}
			onDisk, err := os.ReadFile(filepath.Join(siteTree, filepath.FromSlash(e.Path)))
			if err != nil {
				t.Fatal(err)
			}
			if e.Path == "index.html" {
				// go_embed_data rewrites the page's reference to the
				// script to its hashed name; the asset_transform tree
				// keeps the logical one.
				onDisk = bytes.ReplaceAll(onDisk, []byte(`src="/js/app.js"`), []byte(`src="/`+assets.Path("js/app.js")+`"`))
				rewritten, ok := assets.FS.Entry(e.Path)
				if !ok {
					t.Fatal("index.html is not embedded")
				}
				e = rewritten
			}
			if !bytes.Equal(b, onDisk) {
				t.Errorf("embedded bytes differ from %s/%s", siteTree, e.Path)
			}
			sum := sha256.Sum256(b)
			if hex.EncodeToString(sum[:]) != e.SHA256 || int64(len(b)) != e.Size {
				t.Errorf("embedded bytes: sha256 %x, size %d; manifest: %s, %d", sum, len(b), e.SHA256, e.Size)
			}
			sri := sha512.Sum384(b)
			if want := "sha384-" + base64.StdEncoding.EncodeToString(sri[:]); assets.Integrity(e.Path) != want {
				t.Errorf("Integrity = %q, want %q", assets.Integrity(e.Path), want)
			}
			got, ok := assets.FS.Entry(e.Path)
			if !ok || got.SHA256 != e.SHA256 || got.Hashed != e.Hashed || len(got.Encodings) != len(e.Encodings) {
				t.Errorf("Entry = %+v, %v; manifest has %+v", got, ok, e)
			}
		})
	}
}

var hashedName = regexp.MustCompile(`^(.*)\.([0-9a-f]{10})(\.[a-z]+)$`)

func TestHashedNames(t *testing.T) {
	for _, name := range files(t, assets.FS) {
		t.Run(name, func(t *testing.T) {
			e, _ := assets.FS.Entry(name)
			p := assets.Path(name)
			if p == name || p != e.Hashed {
				t.Fatalf("Path = %q, want the hashed name %q (not %q)", p, e.Hashed, name)
			}
			m := hashedName.FindStringSubmatch(p)
			if m == nil || m[1]+m[3] != name || !strings.HasPrefix(e.SHA256, m[2]) {
				t.Errorf("hashed name %q does not carry the SHA-256 prefix of %s (%s)", p, name, e.SHA256)
			}
			a, errA := assets.FS.ReadFile(name)
			b, errB := assets.FS.ReadFile(p)
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("ReadFile(%q) and ReadFile(%q) differ: %v, %v", name, p, errA, errB)
			}
		})
	}
}

func TestScripts(t *testing.T) {
	app, err := assets.FS.ReadFile("js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, text string
		want             bool
	}{
		{"bundled greet", "js/app.js", "Hello, ", true},
		{"bundled visitor", "js/app.js", `"bakefs"`, true},
		{"no import left", "js/app.js", "import", false},
		{"no type annotation", "js/app.js", ": string", false},
		{"no interface", "js/app.js", "interface", false},
		{"minified: no indentation", "js/app.js", "\n  ", false},
		{"standalone keeps export", "js/standalone.js", "export function describeLevel", true},
		{"standalone enum compiled", "js/standalone.js", "high-level", true},
		{"standalone no annotation", "js/standalone.js", ": Level", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := app
			if tt.file != "js/app.js" {
				if b, err = assets.FS.ReadFile(tt.file); err != nil {
					t.Fatal(err)
				}
			}
			if got := bytes.Contains(b, []byte(tt.text)); got != tt.want {
				t.Errorf("%s contains %q = %v, want %v:\n%s", tt.file, tt.text, got, tt.want, b)
			}
		})
	}
}

func TestResizedImage(t *testing.T) {
	b, err := assets.FS.ReadFile("img/photo.jpg")
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// web/img/photo.jpg is 160×100; resize:width=64 keeps the aspect ratio.
	if got := img.Bounds().Size(); got.X != 64 || got.Y != 40 {
		t.Errorf("image is %v, want 64×40", got)
	}
	e, _ := assets.FS.Entry("img/photo.jpg")
	if e.Width != 64 || e.Height != 40 || e.Type != "image/jpeg" {
		t.Errorf("manifest entry: %dx%d %q, want 64x40 image/jpeg", e.Width, e.Height, e.Type)
	}
	if len(e.Encodings) != 0 {
		t.Errorf("a JPEG got variants %+v; compressed media types are skipped", e.Encodings)
	}
}

// decode returns the identity bytes of body sent with Content-Encoding coding.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	default:
		t.Fatalf("unknown coding %q", coding)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return b
}

func get(h http.Handler, path, acceptEncoding string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// checkVariants fetches every variant of every file of fsys through h and
// checks it against the manifest and the identity bytes. It returns the
// encodings seen.
func checkVariants(t *testing.T, fsys *bakefs.FS, h http.Handler) map[string]int {
	seen := make(map[string]int)
	for _, name := range files(t, fsys) {
		e, _ := fsys.Entry(name)
		identity, err := fsys.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range append([]bakefs.Encoding{{}}, e.Encodings...) {
			t.Run(name+"/"+enc.Name, func(t *testing.T) {
				rec := get(h, "/"+name, enc.Name)
				if rec.Code != http.StatusOK {
					t.Fatalf("GET /%s (%q): %d", name, enc.Name, rec.Code)
				}
				if got := rec.Header().Get("Content-Encoding"); got != enc.Name {
					t.Fatalf("Content-Encoding = %q, want %q", got, enc.Name)
				}
				if got := rec.Header().Get("Content-Type"); got != e.Type {
					t.Errorf("Content-Type = %q, want %q", got, e.Type)
				}
				body := rec.Body.Bytes()
				if enc.Name != "" {
					sum := sha256.Sum256(body)
					if hex.EncodeToString(sum[:]) != enc.SHA256 || int64(len(body)) != enc.Size {
						t.Errorf("variant sha256 %x size %d; manifest %s %d", sum, len(body), enc.SHA256, enc.Size)
					}
					if len(body) >= len(identity) {
						t.Errorf("variant is %d bytes, identity %d", len(body), len(identity))
					}
					if len(e.Encodings) > 0 && rec.Header().Get("Vary") != "Accept-Encoding" {
						t.Errorf("Vary = %q", rec.Header().Get("Vary"))
					}
				}
				if !bytes.Equal(decode(t, enc.Name, body), identity) {
					t.Errorf("decoded %q body differs from the identity bytes", enc.Name)
				}
				seen[enc.Name]++
			})
		}
	}
	return seen
}

func TestHandlerServesVariants(t *testing.T) {
	seen := checkVariants(t, assets.FS, assets.Handler())
	for _, name := range []string{"js/app.js", "index.html"} {
		if e, _ := assets.FS.Entry(name); len(e.Encodings) == 0 {
			t.Errorf("%s has no precompressed variant; steps gzip and br ran over it", name)
		}
	}
	for coding := range seen {
		if coding != "" && coding != "br" && coding != "gzip" {
			t.Errorf("variant %q; the steps asked for gzip and br only", coding)
		}
	}
}

func TestHandlerCaching(t *testing.T) {
	h := assets.Handler()
	tests := []struct {
		name, path string
		code       int
		cache      string
	}{
		{"logical name revalidates", "/js/app.js", http.StatusOK, "no-cache"},
		{"hashed name is immutable", "/" + assets.Path("js/app.js"), http.StatusOK, "public, max-age=31536000, immutable"},
		{"variant path is not served", "/js/app.js.br", http.StatusNotFound, ""},
		{"manifest is not served", "/" + bakefs.ManifestName, http.StatusNotFound, ""},
		{"missing file", "/js/missing.js", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(h, tt.path, "br, gzip")
			if rec.Code != tt.code {
				t.Fatalf("GET %s: %d, want %d", tt.path, rec.Code, tt.code)
			}
			if tt.cache != "" && rec.Header().Get("Cache-Control") != tt.cache {
				t.Errorf("Cache-Control = %q, want %q", rec.Header().Get("Cache-Control"), tt.cache)
			}
		})
	}
}

func TestMergedPackage(t *testing.T) {
	got := files(t, mixed.FS)
	if want := "index.html js/app.js"; strings.Join(got, " ") != want {
		t.Fatalf("files = %q, want %q", got, want)
	}
	for _, name := range got {
		if mixed.Path(name) == name {
			t.Errorf("%s has no hashed name; go_embed_data has hash = True", name)
		}
		a, _ := mixed.FS.ReadFile(name)
		b, _ := assets.FS.ReadFile(name)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the two packages", name)
		}
	}
	seen := checkVariants(t, mixed.FS, mixed.Handler())
	if seen["gzip"] == 0 {
		t.Errorf("no gzip variant; go_embed_data has compress = [gzip, zstd]")
	}
	if seen["br"] != 0 {
		t.Errorf("br variants of the input tree were carried over: %d", seen["br"])
	}
}

// TestBase checks that go_embed_data gives its base to the rewrite: the
// style sheet names the photo under the URL prefix /static/, which only
// base = "/static/" maps to the tree's root.
func TestBase(t *testing.T) {
	css, err := rooted.FS.ReadFile("css/rooted.css")
	if err != nil {
		t.Fatal(err)
	}
	photo := rooted.Path("img/photo.jpg")
	if photo == "img/photo.jpg" {
		t.Fatal("img/photo.jpg has no hashed name; go_embed_data has hash = True")
	}
	if want := "url(/static/" + photo + ")"; !bytes.Contains(css, []byte(want)) {
		t.Errorf("css/rooted.css does not name the photo by its hashed name, %s:\n%s", want, css)
	}
}

func TestFSConformance(t *testing.T) {
	for _, tt := range []struct {
		name string
		fsys *bakefs.FS
	}{{"assets", assets.FS}, {"mixed", mixed.FS}, {"rooted", rooted.FS}} {
		t.Run(tt.name, func(t *testing.T) {
			if err := fstest.TestFS(tt.fsys, files(t, tt.fsys)...); err != nil {
				t.Error(err)
			}
		})
	}
}
