package fs

import (
	"fmt"
	"html/template"
	iofs "io/fs"
	"net/url"
)

// FuncMap returns html/template functions over the files of f, for URLs
// served under prefix, which is prepended as is ("/static/", or the base URL
// of a CDN):
//
//	asset "js/app.js"      →  /static/js/app.3f2a1b9c0d.js
//	integrity "js/app.js"  →  sha384-…
//	srcset "img/hero.jpg"  →  /static/img/hero-400w.<h>.jpg 400w, /static/img/hero-800w.<h>.jpg 800w
//	srcset "img/hero.jpg" "image/webp"  →  /static/img/hero-400w.<h>.webp 400w, …
//	picture "img/hero.jpg" "A hero" "sizes=(min-width: 60rem) 50vw, 100vw"  →  <picture>…</picture>
//
// asset gives the hashed name (see Path) with its path escaped for a URL.
// integrity gives the Subresource Integrity value for the integrity
// attribute of script and link (html/template writes its "+" as "&#43;",
// which browsers read back).
//
// The images made from a source name are the entries whose Source is that
// name and whose Width is set (the srcset step writes one per width and
// format); their Type is their format. srcset lists those of one format,
// by increasing width, each as its hashed URL and width descriptor: the
// format given as a media type by its optional second argument, else the
// fallback format, the first of JPEG, PNG, GIF, WebP and AVIF that the
// image has.
//
// picture takes the source name, the alt text (required; "" for a
// decorative image) and options written key=value, and writes a <picture>
// element: one <source type=… srcset=… sizes=…> per format other than the
// fallback, AVIF first, then WebP, then others by media type; then an
// <img> in the fallback format with src (its widest file), srcset, sizes,
// width and height (of the widest file, so that the browser reserves the
// box before loading: no layout shift once CSS gives the image
// "height: auto"), alt, loading and decoding. Its options are
//
//	sizes=…          the sizes attribute of every element; default 100vw
//	loading=…        lazy (default) or eager, for an image in the first screen
//	decoding=…       async (default), sync or auto
//	fetchpriority=…  high, low or auto; default none
//	class=…, id=…    attributes of the <picture> element
//
// so that, for instance,
//
//	{{picture "img/lake.jpg" "A lake" "sizes=(min-width: 68rem) 60rem, 100vw" "loading=eager"}}
//
// gives, on one line,
//
//	<picture><source type="image/avif" srcset="/static/img/lake-480w.<h>.avif 480w, …" sizes="(min-width: 68rem) 60rem, 100vw">
//	<source type="image/webp" srcset="…" sizes="…"><img src="/static/img/lake-960w.<h>.jpg"
//	srcset="/static/img/lake-480w.<h>.jpg 480w, …" sizes="…" width="960" height="640" alt="A lake"
//	loading="eager" decoding="async"></picture>
//
// Attribute values are HTML-escaped; the result is template.HTML.
//
// Names are relative to f, as for Open. A name that is not a file of f
// (for srcset and picture: the source of no image), that Hooks.Allow
// hides, a type the image does not have, or an unknown or malformed
// option, makes template execution fail with an error naming it, rather
// than rendering an empty string or a broken element.
//
// Use the prefix given to WithPrefix when f.Handler serves the files.
func (f *FS) FuncMap(prefix string) template.FuncMap {
	return template.FuncMap{
		"asset": func(name string) (string, error) {
			if _, ok := f.entry(name); !ok {
				return "", fmt.Errorf("bakefs: asset %q: %w", name, iofs.ErrNotExist)
			}
			return prefix + escapePath(f.Path(name)), nil
		},
		"integrity": func(name string) (string, error) {
			e, ok := f.entry(name)
			if !ok {
				return "", fmt.Errorf("bakefs: integrity %q: %w", name, iofs.ErrNotExist)
			}
			return e.Integrity, nil
		},
		"srcset": func(name string, typ ...string) (string, error) {
			return f.srcset(prefix, name, typ...)
		},
		"picture": func(name, alt string, opts ...string) (template.HTML, error) {
			return f.picture(prefix, name, alt, opts...)
		},
	}
}

// escapePath escapes a slash-separated path for use in a URL.
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
