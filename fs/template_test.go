package fs_test

import (
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	iofs "io/fs"
	"strings"
	"testing"
)

func TestFuncMap(t *testing.T) {
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	h400 := entryOf(t, m, "img/hero-400w.jpg").Hashed
	h800 := entryOf(t, m, "img/hero-800w.jpg").Hashed
	tests := []struct {
		name, prefix, tmpl, want, err string
	}{
		{name: "asset", prefix: "/static/", tmpl: `<script src="{{asset "js/app.js"}}"></script>`,
			want: `<script src="/static/` + app.Hashed + `"></script>`},
		{name: "asset not hashed", prefix: "/static/", tmpl: `{{asset "robots.txt"}}`, want: "/static/robots.txt"},
		{name: "asset by hashed name", prefix: "/", tmpl: `{{asset "` + app.Hashed + `"}}`, want: "/" + app.Hashed},
		{name: "asset cdn", prefix: "https://cdn.example.com/v1/", tmpl: `<a href="{{asset "js/app.js"}}">`,
			want: `<a href="https://cdn.example.com/v1/` + app.Hashed + `">`},
		{name: "integrity", prefix: "/", tmpl: `<script integrity="{{integrity "js/app.js"}}"></script>`,
			want: `<script integrity="` + attr(app.Integrity) + `"></script>`},
		{name: "integrity text", prefix: "/", tmpl: `{{integrity "js/app.js"}}`, want: attr(app.Integrity)},
		{name: "srcset", prefix: "/static/", tmpl: `<img srcset="{{srcset "img/hero.jpg"}}">`,
			want: `<img srcset="/static/` + h400 + ` 400w, /static/` + h800 + ` 800w">`},
		{name: "unknown asset", prefix: "/", tmpl: `{{asset "js/nope.js"}}`, err: `asset "js/nope.js"`},
		{name: "invalid asset", prefix: "/", tmpl: `{{asset "../x"}}`, err: `asset "../x"`},
		{name: "variant is not an asset", prefix: "/", tmpl: `{{asset "js/app.js.br"}}`, err: `asset "js/app.js.br"`},
		{name: "unknown integrity", prefix: "/", tmpl: `{{integrity "x.js"}}`, err: `integrity "x.js"`},
		{name: "srcset of a non-source", prefix: "/", tmpl: `{{srcset "img/hero-400w.jpg"}}`, err: `srcset "img/hero-400w.jpg"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := template.Must(template.New("t").Funcs(fsys.FuncMap(tt.prefix)).Parse(tt.tmpl))
			var b strings.Builder
			err := tmpl.Execute(&b, nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, iofs.ErrNotExist) {
					t.Fatalf("Execute: %v, want an error naming %s", err, tt.err)
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

func TestFuncMapSub(t *testing.T) {
	fsys, _, m := newTestFS(t)
	sub, _ := fsys.Sub("img")
	img := sub.(*bakefs.FS)
	tmpl := template.Must(template.New("t").Funcs(img.FuncMap("/img/")).Parse(`{{srcset "hero.jpg"}}|{{asset "logo.svg"}}`))
	var b strings.Builder
	if err := tmpl.Execute(&b, nil); err != nil {
		t.Fatal(err)
	}
	rel := func(p string) string { return strings.TrimPrefix(entryOf(t, m, p).Hashed, "img/") }
	want := "/img/" + rel("img/hero-400w.jpg") + " 400w, /img/" + rel("img/hero-800w.jpg") + " 800w|/img/" + rel("img/logo.svg")
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

func TestParseFS(t *testing.T) {
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	tmpl, err := template.New("").Funcs(fsys.FuncMap("/static/")).ParseFS(fsys, "templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tmpl.ExecuteTemplate(&b, "page.html", nil); err != nil {
		t.Fatal(err)
	}
	want := `<script src="/static/` + app.Hashed + `" integrity="` + attr(app.Integrity) + `"></script>`
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

// attr is s as html/template writes it: "+" of base64 as "&#43;", which
// browsers read back as "+".
func attr(s string) string { return strings.ReplaceAll(s, "+", "&#43;") }
