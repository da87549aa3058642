package fs_test

import (
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"io"
	iofs "io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// moduleFiles is a bundle with code splitting: js/app.js imports two
// chunks that both import "js/chunk d.js" (a diamond), which imports
// js/app.js and js/chunk-b.js back (cycles); js/app.js loads js/lazy.js
// with import(), which imports a chunk of its own and loads another.
// "js/chunk d.js" and "css/a&b.css" are not hashed, and need escaping.
var moduleFiles = []treeFile{
	{path: "css/a&b.css", typ: typeCSS, data: "b{}"},
	{path: "css/app.css", typ: typeCSS, data: "main{}", hashed: true},
	{path: "css/chunk.css", typ: typeCSS, data: "c{}", hashed: true},
	{path: "js/app.js", typ: typeJS, data: "import './chunk-b.js'", hashed: true,
		imports: []string{"js/chunk-b.js", "js/chunk-c.js"}, dynamicImports: []string{"js/lazy.js"}, css: []string{"css/app.css"}},
	{path: "js/chunk d.js", typ: typeJS, data: "d", imports: []string{"js/app.js", "js/chunk-b.js"}},
	{path: "js/chunk-b.js", typ: typeJS, data: "b", hashed: true, imports: []string{"js/chunk d.js"}, css: []string{"css/a&b.css"}},
	{path: "js/chunk-c.js", typ: typeJS, data: "c", hashed: true,
		imports: []string{"js/chunk d.js"}, css: []string{"css/a&b.css", "css/chunk.css"}},
	{path: "js/lazy-dep.js", typ: typeJS, data: "dep", hashed: true},
	{path: "js/lazy.js", typ: typeJS, data: "lazy", hashed: true,
		imports: []string{"js/chunk d.js", "js/lazy-dep.js"}, dynamicImports: []string{"js/later.js"}},
	{path: "js/later.js", typ: typeJS, data: "later", hashed: true},
	{path: "robots.txt", typ: typeText, data: "User-agent: *\n"},
}

// urlOf returns the URL under prefix that FuncMap's asset gives the file
// path of m: its hashed name, path-escaped.
func urlOf(tb testing.TB, m *bakefs.Manifest, prefix, path string) string {
	tb.Helper()
	name := entryOf(tb, m, path).Hashed
	if name == "" {
		name = path
	}
	return prefix + strings.ReplaceAll(name, " ", "%20")
}

// wantErr checks that err wraps want and names each of names.
func wantErr(t *testing.T, err, want error, names ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
	for _, n := range names {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not name %s", err, n)
		}
	}
}

func TestModuleGraph(t *testing.T) {
	fsys, m := newTreeFS(t, moduleFiles)
	tests := []struct {
		name     string
		preloads []string
		css      []string
		err      error
	}{
		{name: "js/app.js",
			preloads: []string{"js/chunk-b.js", "js/chunk d.js", "js/chunk-c.js"},
			css:      []string{"css/app.css", "css/a&b.css", "css/chunk.css"}},
		{name: entryOf(t, m, "js/app.js").Hashed,
			preloads: []string{"js/chunk-b.js", "js/chunk d.js", "js/chunk-c.js"},
			css:      []string{"css/app.css", "css/a&b.css", "css/chunk.css"}},
		{name: "js/chunk d.js", // its cycles lead back to it
			preloads: []string{"js/app.js", "js/chunk-b.js", "js/chunk-c.js"},
			css:      []string{"css/app.css", "css/a&b.css", "css/chunk.css"}},
		{name: "js/chunk-c.js",
			preloads: []string{"js/chunk d.js", "js/app.js", "js/chunk-b.js"},
			css:      []string{"css/a&b.css", "css/chunk.css", "css/app.css"}},
		{name: "js/lazy.js", // not js/later.js, which it loads with import()
			preloads: []string{"js/chunk d.js", "js/app.js", "js/chunk-b.js", "js/chunk-c.js", "js/lazy-dep.js"},
			css:      []string{"css/app.css", "css/a&b.css", "css/chunk.css"}},
		{name: "js/later.js", preloads: []string{}, css: []string{}},
		{name: "js/nope.js", err: iofs.ErrNotExist},
		{name: "../js/app.js", err: iofs.ErrNotExist},
		{name: "css/app.css", err: bakefs.ErrNotModule},
		{name: "robots.txt", err: bakefs.ErrNotModule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preloads, err := fsys.ModulePreloads(tt.name)
			css, cssErr := fsys.ModuleCSS(tt.name)
			if tt.err != nil {
				wantErr(t, err, tt.err, `ModulePreloads "`+tt.name+`"`)
				wantErr(t, cssErr, tt.err, `ModuleCSS "`+tt.name+`"`)
				return
			}
			if err != nil || cssErr != nil {
				t.Fatal(err, cssErr)
			}
			if !slices.Equal(preloads, tt.preloads) {
				t.Errorf("ModulePreloads = %q, want %q", preloads, tt.preloads)
			}
			if !slices.Equal(css, tt.css) {
				t.Errorf("ModuleCSS = %q, want %q", css, tt.css)
			}
		})
	}
}

func TestModuleGraphHidden(t *testing.T) {
	fsys, _ := newTreeFS(t, moduleFiles)
	sub, err := fsys.Sub("js")
	if err != nil {
		t.Fatal(err)
	}
	js := sub.(*bakefs.FS)
	tests := []struct {
		name        string
		fsys        *bakefs.FS
		file        string
		preloads    []string
		preloadsErr []string // what the error names; nil for none
		cssErr      []string
	}{
		{name: "hidden entry", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrPermission, "js/app.js")}), file: "js/app.js",
			preloadsErr: []string{`"js/app.js"`}, cssErr: []string{`"js/app.js"`}},
		{name: "hidden chunk", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "js/chunk-c.js")}), file: "js/app.js",
			preloadsErr: []string{"js/app.js imports js/chunk-c.js"}, cssErr: []string{"js/app.js imports js/chunk-c.js"}},
		{name: "hidden style sheet", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrPermission, "css/chunk.css")}), file: "js/app.js",
			preloads: []string{"js/chunk-b.js", "js/chunk d.js", "js/chunk-c.js"}, cssErr: []string{"js/chunk-c.js needs css/chunk.css"}},
		{name: "hidden directory", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "css")}), file: "js/chunk d.js",
			preloads: []string{"js/app.js", "js/chunk-b.js", "js/chunk-c.js"}, cssErr: []string{"js/app.js needs css/app.css"}},
		{name: "sub", fsys: js, file: "app.js",
			preloads: []string{"chunk-b.js", "chunk d.js", "chunk-c.js"}, cssErr: []string{"js/app.js needs css/app.css"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preloads, err := tt.fsys.ModulePreloads(tt.file)
			if tt.preloadsErr != nil {
				wantErr(t, err, iofs.ErrNotExist, tt.preloadsErr...)
			} else if err != nil || !slices.Equal(preloads, tt.preloads) {
				t.Errorf("ModulePreloads = %q, %v; want %q", preloads, err, tt.preloads)
			}
			_, err = tt.fsys.ModuleCSS(tt.file)
			wantErr(t, err, iofs.ErrNotExist, tt.cssErr...)
			_, err = tt.fsys.PreloadLinkHeader("/", tt.file)
			wantErr(t, err, iofs.ErrNotExist, tt.cssErr...)
		})
	}
}

func TestPreloadLinkHeader(t *testing.T) {
	fsys, m := newTreeFS(t, moduleFiles)
	preload := func(prefix string, paths ...string) string {
		var links []string
		for _, p := range paths {
			if strings.HasSuffix(p, ".css") {
				links = append(links, "<"+urlOf(t, m, prefix, p)+">; rel=preload; as=style")
			} else {
				links = append(links, "<"+urlOf(t, m, prefix, p)+">; rel=modulepreload")
			}
		}
		return strings.Join(links, ", ")
	}
	tests := []struct {
		name, prefix, file, want string
		err                      error
	}{
		{name: "entry point", prefix: "/static/", file: "js/app.js",
			want: preload("/static/", "js/app.js", "js/chunk-b.js", "js/chunk d.js", "js/chunk-c.js", "css/app.css", "css/a&b.css", "css/chunk.css")},
		{name: "cdn", prefix: "https://cdn.example.com/v1/", file: "js/chunk-b.js",
			want: preload("https://cdn.example.com/v1/", "js/chunk-b.js", "js/chunk d.js", "js/app.js", "js/chunk-c.js", "css/a&b.css", "css/app.css", "css/chunk.css")},
		{name: "leaf", prefix: "/", file: "js/later.js", want: preload("/", "js/later.js")},
		{name: "unknown", prefix: "/", file: "js/nope.js", err: iofs.ErrNotExist},
		{name: "not JavaScript", prefix: "/", file: "css/app.css", err: bakefs.ErrNotModule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fsys.PreloadLinkHeader(tt.prefix, tt.file)
			if tt.err != nil {
				wantErr(t, err, tt.err, `PreloadLinkHeader "`+tt.file+`"`)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	// The literal form, once, to pin the format itself.
	got, _ := fsys.PreloadLinkHeader("/s/", "js/later.js")
	if want := "</s/" + entryOf(t, m, "js/later.js").Hashed + ">; rel=modulepreload"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestPreloadLinkHeaderEarlyHints sends the header in a 103 response, as
// PreloadLinkHeader documents, and checks that a client receives it
// before the page.
func TestPreloadLinkHeaderEarlyHints(t *testing.T) {
	fsys, _ := newTreeFS(t, moduleFiles)
	link, err := fsys.PreloadLinkHeader("/static/", "js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", link)
		w.WriteHeader(http.StatusEarlyHints)
		io.WriteString(w, "<!doctype html>")
	}))
	defer srv.Close()
	var hints []string
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		if code == http.StatusEarlyHints {
			hints = append(hints, h.Values("Link")...)
		}
		return nil
	}}
	req, _ := http.NewRequest("GET", srv.URL, nil)
	resp, err := http.DefaultClient.Do(req.WithContext(httptrace.WithClientTrace(req.Context(), trace)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !slices.Equal(hints, []string{link}) {
		t.Errorf("status %d, 103 Link %q; want 200 after %q", resp.StatusCode, hints, link)
	}
}

func TestModuleFSConformance(t *testing.T) {
	fsys, _ := newTreeFS(t, moduleFiles)
	var names []string
	for _, f := range moduleFiles {
		names = append(names, f.path)
	}
	if err := fstest.TestFS(fsys, names...); err != nil {
		t.Fatal(err)
	}
}

// exampleModuleFiles is a bundle with code splitting: an entry point that
// imports a shared chunk and needs a style sheet.
var exampleModuleFiles = []treeFile{
	{path: "css/app.css", typ: typeCSS, data: "main{}", hashed: true},
	{path: "js/app.js", typ: typeJS, data: "import './chunk.js'", hashed: true,
		imports: []string{"js/chunk.js"}, css: []string{"css/app.css"}},
	{path: "js/chunk.js", typ: typeJS, data: "export {}", hashed: true},
}

func ExampleFS_ModulePreloads() {
	tree, manifest := buildTree(exampleModuleFiles)
	fsys, err := bakefs.New(tree, manifest)
	if err != nil {
		log.Fatal(err)
	}
	preloads, _ := fsys.ModulePreloads("js/app.js")
	css, _ := fsys.ModuleCSS("js/app.js")
	fmt.Println(preloads, css)
	// Output:
	// [js/chunk.js] [css/app.css]
}

func ExampleFS_PreloadLinkHeader() {
	tree, manifest := buildTree(exampleModuleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	link, err := fsys.PreloadLinkHeader("/static/", "js/app.js")
	if err != nil {
		log.Fatal(err)
	}
	// A handler sends it as early hints, before it makes the page:
	//
	//	w.Header().Add("Link", link)
	//	w.WriteHeader(http.StatusEarlyHints)
	for _, l := range strings.Split(link, ", ") {
		fmt.Println(l)
	}
	// Output:
	// </static/js/app.9d0c63e826.js>; rel=modulepreload
	// </static/js/chunk.f4c5cf9bb7.js>; rel=modulepreload
	// </static/css/app.607c763155.css>; rel=preload; as=style
}
