package fs

import (
	"fmt"
	"html/template"
	iofs "io/fs"
	"net/url"
	"strconv"
	"strings"
)

// FuncMap returns html/template functions over the files of f, for URLs
// served under prefix, which is prepended as is ("/static/", or the base URL
// of a CDN):
//
//	asset "js/app.js"      →  /static/js/app.3f2a1b9c0d.js
//	integrity "js/app.js"  →  sha384-…
//	srcset "img/hero.jpg"  →  /static/img/hero-400w.<h>.jpg 400w, /static/img/hero-800w.<h>.jpg 800w
//
// asset gives the hashed name (see Path) with its path escaped for a URL.
// integrity gives the Subresource Integrity value for the integrity
// attribute of script and link (html/template writes its "+" as "&#43;",
// which browsers read back). srcset lists the images made from the source
// name (entries whose Source is name and whose Width is set), by increasing
// width, each as its hashed URL and width descriptor.
//
// Names are relative to f, as for Open. A name that is not a file of f
// (for srcset: the source of no image), or that Hooks.Allow hides, makes
// template execution fail with an error naming it, rather than rendering
// an empty string.
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
		"srcset": func(name string) (string, error) {
			var b strings.Builder
			if iofs.ValidPath(name) {
				for _, n := range f.t.images[f.full(name)] {
					rel, ok := f.rel(n.entry.Path)
					if !ok || f.h != nil && f.visible(n.entry.Path) != nil {
						continue
					}
					if b.Len() > 0 {
						b.WriteString(", ")
					}
					b.WriteString(prefix)
					b.WriteString(strings.ReplaceAll(escapePath(f.Path(rel)), ",", "%2C"))
					b.WriteByte(' ')
					b.WriteString(strconv.Itoa(n.entry.Width))
					b.WriteByte('w')
				}
			}
			if b.Len() == 0 {
				return "", fmt.Errorf("bakefs: srcset %q: no image with this source and a width: %w", name, iofs.ErrNotExist)
			}
			return b.String(), nil
		},
	}
}

// escapePath escapes a slash-separated path for use in a URL.
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
