package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps"
	"github.com/chromedp/chromedp"
	"image"
	"image/png"
	"io"
	iofs "io/fs"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// docSite is a real static site that nobody here wrote: colorzero's
// manual, built by Sphinx with the Read the Docs theme (13 pages, 4 style
// sheets with 15 web fonts and images in url(), 9 scripts), as Debian's
// python-colorzero-doc package ships it; tools/docsite-setup.sh installs
// it. The test copies it (symbolic links into libjs-sphinxdoc followed,
// the gzipped changelog page unzipped) and never commits it.
const docSite = "/usr/share/doc/python-colorzero-doc/html"

// outsideSite is what the site's pages load from outside it: Debian
// points them at the system's MathJax (libjs-mathjax, not installed), so
// the request fails whether the site is hashed or not. Math then shows as
// TeX in every build alike.
const outsideSite = "usr/share/javascript/mathjax/MathJax.js"

// scriptURLs are the tree files that a script asks for by a URL it builds
// itself, which no rewrite of markup or style sheets can reach: the search
// page runs Search.loadIndex("searchindex.js"). They keep their logical
// name and are served no-cache.
var scriptURLs = map[string]string{"searchindex.js": "search.html"}

// TestHashedDocSite builds the site three ways — without hashing, with
// hashing as bakefs did before references were rewritten (every job
// keeping its references), and with hashing and the rewrite pass — serves
// each with the runtime handler over its tree, and loads every page in
// Chromium. The hashed site must render pixel for pixel as the plain one,
// with no failed request, and every request for a file of the tree other
// than a page must be for a hashed name answered immutable.
func TestHashedDocSite(t *testing.T) {
	if _, err := os.Stat(filepath.Join(docSite, "index.html")); err != nil {
		const msg = "the documentation site is not installed (run tools/docsite-setup.sh, which installs Debian's python-colorzero-doc)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; skipped outside CI")
	}
	dir := t.TempDir()
	web := filepath.Join(dir, "web")
	pages, err := copySite(docSite, web)
	if err != nil {
		t.Fatal(err)
	}
	plain := buildSite(t, dir, "plain", false, false)
	before := buildSite(t, dir, "before", true, true)
	after := buildSite(t, dir, "after", true, false)

	ctx := newBrowser(t, "")
	rec := record(t, ctx)
	var beforeShare, afterShare share
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			want := loadPage(t, ctx, rec, plain, page, nil)
			loadPage(t, ctx, rec, before, page, &beforeShare)
			got := loadPage(t, ctx, rec, after, page, &afterShare)
			if err := samePixels(want.shot, got.shot); err != nil {
				os.WriteFile(filepath.Join(artifacts(t), "docsite-"+strings.ReplaceAll(page, "/", "_")+".png"), got.shot, 0o644)
				t.Errorf("hashed site renders differently: %v", err)
			}
			for _, e := range got.assets {
				if scriptURLs[e.url] == page {
					if e.cacheControl != "no-cache" {
						t.Errorf("%s: %s, which a script names, served %q", page, e.url, e.cacheControl)
					}
					afterShare.script++
					continue
				}
				if !e.immutable {
					t.Errorf("%s: requested %s, served %q", page, e.url, e.cacheControl)
				}
			}
		})
	}
	t.Logf("site %s: %d pages; asset requests served immutable: before %d/%d, after %d/%d (%d named by a script)",
		docSite, len(pages), beforeShare.immutable, beforeShare.total, afterShare.immutable, afterShare.total, afterShare.script)
	if afterShare.total == 0 || afterShare.immutable != afterShare.total-afterShare.script {
		t.Fatalf("after: %d of %d asset requests immutable, want all but the %d a script names", afterShare.immutable, afterShare.total, afterShare.script)
	}
}

// share counts the requests for tree files other than pages.
type share struct{ immutable, total, script int }

// A site is one build of the documentation, served.
type site struct {
	name     string
	url      string
	manifest *bakefs.Manifest
	names    map[string]*bakefs.Entry // logical and hashed names
}

// copySite copies the site's files from src into dst, following symbolic
// links and unzipping .gz files, and returns the pages, sorted.
func copySite(src, dst string) ([]string, error) {
	var pages []string
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		return nil, err
	}
	err = filepath.WalkDir(src, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if name, ok := strings.CutSuffix(rel, ".gz"); ok {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			rel = name
		}
		if strings.HasSuffix(rel, ".html") {
			pages = append(pages, rel)
		}
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	sort.Strings(pages)
	return pages, err
}

// buildSite builds dir/web into dir/name with a project file, hashing or
// not, every job keeping its references when keepRefs, and serves it.
func buildSite(t *testing.T, dir, name string, hash, keepRefs bool) *site {
	t.Helper()
	file := filepath.Join(dir, name+".toml")
	toml := fmt.Sprintf("src = \"web\"\nout = %q\ncache = \"\"\nhash = %v\n\n[[rule]]\nmatch = \"**\"\nsteps = []\n", name, hash)
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := project.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		j.KeepRefs = keepRefs
	}
	res, err := (&pipeline.Pipeline{Root: p.Src, Base: p.Base, Strict: p.Strict}).Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Logf("%s: %v", name, w)
	}
	if _, err := res.WriteTree(p.Out); err != nil {
		t.Fatal(err)
	}
	fsys, err := bakefs.Load(os.DirFS(p.Out))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fsys.Handler())
	t.Cleanup(srv.Close)
	s := &site{name: name, url: srv.URL, manifest: res.Manifest, names: make(map[string]*bakefs.Entry)}
	for i := range res.Manifest.Files {
		e := &res.Manifest.Files[i]
		s.names[e.Path] = e
		if e.Hashed != "" {
			s.names[e.Hashed] = e
		}
	}
	return s
}

// A load is what loading one page gave.
type load struct {
	shot   []byte
	assets []assetRequest
}

type assetRequest struct {
	url, cacheControl string
	immutable         bool
}

// loadPage loads a page of s, waits for its fonts, and takes a
// screenshot. Each site has its own origin, so the browser's cache never
// answers one site's request with another's file; requests it answers from
// its cache are recorded with their headers as well. Every request must
// succeed; requests for files of the tree other than pages are returned
// and counted in sh.
func loadPage(t *testing.T, ctx context.Context, rec *recorder, s *site, page string, sh *share) load {
	t.Helper()
	rec.reset()
	if err := chromedp.Do(ctx, chromedp.Navigate(s.url+"/"+page)); err != nil {
		t.Fatalf("%s %s: %v", s.name, page, err)
	}
	waitFor(t, ctx, "fonts of "+page, `document.readyState === "complete" && document.fonts.status === "loaded"`)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	var l load
	l.shot = shot
	for _, e := range rec.exchanges() {
		u, err := url.Parse(e.URL)
		if err != nil || u.Scheme == "data" || !strings.HasPrefix(e.URL, s.url+"/") {
			continue
		}
		name := strings.TrimPrefix(u.Path, "/")
		if name == outsideSite || name == "favicon.ico" && s.names[name] == nil {
			continue // not the site's: see outsideSite; the browser's own guess at an icon
		}
		if e.Failed != "" || e.Status >= 400 {
			t.Errorf("%s %s: request for %s failed: %d %s", s.name, page, name, e.Status, e.Failed)
			continue
		}
		entry := s.names[name]
		if entry == nil || strings.HasSuffix(entry.Path, ".html") {
			continue
		}
		cc := e.Headers["cache-control"]
		a := assetRequest{url: name, cacheControl: cc, immutable: strings.Contains(cc, "immutable") && (name == entry.Hashed || entry.Fingerprinted)}
		l.assets = append(l.assets, a)
		if sh != nil {
			sh.total++
			if a.immutable {
				sh.immutable++
			}
		}
	}
	for _, p := range rec.errors() {
		if !strings.Contains(p, outsideSite) && !strings.Contains(p, "/favicon.ico") {
			t.Errorf("%s %s: %s", s.name, page, p)
		}
	}
	return l
}

// samePixels compares two PNG screenshots pixel by pixel.
func samePixels(a, b []byte) error {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if ia.Bounds() != ib.Bounds() {
		return fmt.Errorf("size %v, want %v", ib.Bounds(), ia.Bounds())
	}
	diff := 0
	var first image.Point
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		return fmt.Errorf("%d pixels differ, the first at %v", diff, first)
	}
	return nil
}
