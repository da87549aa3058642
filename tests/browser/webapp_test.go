package browser

import (
	"context"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/chromedp/chromedp"
)

// staticPrefix is where the example serves web/static/.
const staticPrefix = "/static/"

// pageFacts is what the page reports about itself once loaded.
type pageFacts struct {
	Scripts []struct {
		URL, Integrity string
	}
	Styles []struct {
		URL, Integrity string
		Loaded         bool
	}
	HeroSrc    string
	Greeting   string
	Bakes      int
	Status     string
	FontLoaded bool
	// Backgrounds are the computed background-image values of the
	// elements that app.css gives an image: url("…") with absolute URLs.
	Backgrounds map[string]string
}

const factsJS = `(() => {
	const hero = document.querySelector(".hero img");
	return {
		Scripts: [...document.querySelectorAll("script[src]")].map(s => ({URL: s.src, Integrity: s.integrity})),
		Styles: [...document.querySelectorAll('link[rel="stylesheet"]')].map(l => ({URL: l.href, Integrity: l.integrity, Loaded: !!l.sheet})),
		HeroSrc: hero ? hero.currentSrc : "",
		Greeting: document.querySelector("[data-greeting]").textContent,
		Bakes: document.querySelectorAll(".bakes li").length,
		Status: document.querySelector("[data-status]") ? document.querySelector("[data-status]").textContent : "",
		FontLoaded: [...document.fonts].some(f => f.family.replace(/"/g, "") === "Bakery Serif" && f.status === "loaded"),
		Backgrounds: Object.fromEntries(["html", ".masthead"].map(sel => [sel, getComputedStyle(document.querySelector(sel)).backgroundImage])),
	};
})()`

// backgrounds maps each element that app.css gives a background image to
// the logical path of that image.
var backgrounds = map[string]string{
	"html":      "static/css/art/crumb.png",
	".masthead": "static/css/art/grain.svg",
}

// cssURL matches the URL of a computed url() value.
var cssURL = regexp.MustCompile(`^url\("([^"]+)"\)$`)

// backgroundsLoaded is true once the background image of each element of
// backgrounds has loaded.
const backgroundsLoaded = `(() => {
	const loaded = new Set(performance.getEntriesByType("resource").filter(e => e.responseEnd > 0).map(e => e.name));
	return ["html", ".masthead"].every(sel => {
		const m = /^url\("(.+)"\)$/.exec(getComputedStyle(document.querySelector(sel)).backgroundImage);
		return m !== null && loaded.has(m[1]);
	});
})()`

// pageReady is true once the script has rendered the list, every image
// and stylesheet has loaded and the fonts are in.
const pageReady = `document.body && document.body.dataset.ready === "true" &&
	document.fonts.status === "loaded" &&
	[...document.images].every(i => i.complete && i.naturalWidth > 0) &&
	[...document.querySelectorAll('link[rel="stylesheet"]')].every(l => l.sheet)`

// sourceGreeting reads the greeting that web/static/js/greeting.ts exports.
func sourceGreeting(t *testing.T, file string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`greeting = "([^"]*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no greeting", file)
	}
	return string(m[1])
}

// bestEncoding is the encoding the runtime handler must choose among the
// variants of e for an Accept-Encoding header without weights: br, then
// zstd, then gzip; "" for the identity bytes.
func bestEncoding(e bakefs.Entry, acceptEncoding string) string {
	offered := make(map[string]bool)
	for _, tok := range strings.Split(acceptEncoding, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(tok), ";")
		offered[strings.ToLower(name)] = true
	}
	have := make(map[string]bool)
	for _, enc := range e.Encodings {
		have[enc.Name] = true
	}
	for _, name := range []string{"br", "zstd", "gzip"} {
		if have[name] && offered[name] {
			return name
		}
	}
	return ""
}

// hashedEntries maps the URL path of every fingerprinted static file to its
// manifest entry.
func hashedEntries(m *bakefs.Manifest) map[string]bakefs.Entry {
	out := make(map[string]bakefs.Entry)
	for _, e := range m.Files {
		name := e.Hashed
		if e.Fingerprinted {
			name = e.Path // a chunk, named by its content
		}
		if rest, ok := strings.CutPrefix(name, "static/"); ok {
			out[staticPrefix+rest] = e
		}
	}
	return out
}

func urlPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("bad URL %q: %v", raw, err)
	}
	return u.Path
}

func TestWebapp(t *testing.T) {
	f := setup(t, "prod")
	for _, line := range f.timings {
		t.Log(line)
	}
	for _, e := range f.manifest.Files {
		if strings.HasSuffix(e.Path, ".map") {
			t.Errorf("production build embeds the source map %s", e.Path)
		}
	}
	tests := []struct {
		name     string
		tls      bool
		protocol string // of the page's responses, as Chromium reports it
	}{
		{"http1", false, "http/1.1"},
		{"h2", true, "h2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			spki := ""
			if tt.tls {
				var cert, key string
				cert, key, spki = writeCert(t, t.TempDir())
				args = []string{"-tls-cert", cert, "-tls-key", key}
			}
			srv := startServer(t, f.dir, f.prod, args...)
			if tt.tls != strings.HasPrefix(srv.URL, "https://") {
				t.Fatalf("server URL %s", srv.URL)
			}
			ctx := newBrowser(t, spki)
			checkPage(t, ctx, f, srv.URL, tt.protocol, "webapp-"+tt.name+".png")
			if t.Failed() {
				t.Logf("server stderr:\n%s", srv.stderr)
			}
		})
	}
}

// checkPlanner checks the part of the page that app.js loads on demand:
// the first load asked for the chunk that app.js shares with it (preloaded)
// and not for the planner's chunk, which the click on the plan button
// fetches, by its content name, immutable, and runs.
func checkPlanner(t *testing.T, ctx context.Context, f *fixture, rec *recorder, first map[string]exchange, hashed map[string]bakefs.Entry) {
	app, _ := f.manifest.Lookup("static/js/app.js")
	if len(app.Imports) != 1 || len(app.DynamicImports) != 1 {
		t.Fatalf("static/js/app.js imports %q and loads %q on demand, want one chunk each", app.Imports, app.DynamicImports)
	}
	shared, planner := "/"+app.Imports[0], "/"+app.DynamicImports[0]
	requested := func(m map[string]exchange, p string) bool {
		for u := range m {
			if urlPath(t, u) == p {
				return true
			}
		}
		return false
	}
	if !requested(first, shared) || requested(first, planner) {
		t.Errorf("first load: %s requested %v (want true), %s requested %v (want false)", shared, requested(first, shared), planner, requested(first, planner))
	}
	rec.reset()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("[data-plan]").click(), true`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the oven plan", `!!document.body.dataset.plan`)
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.plan + ": " + document.querySelector("[data-plan-out]").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(state, "shown: Oven plan: ") {
		t.Errorf("after the click: %q, want the oven plan", state)
	}
	var got []string
	for _, x := range rec.exchanges() {
		p := urlPath(t, x.URL)
		got = append(got, p)
		if _, ok := hashed[p]; !ok {
			t.Errorf("after the click: %s is not a served name of the manifest", p)
		}
		if cc := x.Headers["cache-control"]; !strings.Contains(cc, "immutable") {
			t.Errorf("after the click: %s sent Cache-Control %q, want immutable", p, cc)
		}
	}
	if len(got) != 1 || got[0] != planner {
		t.Errorf("the click requested %q, want only %s", got, planner)
	}
	for _, p := range rec.errors() {
		t.Error(p)
	}
}

// checkPage loads the index page and checks what the browser got, then
// reloads it and checks that the fingerprinted files came from the cache
// or were revalidated.
func checkPage(t *testing.T, ctx context.Context, f *fixture, base, protocol, shot string) {
	rec := record(t, ctx)
	hashed := hashedEntries(f.manifest)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatalf("navigate: %v", err)
	}
	waitFor(t, ctx, "the page to render", pageReady)
	waitFor(t, ctx, "the style sheet's background images", backgroundsLoaded)
	t.Logf("page loaded and rendered in %s", time.Since(start).Round(time.Millisecond))
	facts, err := chromedp.Run(ctx, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, shot)

	t.Run("renders", func(t *testing.T) {
		want := sourceGreeting(t, filepath.Join(f.dir, "webapp", "web", "static", "js", "greeting.ts"))
		if facts.Greeting != want {
			t.Errorf("greeting %q, want %q (the script did not run?)", facts.Greeting, want)
		}
		if facts.Bakes != 6 || !strings.HasPrefix(facts.Status, "6 bakes loaded") {
			t.Errorf("%d bakes listed, status %q; want the 6 of data/bakes.json", facts.Bakes, facts.Status)
		}
		if !facts.FontLoaded {
			t.Error("the web font Bakery Serif did not load")
		}
	})
	byURL := make(map[string]exchange)
	for _, e := range rec.exchanges() {
		if e.Responded {
			byURL[e.URL] = e
		}
	}
	t.Run("style sheet images", func(t *testing.T) {
		// app.css names its images by their paths relative to it; the
		// build rewrote them to the hashed names, which the browser
		// loaded.
		for sel, name := range backgrounds {
			m := cssURL.FindStringSubmatch(facts.Backgrounds[sel])
			if m == nil {
				t.Errorf("%s: background-image %q, want the url() of %s", sel, facts.Backgrounds[sel], name)
				continue
			}
			e, ok := lookup(f.manifest, name)
			if !ok {
				t.Fatalf("manifest has no %s", name)
			}
			want := staticPrefix + strings.TrimPrefix(e.Hashed, "static/")
			if p := urlPath(t, m[1]); p != want {
				t.Errorf("%s: background-image %s, want the hashed name %s", sel, p, want)
			}
			x, ok := byURL[m[1]]
			switch {
			case !ok:
				t.Errorf("%s: the browser did not load %s", sel, m[1])
			case x.Status != 200 || x.Headers["content-type"] != e.Type:
				t.Errorf("%s: %s answered %d %q, want 200 %q", sel, m[1], x.Status, x.Headers["content-type"], e.Type)
			}
		}
	})
	t.Run("no console errors", func(t *testing.T) {
		for _, p := range rec.errors() {
			t.Error(p)
		}
	})
	t.Run("no failed requests", func(t *testing.T) {
		for _, e := range rec.exchanges() {
			if e.Failed != "" {
				t.Errorf("%s: %s", e.URL, e.Failed)
			} else if e.Responded && e.Status >= 400 {
				t.Errorf("%s: status %d", e.URL, e.Status)
			}
		}
	})
	t.Run("protocol", func(t *testing.T) {
		doc, ok := byURL[base+"/"]
		if !ok {
			t.Fatalf("no response for the page among %d", len(byURL))
		}
		if doc.Protocol != protocol {
			t.Errorf("page came over %q, want %q", doc.Protocol, protocol)
		}
	})
	t.Run("scripts and stylesheets", func(t *testing.T) {
		type ref struct{ url, integrity, kind string }
		var refs []ref
		for _, s := range facts.Scripts {
			refs = append(refs, ref{s.URL, s.Integrity, "script"})
		}
		for _, s := range facts.Styles {
			if !s.Loaded {
				t.Errorf("stylesheet %s did not load", s.URL)
			}
			refs = append(refs, ref{s.URL, s.Integrity, "stylesheet"})
		}
		if len(facts.Scripts) == 0 || len(facts.Styles) == 0 {
			t.Fatalf("page has %d scripts and %d stylesheets", len(facts.Scripts), len(facts.Styles))
		}
		for _, r := range refs {
			p := urlPath(t, r.url)
			e, ok := hashed[p]
			if !ok {
				t.Errorf("%s %s is not a fingerprinted name of the manifest", r.kind, p)
				continue
			}
			if r.integrity == "" || r.integrity != e.Integrity {
				t.Errorf("%s %s: integrity attribute %q, manifest has %q", r.kind, p, r.integrity, e.Integrity)
			}
			x, ok := byURL[r.url]
			if !ok {
				t.Errorf("%s %s: no response recorded", r.kind, p)
				continue
			}
			if x.Protocol != protocol {
				t.Errorf("%s %s came over %q, want %q", r.kind, p, x.Protocol, protocol)
			}
			ae := x.RequestHeaders["accept-encoding"]
			want := bestEncoding(e, ae)
			got := x.Headers["content-encoding"]
			if want == "" {
				t.Errorf("%s %s: no variant for Accept-Encoding %q (variants %v)", r.kind, p, ae, e.Encodings)
			}
			if got != want {
				t.Errorf("%s %s: Content-Encoding %q, want %q for Accept-Encoding %q", r.kind, p, got, want, ae)
			}
			if cc := x.Headers["cache-control"]; !strings.Contains(cc, "immutable") {
				t.Errorf("%s %s: Cache-Control %q, want immutable", r.kind, p, cc)
			}
			t.Logf("%s %s: %s over %s, Accept-Encoding %q → %s", r.kind, p, x.Headers["content-length"], x.Protocol, ae, got)
		}
		// The browser checks integrity: a wrong value must be refused.
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise(resolve => {
			const l = document.createElement("link");
			l.rel = "stylesheet";
			l.href = `+"`"+facts.Styles[0].URL+"`"+`;
			l.integrity = "sha384-" + "A".repeat(64);
			l.onload = () => resolve("load");
			l.onerror = () => resolve("error");
			document.head.append(l);
		})`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if bad != "error" {
			t.Errorf("a stylesheet with a wrong integrity value gave %q, want error: the browser does not check SRI", bad)
		}
	})
	t.Run("every fingerprinted file", func(t *testing.T) {
		n := 0
		for u, x := range byURL {
			p := urlPath(t, u)
			e, ok := hashed[p]
			if !ok {
				continue
			}
			n++
			if cc := x.Headers["cache-control"]; !strings.Contains(cc, "immutable") {
				t.Errorf("%s: Cache-Control %q, want immutable", p, cc)
			}
			if want, got := bestEncoding(e, x.RequestHeaders["accept-encoding"]), x.Headers["content-encoding"]; got != want {
				t.Errorf("%s: Content-Encoding %q, want %q", p, got, want)
			}
		}
		if n < 8 {
			t.Errorf("only %d fingerprinted files requested", n)
		}
	})
	t.Run("no logical names", func(t *testing.T) {
		// The pages name their static files through {{asset}}, the
		// script those the page hands it (data-icons, data-bakes), and
		// the style sheet its font and images through its rewritten
		// url()s: all of them hashed names.
		for u := range byURL {
			if p := urlPath(t, u); strings.HasPrefix(p, staticPrefix) {
				if _, ok := hashed[p]; !ok {
					t.Errorf("%s is not a fingerprinted name of the manifest", p)
				}
			}
		}
	})
	t.Run("picture", func(t *testing.T) {
		checkPicture(t, ctx, f, rec, facts)
	})
	t.Run("lazy planner", func(t *testing.T) {
		checkPlanner(t, ctx, f, rec, byURL, hashed)
	})
	if t.Failed() {
		return
	}

	t.Run("reload", func(t *testing.T) {
		// Fingerprinted files must come from the cache (immutable); a
		// file served under its logical name (no-cache) may be
		// revalidated, and must then get 304.
		first := make(map[string]bool) // URL → fingerprinted
		for u := range byURL {
			if strings.HasPrefix(urlPath(t, u), staticPrefix) {
				_, first[u] = hashed[urlPath(t, u)]
			}
		}
		rec.reset()
		if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the reloaded page to render", pageReady)
		var fromCache, notModified []string
		for _, x := range rec.exchanges() {
			isHashed, seen := first[x.URL]
			if !seen || !x.Responded {
				continue
			}
			p := urlPath(t, x.URL)
			switch {
			case x.cached():
				fromCache = append(fromCache, p)
			case x.Status == 304:
				notModified = append(notModified, p)
				if isHashed {
					t.Errorf("%s revalidated on reload, though immutable", p)
				}
			default:
				t.Errorf("%s fetched again on reload: status %d, not from the cache", p, x.Status)
			}
		}
		sort.Strings(fromCache)
		sort.Strings(notModified)
		t.Logf("reload: %d files from the cache %v; %d revalidated with 304 %v", len(fromCache), fromCache, len(notModified), notModified)
		if len(fromCache) == 0 {
			t.Error("no fingerprinted file came from the cache on reload")
		}
		for _, p := range rec.errors() {
			t.Error(p)
		}
	})
	t.Run("about page", func(t *testing.T) {
		rec.reset()
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/about")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the about page", `document.readyState === "complete" && document.fonts.status === "loaded"`)
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.files tbody tr").length`))
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, e := range f.manifest.Files {
			if strings.HasPrefix(e.Path, "static/") {
				want++
			}
		}
		if rows != want {
			t.Errorf("the about page lists %d files, the manifest has %d under static/", rows, want)
		}
		for _, p := range rec.errors() {
			t.Error(p)
		}
		for _, x := range rec.exchanges() {
			if x.Failed != "" || x.Status >= 400 {
				t.Errorf("%s: status %d %s", x.URL, x.Status, x.Failed)
			}
		}
	})
}

// heroFacts is what the page reports about its hero image.
type heroFacts struct {
	Src                 string
	NaturalWidth        int
	Width, Height       string // the attributes
	BoxWidth, BoxHeight float64
}

const heroJS = `(() => {
	const i = document.querySelector(".hero img"), r = i.getBoundingClientRect();
	return {Src: i.complete ? i.currentSrc : "", NaturalWidth: i.naturalWidth,
		Width: i.getAttribute("width"), Height: i.getAttribute("height"), BoxWidth: r.width, BoxHeight: r.height};
})()`

// checkPicture checks the hero <picture> of the index page: Chromium, 1280
// CSS pixels wide at density 1, where sizes gives 60rem (960 pixels), takes
// the 960w AVIF of the first <source>; the <img> carries the width and
// height of the manifest, and its box keeps that aspect ratio.
//
// Then the fallbacks. A browser takes the first <source> whose type it
// supports; Chromium supports AVIF and WebP, so the test stands in for a
// browser that does not: it sets the type of the AVIF <source> to one that
// no browser supports. Changing a source's type is one of the "relevant
// mutations" of the HTML standard's img element (4.8.4.3.2), on which the
// browser selects an image again, the same selection that runs at load:
// Chromium must then load the WebP, and with the WebP source's type
// changed too, the JPEG of the <img> itself. Each must arrive with its
// media type from the server.
func checkPicture(t *testing.T, ctx context.Context, f *fixture, rec *recorder, facts pageFacts) {
	hero := func() heroFacts {
		h, err := chromedp.Run(ctx, chromedp.Evaluate[heroFacts](heroJS))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	expect := func(name, typ string, h heroFacts) {
		t.Helper()
		e, ok := lookup(f.manifest, name)
		if !ok {
			t.Fatalf("manifest has no %s", name)
		}
		want := staticPrefix + strings.TrimPrefix(e.Hashed, "static/")
		if p := urlPath(t, h.Src); p != want {
			t.Errorf("currentSrc %s, want %s", p, want)
		}
		if h.NaturalWidth != e.Width {
			t.Errorf("%s: naturalWidth %d, want %d", name, h.NaturalWidth, e.Width)
		}
		for _, x := range rec.exchanges() {
			if x.URL == h.Src && x.Responded {
				if ct := x.Headers["content-type"]; ct != typ {
					t.Errorf("%s: Content-Type %q, want %q", name, ct, typ)
				}
				return
			}
		}
		t.Errorf("%s: no response recorded for %s", name, h.Src)
	}
	h := hero()
	if !strings.HasSuffix(urlPath(t, facts.HeroSrc), ".avif") {
		t.Errorf("Chromium took %s, want the AVIF", facts.HeroSrc)
	}
	expect("static/img/lake-960w.avif", "image/avif", h)
	jpeg, _ := lookup(f.manifest, "static/img/lake-960w.jpg")
	if h.Width != strconv.Itoa(jpeg.Width) || h.Height != strconv.Itoa(jpeg.Height) || jpeg.Height == 0 {
		t.Errorf("<img width=%q height=%q>, want the manifest's %d×%d", h.Width, h.Height, jpeg.Width, jpeg.Height)
	}
	if ratio := float64(jpeg.Width) / float64(jpeg.Height); h.BoxHeight == 0 || math.Abs(h.BoxWidth/h.BoxHeight-ratio) > 0.01 {
		t.Errorf("the image box is %.1f×%.1f, want the aspect ratio %.3f", h.BoxWidth, h.BoxHeight, ratio)
	}
	for _, step := range []struct{ hide, ext, name, typ string }{
		{"image/avif", ".webp", "static/img/lake-960w.webp", "image/webp"},
		{"image/webp", ".jpg", "static/img/lake-960w.jpg", "image/jpeg"},
	} {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			document.querySelector('.hero source[type="`+step.hide+`"]').type = "image/x-unsupported";
			return true;
		})()`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the "+step.ext+" fallback", `(() => {
			const i = document.querySelector(".hero img");
			return i.complete && i.naturalWidth > 0 && new URL(i.currentSrc).pathname.endsWith("`+step.ext+`");
		})()`)
		expect(step.name, step.typ, hero())
	}
}

// lookup returns the manifest entry of a logical path.
func lookup(m *bakefs.Manifest, name string) (bakefs.Entry, bool) {
	e, ok := m.Lookup(name)
	if !ok {
		return bakefs.Entry{}, false
	}
	return *e, true
}
