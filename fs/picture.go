package fs

import (
	"fmt"
	"html/template"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"
)

// The variants of a logical image are the manifest entries whose Source is
// the image's name and whose Width is set (the srcset step writes one per
// width and format); their Type says the format. A browser takes the first
// <source> of a <picture> whose type it supports, else the <img>, so the
// formats are offered from the most to the least efficient, and the <img>
// carries the format that every browser reads.

// sourceOrder is the order of the <source> elements of a picture by
// format; a format not listed comes after, by media type.
var sourceOrder = []string{"image/avif", "image/webp", "image/jpeg", "image/png", "image/gif"}

// fallbackOrder is the preference for the format of the <img> element
// (and of srcset without a type): the first of these that the image has.
var fallbackOrder = []string{"image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"}

// An imageSet is the visible variants of one logical image, by format.
type imageSet struct {
	types    []string           // media types without parameters, <source> order
	byType   map[string][]*node // each by increasing width, then path
	fallback string             // the type of the <img>
}

// images returns the visible variants of the logical image name (relative
// to f), or ok false when it has none.
func (f *FS) images(name string) (s imageSet, ok bool) {
	if !iofs.ValidPath(name) {
		return s, false
	}
	s.byType = make(map[string][]*node)
	for _, n := range f.tree().images[f.full(name)] {
		if _, in := f.rel(n.entry.Path); !in || f.h != nil && f.visible(n.entry.Path) != nil {
			continue
		}
		t := mediaType(n.entry.Type)
		if _, seen := s.byType[t]; !seen {
			s.types = append(s.types, t)
		}
		s.byType[t] = append(s.byType[t], n)
	}
	if len(s.types) == 0 {
		return s, false
	}
	rank := func(order []string, t string) int {
		if i := slices.Index(order, t); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(s.types, func(a, b string) int {
		if ra, rb := rank(sourceOrder, a), rank(sourceOrder, b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	s.fallback = slices.MinFunc(s.types, func(a, b string) int {
		if ra, rb := rank(fallbackOrder, a), rank(fallbackOrder, b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return s, true
}

// mediaType returns t without its parameters, in lower case.
func mediaType(t string) string {
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return strings.ToLower(strings.TrimSpace(t))
}

// srcsetOf formats nodes as the value of a srcset attribute: each hashed
// URL under prefix with its width descriptor, commas in URLs escaped.
func (f *FS) srcsetOf(prefix string, nodes []*node) string {
	var b strings.Builder
	for _, n := range nodes {
		rel, _ := f.rel(n.entry.Path)
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prefix)
		b.WriteString(strings.ReplaceAll(escapePath(f.Path(rel)), ",", "%2C"))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(n.entry.Width))
		b.WriteByte('w')
	}
	return b.String()
}

// srcset is the srcset template function: see FuncMap.
func (f *FS) srcset(prefix, name string, typ ...string) (string, error) {
	if len(typ) > 1 {
		return "", fmt.Errorf("bakefs: srcset %q: takes a name and at most one media type, got %d arguments", name, 1+len(typ))
	}
	s, ok := f.images(name)
	if !ok {
		return "", fmt.Errorf("bakefs: srcset %q: no image with this source and a width: %w", name, iofs.ErrNotExist)
	}
	t := s.fallback
	if len(typ) == 1 {
		t = mediaType(typ[0])
		if _, ok := s.byType[t]; !ok {
			return "", fmt.Errorf("bakefs: srcset %q: no image of type %s (it has %s): %w", name, typ[0], strings.Join(s.types, ", "), iofs.ErrNotExist)
		}
	}
	return f.srcsetOf(prefix, s.byType[t]), nil
}

// pictureAttrs are the options of the picture template function, with
// the values they may take (nil: any text).
var pictureAttrs = map[string][]string{
	"sizes":         nil,
	"class":         nil,
	"id":            nil,
	"loading":       {"lazy", "eager"},
	"decoding":      {"async", "sync", "auto"},
	"fetchpriority": {"high", "low", "auto"},
}

// picture is the picture template function: see FuncMap.
func (f *FS) picture(prefix, name, alt string, opts ...string) (template.HTML, error) {
	fail := func(format string, args ...any) (template.HTML, error) {
		return "", fmt.Errorf("bakefs: picture %q: "+format, append([]any{name}, args...)...)
	}
	attrs := map[string]string{"sizes": "100vw", "loading": "lazy", "decoding": "async"}
	for _, o := range opts {
		k, v, ok := strings.Cut(o, "=")
		allowed, known := pictureAttrs[k]
		switch {
		case !ok:
			return fail("option %q is not key=value", o)
		case !known:
			return fail("unknown option %q (known: class, decoding, fetchpriority, id, loading, sizes)", k)
		case allowed != nil && !slices.Contains(allowed, v):
			return fail("option %s=%q is not one of %s", k, v, strings.Join(allowed, ", "))
		}
		attrs[k] = v
	}
	s, ok := f.images(name)
	if !ok {
		return fail("no image with this source and a width: %w", iofs.ErrNotExist)
	}
	esc := template.HTMLEscapeString
	sizes := esc(attrs["sizes"])
	var b strings.Builder
	b.WriteString("<picture")
	if v, ok := attrs["class"]; ok {
		b.WriteString(` class="` + esc(v) + `"`)
	}
	if v, ok := attrs["id"]; ok {
		b.WriteString(` id="` + esc(v) + `"`)
	}
	b.WriteByte('>')
	for _, t := range s.types {
		if t == s.fallback {
			continue
		}
		b.WriteString(`<source type="` + esc(t) + `" srcset="` + esc(f.srcsetOf(prefix, s.byType[t])) + `" sizes="` + sizes + `">`)
	}
	imgs := s.byType[s.fallback]
	widest := imgs[len(imgs)-1]
	rel, _ := f.rel(widest.entry.Path)
	b.WriteString(`<img src="` + esc(prefix+escapePath(f.Path(rel))) + `"`)
	b.WriteString(` srcset="` + esc(f.srcsetOf(prefix, imgs)) + `" sizes="` + sizes + `"`)
	b.WriteString(` width="` + strconv.Itoa(widest.entry.Width) + `" height="` + strconv.Itoa(widest.entry.Height) + `"`)
	b.WriteString(` alt="` + esc(alt) + `"`)
	for _, k := range []string{"loading", "decoding", "fetchpriority"} {
		if v, ok := attrs[k]; ok {
			b.WriteString(" " + k + `="` + esc(v) + `"`)
		}
	}
	b.WriteString("></picture>")
	return template.HTML(b.String()), nil
}
