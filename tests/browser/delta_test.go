package browser

import (
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	bakefs "github.com/bakefs/bakefs/fs"
)

// deltaProject builds web/ with hashed names and brotli variants, and with
// deltas against releases/previous when that tree is there.
const deltaProject = `src = "web"
out = "build"
hash = true
compress = ["br"]

[[rule]]
match = "**"
steps = []
`

// writeDeltaRelease writes the sources of release n into dir/web: a page,
// a module script of many pseudo-randomly named functions, the same in
// every release but for the release's number, and a style sheet whose
// colour is the release's.
func writeDeltaRelease(t *testing.T, dir string, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var js strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&js, "export function f%x(a) { return a * %d + %d; }\n", rng.Uint64(), rng.IntN(1000), i)
	}
	fmt.Fprintf(&js, "document.body.dataset.release = %q;\n", fmt.Sprint(n))
	var css strings.Builder
	for i := range 400 {
		fmt.Fprintf(&css, ".c%x { margin: %dpx; }\n", rng.Uint64(), i)
	}
	fmt.Fprintf(&css, "body { color: rgb(0, 0, %d); }\n", n)
	files := map[string]string{
		"web/index.html":   `<!doctype html><html><head><meta charset="utf-8"><title>release</title><link rel="stylesheet" href="css/site.css"></head><body><p>release</p><script type="module" src="js/app.js"></script></body></html>` + "\n",
		"web/js/app.js":    js.String(),
		"web/css/site.css": css.String(),
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// buildDeltaRelease builds the project in dir and returns the FS of its
// tree, whose files are read from the tree's directory when served.
func buildDeltaRelease(t *testing.T, dir string) *bakefs.FS {
	t.Helper()
	fsys, err := bakefs.Load(os.DirFS(buildProject(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// trustedHome makes a HOME for the browser whose NSS database trusts the
// certificate: Chromium stores dictionaries only from a secure context
// without certificate errors, which --ignore-certificate-errors is not.
func trustedHome(t *testing.T, certFile string) string {
	t.Helper()
	certutil, err := exec.LookPath("certutil")
	if err != nil {
		const msg = "certutil not found (tools/chromium-setup.sh installs Debian's libnss3-tools)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	home := t.TempDir()
	db := "sql:" + filepath.Join(home, ".pki", "nssdb")
	os.MkdirAll(filepath.Join(home, ".pki", "nssdb"), 0o700)
	for _, args := range [][]string{
		{"-d", db, "-N", "--empty-password"},
		{"-d", db, "-A", "-t", "CP,CP,", "-n", "bakefs-test", "-i", certFile},
	} {
		if out, err := exec.Command(certutil, args...).CombinedOutput(); err != nil {
			t.Fatalf("certutil %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return home
}

// TestDeltaUpdate loads a page of release 1 over HTTPS, then serves
// release 2 (which keeps release 1's files and has deltas against them)
// from the same origin and loads the page again: the script and the style
// sheet are asked for with release 1's bytes as Available-Dictionary,
// come as dcz deltas of their size on the wire, and run and apply.
func TestDeltaUpdate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bakefs.toml"), []byte(deltaProject), 0o644)
	writeDeltaRelease(t, dir, 1)
	buildDeltaRelease(t, dir)
	// Release 1 as deployed: a copy of its tree, which the next build
	// replaces.
	deployed := filepath.Join(dir, "releases", "previous")
	if err := os.CopyFS(deployed, os.DirFS(filepath.Join(dir, "build"))); err != nil {
		t.Fatal(err)
	}
	release1, err := bakefs.Load(os.DirFS(deployed))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "bakefs.toml"), []byte(deltaProject+"\n[delta]\nprevious = \"releases/previous\"\n"), 0o644)
	writeDeltaRelease(t, dir, 2)
	release2 := buildDeltaRelease(t, dir)

	certFile, keyFile, _ := writeCert(t, t.TempDir())
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var current atomic.Pointer[http.Handler]
	h1 := release1.Handler()
	current.Store(&h1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*current.Load()).ServeHTTP(w, r)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	origin := "https://localhost:" + srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

	ctx := newBrowser(t, "", chromedp.Env("HOME="+trustedHome(t, certFile)))
	rec := record(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(origin+"/index.html")); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			for _, e := range rec.exchanges() {
				t.Logf("%s %d %s %v -> %v", e.URL, e.Status, e.Failed, e.RequestHeaders, e.Headers)
			}
			t.Logf("errors: %q", rec.errors())
		}
	}()
	waitFor(t, ctx, "release 1's script", `document.body.dataset.release === "1"`)
	for _, e := range rec.exchanges() {
		if strings.Contains(e.URL, "/js/app.") && e.Headers["use-as-dictionary"] == "" {
			t.Fatalf("release 1's script came without Use-As-Dictionary: %v", e.Headers)
		}
	}
	// Chromium stores a dictionary once its response is read, a moment
	// after the page has run; a request in that moment offers none.
	time.Sleep(time.Second)

	h2 := release2.Handler()
	current.Store(&h2)
	rec.reset()
	if err := chromedp.Do(ctx, chromedp.Navigate(origin+"/index.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "release 2's script", `document.body.dataset.release === "2"`)
	color, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).color`))
	if err != nil {
		t.Fatal(err)
	}
	if color != "rgb(0, 0, 2)" {
		t.Errorf("release 2's style sheet does not apply: body color %s", color)
	}
	waitFor(t, ctx, "the loads to finish", `performance.getEntriesByType("resource").length >= 2`)
	time.Sleep(200 * time.Millisecond) // the last loadingFinished events
	// The second visit's request log, for whoever reads the test's output.
	for _, x := range rec.exchanges() {
		t.Logf("second visit: GET %s -> %d, Content-Encoding %q, %v bytes on the wire; request Accept-Encoding %q, Available-Dictionary %q",
			strings.TrimPrefix(x.URL, origin), x.Status, x.Headers["content-encoding"], x.EncodedLength,
			x.RequestHeaders["accept-encoding"], x.RequestHeaders["available-dictionary"])
	}
	for _, file := range []string{"js/app.js", "css/site.css"} {
		e, ok := release2.Entry(file)
		if !ok || len(e.Deltas) != 1 {
			t.Fatalf("%s has deltas %+v in release 2, want one", file, e)
		}
		var x *exchange
		for _, ex := range rec.exchanges() {
			if strings.HasSuffix(ex.URL, "/"+e.Hashed) {
				x = &ex
			}
		}
		if x == nil {
			t.Fatalf("the page did not ask for %s", e.Hashed)
		}
		t.Logf("%s: Accept-Encoding %q, Available-Dictionary %q -> %d %s, %v bytes on the wire (delta %d, br %d, identity %d)",
			e.Hashed, x.RequestHeaders["accept-encoding"], x.RequestHeaders["available-dictionary"], x.Status,
			x.Headers["content-encoding"], x.EncodedLength, e.Deltas[0].Size, e.Encodings[0].Size, e.Size)
		if want := dictionaryValue(e.Deltas[0].Dictionary); x.RequestHeaders["available-dictionary"] != want {
			t.Errorf("%s: Available-Dictionary %q, want release 1's %q", file, x.RequestHeaders["available-dictionary"], want)
		}
		if x.Headers["content-encoding"] != "dcz" {
			t.Errorf("%s: Content-Encoding %q, want dcz", file, x.Headers["content-encoding"])
		}
		// The bytes on the wire are the delta's and the header's.
		if body := int64(x.EncodedLength); body < e.Deltas[0].Size || body > e.Deltas[0].Size+2048 {
			t.Errorf("%s: %d bytes on the wire for a delta of %d", file, body, e.Deltas[0].Size)
		}
	}
	if errs := rec.errors(); len(errs) > 0 {
		t.Errorf("the page reported errors: %q", errs)
	}
}

// dictionaryValue is the Available-Dictionary value of a hex SHA-256.
func dictionaryValue(sum string) string {
	raw, _ := hex.DecodeString(sum)
	return ":" + base64.StdEncoding.EncodeToString(raw) + ":"
}
