package fs_test

import (
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	iofs "io/fs"
	"log"
	"os"
	"strings"
	"testing"
)

// pictureFiles is a tree with a photo in three formats and two widths, an
// icon in WebP only and a banner in PNG and AVIF.
var pictureFiles = []treeFile{
	{path: "img/photo-400w.avif", source: "img/photo.jpg", typ: "image/avif", data: "avif 400", hashed: true, width: 400},
	{path: "img/photo-400w.jpg", source: "img/photo.jpg", typ: typeJPEG, data: "jpeg 400", hashed: true, width: 400},
	{path: "img/photo-400w.webp", source: "img/photo.jpg", typ: "image/webp", data: "webp 400", hashed: true, width: 400},
	{path: "img/photo-800w.avif", source: "img/photo.jpg", typ: "image/avif", data: "avif 800", hashed: true, width: 800},
	{path: "img/photo-800w.jpg", source: "img/photo.jpg", typ: typeJPEG, data: "jpeg 800", hashed: true, width: 800},
	{path: "img/photo-800w.webp", source: "img/photo.jpg", typ: "image/webp", data: "webp 800", hashed: true, width: 800},
	{path: "img/icon-64w.webp", source: "img/icon.webp", typ: "image/webp", data: "webp 64", width: 64},
	{path: "img/banner-300w.avif", source: "img/banner.png", typ: "image/avif", data: "avif 300", width: 300},
	{path: "img/banner-300w.png", source: "img/banner.png", typ: "image/png", data: "png 300", width: 300},
	{path: "img/a&b-10w.jpg", source: "img/a&b.jpg", typ: typeJPEG, data: "a&b", width: 10},
}

func newPictureFS(t testing.TB) (*bakefs.FS, *bakefs.Manifest) {
	t.Helper()
	return newTreeFS(t, pictureFiles)
}

func TestPicture(t *testing.T) {
	fsys, m := newPictureFS(t)
	u := func(p string) string { return "/s/" + entryOf(t, m, p).Hashed }
	avif := u("img/photo-400w.avif") + " 400w, " + u("img/photo-800w.avif") + " 800w"
	webp := u("img/photo-400w.webp") + " 400w, " + u("img/photo-800w.webp") + " 800w"
	jpeg := u("img/photo-400w.jpg") + " 400w, " + u("img/photo-800w.jpg") + " 800w"
	tests := []struct {
		name, tmpl, want, err string
	}{
		{name: "defaults", tmpl: `{{picture "img/photo.jpg" "A lake"}}`,
			want: `<picture><source type="image/avif" srcset="` + avif + `" sizes="100vw">` +
				`<source type="image/webp" srcset="` + webp + `" sizes="100vw">` +
				`<img src="` + u("img/photo-800w.jpg") + `" srcset="` + jpeg + `" sizes="100vw" width="800" height="400" alt="A lake" loading="lazy" decoding="async"></picture>`},
		{name: "options", tmpl: `{{picture "img/photo.jpg" "" "sizes=(min-width: 40em) 50vw, 100vw" "loading=eager" "decoding=sync" "fetchpriority=high" "class=hero wide" "id=top"}}`,
			want: `<picture class="hero wide" id="top"><source type="image/avif" srcset="` + avif + `" sizes="(min-width: 40em) 50vw, 100vw">` +
				`<source type="image/webp" srcset="` + webp + `" sizes="(min-width: 40em) 50vw, 100vw">` +
				`<img src="` + u("img/photo-800w.jpg") + `" srcset="` + jpeg + `" sizes="(min-width: 40em) 50vw, 100vw" width="800" height="400" alt="" loading="eager" decoding="sync" fetchpriority="high"></picture>`},
		{name: "escaped", tmpl: `{{picture "img/a&b.jpg" "Tom \"&\" <Jerry>" "class=x\"y"}}`,
			want: `<picture class="x&#34;y"><img src="/s/img/a&amp;b-10w.jpg" srcset="/s/img/a&amp;b-10w.jpg 10w" sizes="100vw" width="10" height="5" alt="Tom &#34;&amp;&#34; &lt;Jerry&gt;" loading="lazy" decoding="async"></picture>`},
		{name: "webp only", tmpl: `{{picture "img/icon.webp" "Icon"}}`,
			want: `<picture><img src="/s/img/icon-64w.webp" srcset="/s/img/icon-64w.webp 64w" sizes="100vw" width="64" height="32" alt="Icon" loading="lazy" decoding="async"></picture>`},
		{name: "png fallback", tmpl: `{{picture "img/banner.png" "Banner"}}`,
			want: `<picture><source type="image/avif" srcset="/s/img/banner-300w.avif 300w" sizes="100vw"><img src="/s/img/banner-300w.png" srcset="/s/img/banner-300w.png 300w" sizes="100vw" width="300" height="150" alt="Banner" loading="lazy" decoding="async"></picture>`},
		{name: "srcset is the fallback", tmpl: `{{srcset "img/photo.jpg"}}`, want: jpeg},
		{name: "srcset of a type", tmpl: `{{srcset "img/photo.jpg" "image/avif"}}`, want: avif},
		{name: "srcset of the only type", tmpl: `{{srcset "img/icon.webp"}}`, want: "/s/img/icon-64w.webp 64w"},
		{name: "srcset of a missing type", tmpl: `{{srcset "img/icon.webp" "image/avif"}}`, err: `no image of type image/avif (it has image/webp)`},
		{name: "unknown image", tmpl: `{{picture "img/nope.jpg" "x"}}`, err: `picture "img/nope.jpg": no image`},
		{name: "variant is not a source", tmpl: `{{picture "img/photo-400w.jpg" "x"}}`, err: `picture "img/photo-400w.jpg"`},
		{name: "unknown option", tmpl: `{{picture "img/photo.jpg" "x" "style=a"}}`, err: `unknown option "style"`},
		{name: "not key=value", tmpl: `{{picture "img/photo.jpg" "x" "eager"}}`, err: `option "eager" is not key=value`},
		{name: "bad value", tmpl: `{{picture "img/photo.jpg" "x" "loading=soon"}}`, err: `loading="soon" is not one of lazy, eager`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := template.Must(template.New("t").Funcs(fsys.FuncMap("/s/")).Parse(tt.tmpl))
			var b strings.Builder
			err := tmpl.Execute(&b, nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Execute: %v, want an error containing %s", err, tt.err)
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

// TestPictureHidden checks that picture and srcset leave out the files
// that Hooks.Allow hides, and fail when it hides them all.
func TestPictureHidden(t *testing.T) {
	fsys, m := newPictureFS(t)
	noAVIF := fsys.With(bakefs.Hooks{Allow: func(name string) error {
		if strings.HasSuffix(name, ".avif") {
			return iofs.ErrPermission
		}
		return nil
	}})
	var b strings.Builder
	tmpl := template.Must(template.New("t").Funcs(noAVIF.FuncMap("/")).Parse(`{{picture "img/photo.jpg" "x"}}`))
	if err := tmpl.Execute(&b, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "avif") || !strings.Contains(b.String(), entryOf(t, m, "img/photo-800w.webp").Hashed) {
		t.Errorf("got %s, want the WebP and JPEG files only", b.String())
	}
	tmpl = template.Must(template.New("t").Funcs(noAVIF.FuncMap("/")).Parse(`{{srcset "img/photo.jpg" "image/avif"}}`))
	if err := tmpl.Execute(&b, nil); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("srcset of hidden files: %v, want ErrNotExist", err)
	}
}

func ExampleFS_FuncMap_picture() {
	tree, manifest := buildTree([]treeFile{
		{path: "img/lake-480w.avif", source: "img/lake.jpg", typ: "image/avif", data: "a", width: 480},
		{path: "img/lake-480w.jpg", source: "img/lake.jpg", typ: "image/jpeg", data: "j", width: 480},
		{path: "img/lake-960w.avif", source: "img/lake.jpg", typ: "image/avif", data: "A", width: 960},
		{path: "img/lake-960w.jpg", source: "img/lake.jpg", typ: "image/jpeg", data: "J", width: 960},
	})
	fsys, err := bakefs.New(tree, manifest)
	if err != nil {
		log.Fatal(err)
	}
	page := template.Must(template.New("page").Funcs(fsys.FuncMap("/static/")).Parse(
		`{{picture "img/lake.jpg" "A lake" "sizes=(min-width: 60rem) 50vw, 100vw"}}`))
	if err := page.Execute(os.Stdout, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	// Output:
	// <picture><source type="image/avif" srcset="/static/img/lake-480w.avif 480w, /static/img/lake-960w.avif 960w" sizes="(min-width: 60rem) 50vw, 100vw"><img src="/static/img/lake-960w.jpg" srcset="/static/img/lake-480w.jpg 480w, /static/img/lake-960w.jpg 960w" sizes="(min-width: 60rem) 50vw, 100vw" width="960" height="480" alt="A lake" loading="lazy" decoding="async"></picture>
}
