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
//	module "js/app.js"           →  <link rel="stylesheet" …><link rel="modulepreload" …><script type="module" …></script>
//	modulepreload "js/chunk.js"  →  <link rel="modulepreload" href="/static/js/chunk.<h>.js" integrity="sha384-…">
//	importmap "js/app.js"        →  <script type="importmap">{"integrity":{"/static/js/app.<h>.js":"sha384-…",…}}</script>
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
// module, modulepreload and importmap take a JavaScript file, usually an
// entry point of a bundle with code splitting, and write elements for its
// module graph (see ModulePreloads and ModuleCSS), each with a hashed URL
// and an integrity attribute, on one line. module writes a stylesheet link
// for each style sheet of ModuleCSS, a modulepreload link for each chunk
// of ModulePreloads, so that the browser fetches them at once rather than
// as it discovers the imports, then the module script:
//
//	{{module "js/app.js"}}
//
// gives, on one line,
//
//	<link rel="stylesheet" href="/static/css/app.<h>.css" integrity="sha384-…"><link rel="modulepreload"
//	href="/static/js/chunk-5XJ3KQ2M.js" integrity="sha384-…"><script type="module"
//	src="/static/js/app.<h>.js" integrity="sha384-…"></script>
//
// modulepreload writes the link of one file, for a chunk that a page
// will need without importing it at once. A browser checks the integrity
// of a chunk that a module loads with import() only by the "integrity" key
// of an import map (Chromium 127 and later; a browser without it ignores
// the key): importmap writes one, giving the integrity of each file named
// and of every chunk it reaches through imports and dynamic imports, by
// hashed URL (keys sorted). It takes several names, for a page that runs
// several modules: a page has one import map (a browser that does not
// merge them takes the first), which must come before the first module
// script or modulepreload link of the page, as in
//
//	<head>{{importmap "js/app.js"}}{{module "js/app.js"}}
//
// An import map is an inline script: under a Content-Security-Policy
// without 'unsafe-inline', add ImportMapHash to its script-src.
//
// PreloadLinkHeader announces the files of module in a Link header.
//
// These elements have no crossorigin attribute, which a style sheet of
// another origin needs for its integrity to be checked: under the prefix
// of a CDN, write its link with asset and integrity.
//
// Names are relative to f, as for Open. A name that is not a file of f
// (for srcset and picture: the source of no image), that Hooks.Allow
// hides, a type the image does not have, or an unknown or malformed
// option, makes template execution fail with an error naming it, rather
// than rendering an empty string or a broken element; so does, for
// module, modulepreload and importmap, a file that is not JavaScript
// (ErrNotModule) or a chunk or style sheet of its graph that is not a
// file of f.
//
// Use the prefix given to WithPrefix when f.Handler serves the files.
func (f *FS) FuncMap(prefix string) template.FuncMap {
	return template.FuncMap{
		"asset": func(name string) (string, error) {
			if _, ok := f.entry(name); !ok {
				return "", fmt.Errorf("bakefs: asset %q: %w", name, iofs.ErrNotExist)
			}
			return f.url(prefix, name), nil
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
		"module": func(name string) (template.HTML, error) {
			return f.moduleScript(prefix, name)
		},
		"modulepreload": func(name string) (template.HTML, error) {
			return f.modulePreload(prefix, name)
		},
		"importmap": func(name string, more ...string) (template.HTML, error) {
			return f.importMap(prefix, append([]string{name}, more...))
		},
	}
}

// url returns the URL of the file name of f served under prefix: its
// hashed name (see Path), path-escaped.
func (f *FS) url(prefix, name string) string {
	return prefix + escapePath(f.Path(name))
}

// escapePath escapes a slash-separated path for use in a URL.
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
