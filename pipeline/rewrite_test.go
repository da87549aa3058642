package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/golden"
	"github.com/bakefs/bakefs/pipeline/refs"
	"github.com/bakefs/bakefs/transform"
)

// Targets that the cases below refer to.
var rewriteTargets = map[string]string{
	"img/a.png":         "png a",
	"img/b c.png":       "png b c",
	"img/logo.svg":      "<svg xmlns='http://www.w3.org/2000/svg'><circle r='1'/></svg>",
	"img/hero-1x.jpg":   "jpg 1x",
	"img/hero-2x.jpg":   "jpg 2x",
	"fonts/serif.woff2": "woff2",
	"css/base.css":      "body{color:red}",
	"js/app.js":         "console.log(1)\n//# sourceMappingURL=app.js.map\n",
	"js/app.js.map":     `{"version":3,"sources":[],"mappings":""}`,
	"docs/guide.pdf":    "pdf",
	"other.html":        "<p>other</p>",
	"icons/192.png":     "png 192",
	"icons/512.png":     "png 512",
	"shots/wide.png":    "png wide",
	"img/sprite.svg":    "<svg xmlns='http://www.w3.org/2000/svg'><symbol id='s'/></svg>",
}

// rewriteCases are the golden tests of the rewrite pass, one per format.
// Each source is built with the targets above and the hash step; the
// golden file holds the rewritten file, its hashed name and the warnings.
var rewriteCases = []struct {
	name, path, source string
}{
	{"css", "css/site.css", `@import "base.css";
@import url( 'base.css' ) screen;
@font-face { font-family: S; src: url(../fonts/serif.woff2) format("woff2"), local(Serif); }
.a { background: url(../img/a.png) }
.b { background: url("../img/a.png?v=2#x") }
.c { background: url(  '../img/a.png'  ) }
.d { background: url(../img/b\ c.png) }
.e { background: url("../img/b\20 c.png") }
.f { background: url(../img/\61.png) }
.g { background-image: image-set("../img/hero-1x.jpg" 1x, url(../img/hero-2x.jpg) 2x) }
.h { background: -webkit-image-set('../img/hero-1x.jpg' 1x) }
.i { background: url(data:image/png;base64,iVBORw0KGgo=) }
.j { background: url(https://example.com/a.png), url(//cdn.example.com/a.png) }
.k { mask: url(/img/logo.svg#m) }
.l { background: url(../img/missing.png) }
.m { content: "../img/a.png" }
.n { background: url(/elsewhere/a.png) }
/*# sourceMappingURL=site.css.map */
`},
	{"html", "index.html", `<!doctype html>
<html>
<head>
<meta property="og:image" content="/img/a.png">
<meta name="description" content="img/a.png">
<link rel="stylesheet" href="css/base.css" integrity="sha384-old">
<link rel=icon href=img/logo.svg>
<link rel="next" href="other.html">
<link rel="canonical" href="/nowhere">
<link rel="preload" as="image" imagesrcset="img/hero-1x.jpg 1x, img/hero-2x.jpg 2x">
<script src='js/app.js' integrity='sha384-old' defer></script>
<style>
  .hero { background: url("img/a.png") }
</style>
</head>
<body style="background: url(&quot;img/a.png&quot;)">
<img src="img/a.png?v=2#top" alt="a">
<img srcset="img/hero-1x.jpg, img/hero-2x.jpg 2x,data:image/png;base64,AAAA 3x" src="img/hero-1x.jpg">
<picture><source srcset="img/hero-1x.jpg 480w,img/hero-2x.jpg 960w" sizes="(max-width: 600px) 480px, 960px"></picture>
<video poster="img/a.png" src="img/missing.mp4"></video>
<object data="img/logo.svg"></object>
<a href="other.html">other page</a> <a href="docs/guide.pdf">guide</a> <a href="/about">about</a> <a href="#top">top</a>
<a href="img/b%20c.png">space</a>
<img src="{{.Image}}" alt="{{.Alt}}"> {{if .X}}<img src="img/a.png">{{end}}
<img src="img/logo.svg" {{if .Lazy}}loading="lazy"{{end}}>
<svg><use href="img/sprite.svg#s"/><use href="#local"/></svg>
<img src="img/missing.png">
</body>
</html>
`},
	{"svg", "img/pattern.svg", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<defs><linearGradient id="g"/></defs>
<style>rect { fill: url(#g) } circle { fill: url(sprite.svg#s) }</style>
<rect fill="url(#g)" style="stroke: url(logo.svg#x)"/>
<image href="a.png"/><image xlink:href='a.png'/>
<use xlink:href="#g"/><use href="sprite.svg#s"/>
<path mask="url(logo.svg)"/>
</svg>
`},
	{"webmanifest", "site.webmanifest", `{
  "name": "App",
  "start_url": "/index.html",
  "icons": [
    {"src": "icons/192.png", "sizes": "192x192"},
    {"sizes": "512x512", "src": "/icons\/512.png", "purpose": {"src": "not an icon"}}
  ],
  "screenshots": [{"src": "shots/wide.png", "form_factor": "wide"}],
  "src": "icons/192.png"
}
`},
	{"sourcemap", "js/app.js", ""},
}

// buildRewrite runs the pipeline over files, every one hashed unless
// noHash, and returns the result.
func buildRewrite(t *testing.T, files map[string]string, noHash bool, p *Pipeline) (*Result, error) {
	t.Helper()
	root := writeSources(t, files)
	steps := []string{"hash"}
	if noHash {
		steps = nil
	}
	p.Root = root
	return p.Run(context.Background(), jobsFor(t, root, steps...))
}

// outputBytes returns the identity bytes of a result's file.
func outputBytes(t *testing.T, res *Result, name string) []byte {
	t.Helper()
	for _, o := range res.outputs {
		if o.Path == name {
			data, err := fetch(o.data, o.blob, res.cache)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	t.Fatalf("no output %s", name)
	return nil
}

func TestRewriteGolden(t *testing.T) {
	for _, c := range rewriteCases {
		t.Run(c.name, func(t *testing.T) {
			files := make(map[string]string)
			for k, v := range rewriteTargets {
				files[k] = v
			}
			if c.source != "" {
				files[c.path] = c.source
			}
			res, err := buildRewrite(t, files, false, &Pipeline{})
			if err != nil {
				t.Fatal(err)
			}
			e, _ := res.Manifest.Lookup(c.path)
			var b bytes.Buffer
			fmt.Fprintf(&b, "== %s → %s\n", c.path, e.Hashed)
			b.Write(outputBytes(t, res, c.path))
			fmt.Fprintf(&b, "== warnings\n")
			for _, w := range res.Warnings {
				fmt.Fprintf(&b, "%v\n", w)
			}
			golden.Check(t, "rewrite/"+c.name+".txt", b.Bytes())
		})
	}
}

// TestRewriteResolvesToUnhashedTree is the property of the pass: every
// reference it rewrote, resolved through the manifest (hashed name to
// logical file), gives back the bytes that the build without hashing has
// at the logical path; and the rewritten files are the unhashed ones with
// only their references changed.
func TestRewriteResolvesToUnhashedTree(t *testing.T) {
	files := make(map[string]string)
	for k, v := range rewriteTargets {
		files[k] = v
	}
	for _, c := range rewriteCases {
		if c.source != "" {
			files[c.path] = c.source
		}
	}
	hashed, err := buildRewrite(t, files, false, &Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := buildRewrite(t, files, true, &Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	byName := make(map[string]*bakefs.Entry)
	for i := range hashed.Manifest.Files {
		e := &hashed.Manifest.Files[i]
		byName[e.Path] = e
		if e.Hashed != "" {
			byName[e.Hashed] = e
		}
	}
	checked := 0
	for _, o := range hashed.outputs {
		if !o.rewritten {
			if !bytes.Equal(o.data, outputBytes(t, plain, o.Path)) {
				t.Errorf("%s: changed, but not by the rewrite pass", o.Path)
			}
			continue
		}
		before := scanFor(o, outputBytes(t, plain, o.Path))
		after := scanFor(o, o.data)
		if len(before) != len(after) {
			t.Fatalf("%s: %d references before, %d after", o.Path, len(before), len(after))
		}
		for i := range after {
			if after[i] == before[i] {
				continue
			}
			target, ok := localTarget(after[i], o.Path, "/")
			e := byName[target]
			if !ok || e == nil || e.Hashed != target {
				t.Errorf("%s: %q was rewritten to %q, which is no hashed name", o.Path, before[i], after[i])
				continue
			}
			want, _ := localTarget(before[i], o.Path, "/")
			if e.Path != want || !bytes.Equal(outputBytes(t, hashed, e.Path), outputBytes(t, plain, want)) && !isRewritten(hashed, e.Path) {
				t.Errorf("%s: %q resolves to %s, want %s", o.Path, after[i], e.Path, want)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("only %d rewritten references checked", checked)
	}
}

// scanFor returns the URLs of data as the reader of o's kind finds them,
// integrity values left out.
func scanFor(o *output, data []byte) []string {
	var found []refs.Ref
	if read, ok := refs.ReaderOf(refKindOf(o)); ok {
		found = read(data)
	}
	var urls []string
	refs.Each(found, func(r *refs.Ref, _ int) {
		if r.Kind != refs.SRI {
			urls = append(urls, r.URL)
		}
	})
	return urls
}

func isRewritten(res *Result, name string) bool {
	for _, o := range res.outputs {
		if o.Path == name {
			return o.rewritten
		}
	}
	return false
}

func TestRewriteHashesPropagate(t *testing.T) {
	files := map[string]string{
		"img/a.png":    "one",
		"css/site.css": ".a{background:url(../img/a.png)}",
		"index.html":   `<link rel="stylesheet" href="css/site.css">`,
		"about.html":   `<a href="index.html">home</a>`,
	}
	first, err := buildRewrite(t, files, false, &Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	files["img/a.png"] = "two"
	second, err := buildRewrite(t, files, false, &Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"img/a.png", "css/site.css", "index.html"} {
		a, _ := first.Manifest.Lookup(name)
		b, _ := second.Manifest.Lookup(name)
		if a.Hashed == b.Hashed {
			t.Errorf("%s: hashed name %s did not change with the image", name, a.Hashed)
		}
	}
	a, _ := first.Manifest.Lookup("about.html")
	b, _ := second.Manifest.Lookup("about.html")
	if a.Hashed != b.Hashed {
		t.Errorf("about.html links index.html by its logical name, yet its hash changed")
	}
}

func TestRewriteCycle(t *testing.T) {
	files := map[string]string{
		"a.css":     `@import "b.css";`,
		"b.css":     `@import url(c.css);`,
		"c.css":     `@import "a.css";`,
		"page.html": `<link rel=stylesheet href=a.css>`,
	}
	_, err := buildRewrite(t, files, false, &Pipeline{})
	if !errors.Is(err, ErrRefCycle) || !strings.Contains(err.Error(), "a.css → b.css → c.css → a.css") {
		t.Fatalf("err = %v, want the cycle a.css → b.css → c.css → a.css", err)
	}
}

func TestRewriteStrictAndOptOut(t *testing.T) {
	files := map[string]string{
		"css/a.css": ".a{}\n.b { background: url(gone.png) }",
		"img/x.png": "x",
	}
	res, err := buildRewrite(t, files, false, &Pipeline{})
	if err != nil || len(res.Warnings) != 1 || res.Warnings[0].Error() != `css/a.css:2:22: warning: "gone.png" names css/gone.png, which is not in the output tree` {
		t.Fatalf("warnings %v, err %v", res.Warnings, err)
	}
	_, err = buildRewrite(t, files, false, &Pipeline{Strict: true})
	if err == nil || err.Error() != `css/a.css:2:22: error: "gone.png" names css/gone.png, which is not in the output tree` {
		t.Fatalf("strict: err = %v", err)
	}
	// Without hashing, strict still checks, and nothing is rewritten.
	_, err = buildRewrite(t, files, true, &Pipeline{Strict: true})
	if err == nil || err.Error() != `css/a.css:2:22: error: "gone.png" names css/gone.png, which is not in the output tree` {
		t.Fatalf("strict without hashing: err = %v", err)
	}
	// A url() in a condition is only tested, never loaded.
	res, err = buildRewrite(t, map[string]string{
		"a.css": "@supports (background: url(gone.png)) { .a { color: red } }\n@import url(b.css) supports(mask: url(gone.svg));",
		"b.css": ".b{}",
	}, false, &Pipeline{Strict: true})
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("url() in supports conditions: warnings %v, err %v", res.Warnings, err)
	}
	root := writeSources(t, map[string]string{"a.css": ".a{background:url(x.png)}", "x.png": "x"})
	jobs := jobsFor(t, root, "hash")
	for _, j := range jobs {
		j.KeepRefs = j.Path == "a.css"
	}
	res, err = (&Pipeline{Root: root}).Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(outputBytes(t, res, "a.css")); got != ".a{background:url(x.png)}" {
		t.Fatalf("opted-out file rewritten: %s", got)
	}
}

func TestRewriteBase(t *testing.T) {
	files := map[string]string{
		"img/a.png":  "a",
		"index.html": `<img src="/static/img/a.png"><img src="/img/a.png">`,
	}
	res, err := buildRewrite(t, files, false, &Pipeline{Base: "/static/"})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := res.Manifest.Lookup("img/a.png")
	want := `<img src="/static/` + e.Hashed + `"><img src="/img/a.png">`
	if got := string(outputBytes(t, res, "index.html")); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// TestRewriteCacheReruns checks that a cached build whose image changed
// gives the bytes of a clean build: the style sheet that refers to the
// image is rewritten (and compressed) again although its chain is cached.
func TestRewriteCacheReruns(t *testing.T) {
	root := writeSources(t, map[string]string{
		"img/a.png":    "one",
		"css/site.css": ".a{background:url(../img/a.png)}",
	})
	cache := &Cache{Dir: t.TempDir()}
	out := filepath.Join(t.TempDir(), "out")
	build := func(c *Cache) *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: c}).Run(context.Background(), jobsFor(t, root, "gzip", "hash"))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if _, err := build(cache).WriteTree(out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "img", "a.png"), []byte("two, longer than one"), 0o644); err != nil {
		t.Fatal(err)
	}
	cached := build(&Cache{Dir: cache.Dir})
	if cached.Stats.Cached != 1 || cached.Stats.Ran != 1 {
		t.Fatalf("stats %+v: want the sheet's chain cached, the image's run", cached.Stats)
	}
	clean := build(nil)
	got, _ := bakefs.EncodeManifest(cached.Manifest)
	want, _ := bakefs.EncodeManifest(clean.Manifest)
	if !bytes.Equal(got, want) {
		t.Fatalf("cached build's manifest differs from a clean one:\n%s\n%s", got, want)
	}
	img, _ := clean.Manifest.Lookup("img/a.png")
	if sheet := outputBytes(t, clean, "css/site.css"); !bytes.Contains(sheet, []byte(path.Base(img.Hashed))) {
		t.Fatalf("sheet does not name %s: %s", img.Hashed, sheet)
	}
}

// TestRewriteCacheDamage: with every blob of the cache damaged or gone, a
// run whose rewrite pass reads a style sheet from the cache runs the
// sheet's job again instead of failing; writing the tree meets the
// damaged variants of the finishing steps' entries and fails with
// ErrCacheDamaged, and one more run (what bakefs build does) gives the
// tree of a clean build and stores what was lost.
func TestRewriteCacheDamage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(file string)
		ran    int // jobs run again within the damaged run
	}{
		// A flipped blob keeps its size: the rewrite memo answers, reading
		// no output, and the damage shows when the tree is written.
		{"blob flipped", func(file string) {
			data, _ := os.ReadFile(file)
			data[len(data)-1] ^= 1
			os.WriteFile(file, data, 0o644)
		}, 0},
		// A missing blob makes the memo unusable: the pass reads the
		// sheet, whose job runs again within the run.
		{"blob removed", func(file string) { os.Remove(file) }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeSources(t, map[string]string{
				"img/a.png":    "one image, long enough to compress well, one image, one image",
				"css/site.css": ".a{background:url(../img/a.png)}.b{background:url(../img/a.png)}",
			})
			jobs := func() []*Job { return jobsFor(t, root, "gzip", "hash") }
			clean, err := (&Pipeline{Root: root}).Run(context.Background(), jobs())
			if err != nil {
				t.Fatal(err)
			}
			cleanDir := filepath.Join(t.TempDir(), "clean")
			if _, err := clean.WriteTree(cleanDir); err != nil {
				t.Fatal(err)
			}
			cache := &Cache{Dir: t.TempDir()}
			run := func() *Result {
				t.Helper()
				res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobs())
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			if _, err := run().WriteTree(filepath.Join(t.TempDir(), "first")); err != nil {
				t.Fatal(err)
			}
			eachFile(t, filepath.Join(cache.Dir, "blobs"), tc.damage)

			res := run()
			if res.Stats.Ran != tc.ran || res.Stats.Cached != 2-tc.ran {
				t.Errorf("with the damage: %+v; want %d jobs run again", res.Stats, tc.ran)
			}
			out := filepath.Join(t.TempDir(), "out")
			if _, err := res.WriteTree(out); !errors.Is(err, ErrCacheDamaged) {
				t.Fatalf("writing the tree: %v, want ErrCacheDamaged", err)
			}
			if _, err := run().WriteTree(out); err != nil { // with the same Cache, as bakefs build
				t.Fatalf("one more run: %v", err)
			}
			if got, want := readTreeFiles(t, out), readTreeFiles(t, cleanDir); !equalMaps(got, want) {
				t.Fatalf("tree after the damage differs from a clean one:\n%v\n%v", got, want)
			}
			again := filepath.Join(t.TempDir(), "again")
			cache = &Cache{Dir: cache.Dir} // a new process
			if _, err := run().WriteTree(again); err != nil {
				t.Fatalf("the run after the repair: %v", err)
			}
			if got, want := readTreeFiles(t, again), readTreeFiles(t, cleanDir); !equalMaps(got, want) {
				t.Fatal("the repaired cache gives another tree")
			}
		})
	}
}

// TestRewriteMemo: a run whose outputs are all the same as the last run's
// takes every rewrite from the memo, to the same manifest. After one image
// changes, only the files whose targets changed are rewritten again (the
// sheet that uses the image and the page that links the sheet), and the
// other sheet is not even read: its bytes are gone from the cache, which
// would make its job run again.
func TestRewriteMemo(t *testing.T) {
	b := ".b{background:url(../img/b.png)}"
	root := writeSources(t, map[string]string{
		"img/a.png":  "one image, long enough to compress well, one image, one image",
		"img/b.png":  "another image, long enough to compress well, another image",
		"css/a.css":  ".a{background:url(../img/a.png)}",
		"css/b.css":  b,
		"index.html": `<link rel=stylesheet href=css/a.css><link rel=stylesheet href=css/b.css>`,
	})
	cache := &Cache{Dir: t.TempDir()}
	run := func() *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, root, "gzip", "hash"))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	manifest := func(res *Result) string {
		t.Helper()
		b, err := bakefs.EncodeManifest(res.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fromMemo := func(res *Result) []string {
		var paths []string
		for _, o := range res.outputs {
			if o.key == rewriteMemoKey {
				paths = append(paths, o.Path)
			}
		}
		return paths
	}
	first := run()
	second := run()
	if manifest(first) != manifest(second) {
		t.Fatalf("the memo gives another manifest:\n%s\n%s", manifest(first), manifest(second))
	}
	if got, want := fromMemo(second), []string{"css/a.css", "css/b.css", "index.html"}; !slices.Equal(got, want) {
		t.Errorf("no-change run: rewrites from the memo %q, want %q", got, want)
	}
	os.Remove(cache.blobFile(transform.SHA256Hex([]byte(b))))
	os.WriteFile(filepath.Join(root, "img", "a.png"), []byte("a new image, long enough to compress, a new image"), 0o644)
	third := run()
	if got, want := fromMemo(third), []string{"css/b.css"}; !slices.Equal(got, want) {
		t.Errorf("after the image changed: rewrites from the memo %q, want %q", got, want)
	}
	if third.Stats.Ran != 1 {
		t.Errorf("after the image changed: %+v; want only the image's job run (css/b.css read?)", third.Stats)
	}
	clean, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "gzip", "hash"))
	if err != nil {
		t.Fatal(err)
	}
	if manifest(third) != manifest(clean) {
		t.Fatalf("after the change, the manifest differs from a clean run's:\n%s\n%s", manifest(third), manifest(clean))
	}
}
