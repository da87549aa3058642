package browser

import (
	"bytes"
	"context"
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/nginxtest"
)

// splitPage is the Go page of tests/splitapp: both entries, run with the
// runtime's helpers, after an import map that gives the integrity of every
// chunk, the one loaded on demand included.
const splitPage = `<!doctype html><html><head><meta charset="utf-8"><title>split</title>
{{importmap "src/shop.js" "src/admin.js"}}
{{module "src/shop.js"}}
{{module "src/admin.js"}}
</head><body><button id="report">Report</button></body></html>`

// served names: a hashed name (…/name.<10 hex>.ext) or a chunk's own
// content name (src/chunks/name-<8 base32>.js).
var servedName = regexp.MustCompile(`(\.[0-9a-f]{10}\.[a-z]+|/chunks/[a-z]+-[A-Z0-9]{8}\.js)$`)

// TestSplitApp builds tests/splitapp (two entries that share a module,
// and a route loaded with import()) and loads it in Chromium three ways:
// the Go page above, with the FS's handler under /static/; and index.html,
// which names the shop's TypeScript source, from the handler and from
// nginx serving the tree. On load, a page asks for its entries, the
// shared chunk once and the style sheet, all by served names, and not for
// the route; a click loads the route's chunk, once. Every script, preload
// and sheet of the Go page carries integrity, and a route chunk whose
// bytes differ from the build's is refused by the browser.
func TestSplitApp(t *testing.T) {
	dir := t.TempDir()
	out := buildTestApp(t, "splitapp", dir)
	fsys, err := bakefs.Load(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	report := onlyFile(t, out, "src/chunks/report-*.js")
	shared := onlyFile(t, out, "src/chunks/chunk-*.js")
	for _, entry := range []string{"src/shop.js", "src/admin.js"} {
		if e, _ := fsys.Entry(entry); !slices.Equal(e.Imports, []string{shared}) {
			t.Errorf("%s imports %q in the manifest, want [%s]", entry, e.Imports, shared)
		}
	}
	if e, _ := fsys.Entry("src/shop.js"); !slices.Equal(e.DynamicImports, []string{report}) || !slices.Equal(e.CSS, []string{"src/shop.css"}) {
		t.Errorf("src/shop.js loads %q on demand and needs %q, want [%s] and [src/shop.css]", e.DynamicImports, e.CSS, report)
	}

	page := template.Must(template.New("page").Funcs(fsys.FuncMap("/static/")).Parse(splitPage))
	app := httptest.NewServer(splitMux(t, page, fsys.Handler(), nil))
	t.Cleanup(app.Close)
	tree := httptest.NewServer(fsys.Handler())
	t.Cleanup(tree.Close)
	nginx := nginxtest.StartStatic(t, out)

	ctx := newBrowser(t, "")
	rec := record(t, ctx)
	for _, c := range []struct{ name, base, page string }{
		{"go page", app.URL + "/static", app.URL + "/"},
		{"index.html, handler", tree.URL, tree.URL + "/index.html"},
		{"index.html, nginx", nginx.URL, nginx.URL + "/index.html"},
	} {
		rec.reset()
		if err := chromedp.Do(ctx, chromedp.Navigate(c.page)); err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		waitFor(t, ctx, c.name, `document.readyState === "complete" && !!document.body.dataset.shop`)
		admin := c.name == "go page"
		want := []string{"src/shop.css", "src/shop.js", shared}
		if admin {
			want = append(want, "src/admin.js")
			checkIntegrity(t, ctx)
		}
		checkSplitRequests(t, c.name+", on load", rec, c.base, fsys, want)
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.body.dataset.shop, document.body.dataset.admin || "", getComputedStyle(document.body).backgroundColor].join(" ")`))
		if err != nil {
			t.Fatal(err)
		}
		if wantState := "[shop] " + map[bool]string{true: "[admin]"}[admin] + " rgb(10, 20, 30)"; state != wantState {
			t.Errorf("%s: page state %q, want %q (scripts ran, sheet applied)", c.name, state, wantState)
		}
		rec.reset()
		if err := chromedp.Do(ctx, chromedp.Click("#report")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, c.name+": the report", `!!document.body.dataset.report`)
		checkSplitRequests(t, c.name+", after the click", rec, c.base, fsys, []string{report})
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.report`)); got != "report [row 1] [row 2] [row 3]" {
			t.Errorf("%s: the report says %q", c.name, got)
		}
	}

	// A route chunk that is not the build's: the import map's integrity
	// makes the browser refuse it. A browser of its own, with nothing cached.
	tampered := httptest.NewServer(splitMux(t, page, fsys.Handler(), map[string]bool{fsys.Path(report): true}))
	t.Cleanup(tampered.Close)
	ctx = newBrowser(t, "")
	rec = record(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(tampered.URL+"/")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "tampered: load", `document.readyState === "complete" && !!document.body.dataset.admin`)
	if err := chromedp.Do(ctx, chromedp.Click("#report")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "tampered: the report", `!!document.body.dataset.report`)
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.report`)); got != "failed" {
		t.Errorf("a tampered route chunk was run: the report says %q", got)
	}
	if problems := strings.Join(rec.errors(), "\n"); !strings.Contains(strings.ToLower(problems), "integrity") {
		t.Errorf("no integrity error for a tampered route chunk; the console said:\n%s", problems)
	}
}

// splitMux serves page at / and the tree under /static/, changing the
// bytes of the files named in tamper (hashed names).
func splitMux(t *testing.T, page *template.Template, files http.Handler, tamper map[string]bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		if err := page.Execute(&b, nil); err != nil {
			t.Errorf("page: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(b.Bytes())
	})
	mux.Handle("/static/", http.StripPrefix("/static", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tamper[strings.TrimPrefix(r.URL.Path, "/")] {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`export function render() { return "not the build's"; }`))
			return
		}
		files.ServeHTTP(w, r)
	})))
	return mux
}

// checkSplitRequests checks that the requests of rec under base were for
// the files want (logical paths), each once, by its served name, answered
// immutable.
func checkSplitRequests(t *testing.T, what string, rec *recorder, base string, fsys *bakefs.FS, want []string) {
	t.Helper()
	var got []string
	for _, e := range rec.exchanges() {
		name, ok := strings.CutPrefix(e.URL, base+"/")
		if !ok || strings.HasSuffix(name, ".html") || name == "" || strings.HasSuffix(name, "favicon.ico") {
			continue
		}
		if e.Failed != "" || e.Status >= 400 {
			t.Errorf("%s: %s failed: %d %s", what, name, e.Status, e.Failed)
		}
		if !servedName.MatchString(name) {
			t.Errorf("%s: %s is not a hashed or content name", what, name)
		}
		if cc := e.Headers["cache-control"]; !strings.Contains(cc, "immutable") {
			t.Errorf("%s: %s sent Cache-Control %q, want immutable", what, name, cc)
		}
		got = append(got, name)
	}
	var served []string
	for _, w := range want {
		served = append(served, fsys.Path(w))
	}
	t.Logf("%s: requested %s", what, strings.Join(got, " "))
	slices.Sort(got)
	slices.Sort(served)
	if !slices.Equal(got, served) {
		t.Errorf("%s: requested\n\t%s\nwant each of\n\t%s\nonce", what, strings.Join(got, "\n\t"), strings.Join(served, "\n\t"))
	}
	for _, msg := range rec.errors() {
		if !strings.Contains(msg, "/favicon.ico") {
			t.Errorf("%s: %s", what, msg)
		}
	}
}

// checkIntegrity checks that every module script, modulepreload and style
// sheet of the page has an integrity attribute, and that its import map
// gives one for every chunk.
func checkIntegrity(t *testing.T, ctx context.Context) {
	t.Helper()
	missing, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('script[type=module], link[rel=modulepreload], link[rel=stylesheet]')].filter(e => !e.integrity).map(e => e.outerHTML)`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("no integrity: %s", m)
	}
	keys, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Object.keys(JSON.parse(document.querySelector('script[type=importmap]').textContent).integrity).map(u => u.replace(/^.*\/static\//, ""))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !servedName.MatchString(k) {
			t.Errorf("import map: integrity for %s, not a served name", k)
		}
	}
	if len(keys) != 4 { // shop, admin, the shared chunk, the route
		t.Errorf("import map gives integrity for %q, want the two entries and both chunks", keys)
	}
}

// onlyFile returns the logical path of the one file of the tree in out
// that matches pattern.
func onlyFile(t *testing.T, out, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(out, filepath.FromSlash(pattern)))
	if err != nil || len(m) != 1 {
		t.Fatalf("%s in %s: %q (%v), want one file", pattern, out, m, err)
	}
	rel, _ := filepath.Rel(out, m[0])
	return filepath.ToSlash(rel)
}
