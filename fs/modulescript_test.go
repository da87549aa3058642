package fs_test

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	iofs "io/fs"
	"log"
	"os"
	"strings"
	"testing"
)

// TestImportMapHash: the hash is that of the text between the tags that
// importmap writes, as a Content-Security-Policy hash source.
func TestImportMapHash(t *testing.T) {
	fsys, _ := newTreeFS(t, moduleFiles)
	var b strings.Builder
	if err := template.Must(template.New("").Funcs(fsys.FuncMap("/static/")).Parse(`{{importmap "js/app.js" "js/later.js"}}`)).Execute(&b, nil); err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(strings.TrimPrefix(b.String(), `<script type="importmap">`), "</script>")
	sum := sha256.Sum256([]byte(text))
	want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if got, err := fsys.ImportMapHash("/static/", "js/app.js", "js/later.js"); err != nil || got != want {
		t.Errorf("ImportMapHash = %q, %v; want %q for %s", got, err, want, text)
	}
	if _, err := fsys.ImportMapHash("/static/", "css/app.css"); !errors.Is(err, bakefs.ErrNotModule) {
		t.Errorf("ImportMapHash of a style sheet: %v, want ErrNotModule", err)
	}
}

func TestFuncMapModules(t *testing.T) {
	fsys, m := newTreeFS(t, moduleFiles)
	// tag writes the element that module gives the file path under prefix:
	// its URL HTML-escaped; its integrity, which is base64, as it is.
	tag := func(prefix, start, path string) string {
		return start + `="` + strings.ReplaceAll(urlOf(t, m, prefix, path), "&", "&amp;") + `" integrity="` + entryOf(t, m, path).Integrity + `">`
	}
	css := func(p string) string { return tag("/static/", `<link rel="stylesheet" href`, p) }
	pre := func(p string) string { return tag("/static/", `<link rel="modulepreload" href`, p) }
	script := func(p string) string { return tag("/static/", `<script type="module" src`, p) + "</script>" }
	// importMap writes the import map of the files paths, given sorted by URL.
	importMap := func(prefix string, paths ...string) string {
		var keys []string
		for _, p := range paths {
			keys = append(keys, `"`+strings.ReplaceAll(urlOf(t, m, prefix, p), "&", `\u0026`)+`":"`+entryOf(t, m, p).Integrity+`"`)
		}
		return `<script type="importmap">{"integrity":{` + strings.Join(keys, ",") + `}}</script>`
	}
	sub, _ := fsys.Sub("js")
	tests := []struct {
		name   string
		fsys   *bakefs.FS
		prefix string
		tmpl   string
		want   string
		err    error  // wrapped by the error of Execute
		names  string // named by that error
	}{
		{name: "module", tmpl: `{{module "js/app.js"}}`,
			want: css("css/app.css") + css("css/a&b.css") + css("css/chunk.css") +
				pre("js/chunk-b.js") + pre("js/chunk d.js") + pre("js/chunk-c.js") + script("js/app.js")},
		{name: "module without imports", tmpl: `{{module "js/later.js"}}`, want: script("js/later.js")},
		{name: "module by hashed name", tmpl: `{{module "` + entryOf(t, m, "js/lazy-dep.js").Hashed + `"}}`, want: script("js/lazy-dep.js")},
		{name: "module cdn", prefix: "https://cdn.example.com/", tmpl: `{{module "js/later.js"}}`,
			want: tag("https://cdn.example.com/", `<script type="module" src`, "js/later.js") + "</script>"},
		{name: "modulepreload", tmpl: `{{modulepreload "js/chunk-b.js"}}`, want: pre("js/chunk-b.js")},
		{name: "modulepreload not hashed", tmpl: `{{modulepreload "js/chunk d.js"}}`,
			want: `<link rel="modulepreload" href="/static/js/chunk%20d.js" integrity="` + entryOf(t, m, "js/chunk d.js").Integrity + `">`},
		{name: "modulepreload in a sub", fsys: sub.(*bakefs.FS), prefix: "/js/", tmpl: `{{modulepreload "lazy.js"}}`,
			want: tag("/", `<link rel="modulepreload" href`, "js/lazy.js")},
		{name: "importmap", tmpl: `{{importmap "js/app.js"}}`,
			want: importMap("/static/", "js/app.js", "js/chunk d.js", "js/chunk-b.js", "js/chunk-c.js", "js/later.js", "js/lazy-dep.js", "js/lazy.js")},
		{name: "importmap of several", tmpl: `{{importmap "js/later.js" "js/lazy-dep.js"}}`,
			want: importMap("/static/", "js/later.js", "js/lazy-dep.js")},
		{name: "importmap escapes", prefix: "/a&b/", tmpl: `{{importmap "js/later.js"}}`, want: importMap("/a&b/", "js/later.js")},
		{name: "importmap before module", tmpl: `<head>{{importmap "js/later.js"}}{{module "js/later.js"}}`,
			want: "<head>" + importMap("/static/", "js/later.js") + script("js/later.js")},
		{name: "module of CSS", tmpl: `{{module "css/app.css"}}`, err: bakefs.ErrNotModule, names: `module "css/app.css"`},
		{name: "module unknown", tmpl: `{{module "js/nope.js"}}`, err: iofs.ErrNotExist, names: `module "js/nope.js"`},
		{name: "modulepreload of text", tmpl: `{{modulepreload "robots.txt"}}`, err: bakefs.ErrNotModule, names: `modulepreload "robots.txt"`},
		{name: "modulepreload unknown", tmpl: `{{modulepreload "js/nope.js"}}`, err: iofs.ErrNotExist, names: `modulepreload "js/nope.js"`},
		{name: "importmap unknown", tmpl: `{{importmap "js/app.js" "js/nope.js"}}`, err: iofs.ErrNotExist, names: `importmap "js/nope.js"`},
		{name: "importmap of CSS", tmpl: `{{importmap "css/app.css"}}`, err: bakefs.ErrNotModule, names: `importmap "css/app.css"`},
		{name: "module with a hidden chunk", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "js/chunk-c.js")}),
			tmpl: `{{module "js/app.js"}}`, err: iofs.ErrNotExist, names: "js/app.js imports js/chunk-c.js"},
		{name: "importmap with a hidden lazy chunk", fsys: fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "js/later.js")}),
			tmpl: `{{importmap "js/app.js"}}`, err: iofs.ErrNotExist, names: "js/lazy.js imports js/later.js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, prefix := tt.fsys, tt.prefix
			if f == nil {
				f = fsys
			}
			if prefix == "" {
				prefix = "/static/"
			}
			tmpl := template.Must(template.New("t").Funcs(f.FuncMap(prefix)).Parse(tt.tmpl))
			var b strings.Builder
			err := tmpl.Execute(&b, nil)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.names) {
					t.Fatalf("Execute: %v, want %v naming %s", err, tt.err, tt.names)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got  %s\nwant %s", b.String(), tt.want)
			}
		})
	}
}

func ExampleFS_FuncMap_module() {
	tree, manifest := buildTree(exampleModuleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	page := template.Must(template.New("page").Funcs(fsys.FuncMap("/static/")).Parse(
		`<head>{{importmap "js/app.js"}}{{module "js/app.js"}}` + "\n"))
	if err := page.Execute(os.Stdout, nil); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <head><script type="importmap">{"integrity":{"/static/js/app.9d0c63e826.js":"sha384-4O85JyzXaynDmt3JfAqxIkjN79b/AveZ9iccd0RLUmNpfbNbG0BCLcEiQSkJ6QqL","/static/js/chunk.f4c5cf9bb7.js":"sha384-VVxCXcxpOv0nZ/0YpxpNmvOMf1L1Hb6UQplg7as60Q+OX5995JTMkCby7S/OIk9s"}}</script><link rel="stylesheet" href="/static/css/app.607c763155.css" integrity="sha384-f6rFaaYq5bnqAVX8/DDjvNYi91qE/cXHFkwPhh3VHXDAIL51PteN6tndD8kYDQKu"><link rel="modulepreload" href="/static/js/chunk.f4c5cf9bb7.js" integrity="sha384-VVxCXcxpOv0nZ/0YpxpNmvOMf1L1Hb6UQplg7as60Q+OX5995JTMkCby7S/OIk9s"><script type="module" src="/static/js/app.9d0c63e826.js" integrity="sha384-4O85JyzXaynDmt3JfAqxIkjN79b/AveZ9iccd0RLUmNpfbNbG0BCLcEiQSkJ6QqL"></script>
}
