package scan

import (
	"html"
	"sort"
	"strings"

	"github.com/bakefs/bakefs/pipeline/refs"

	mhtml "github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/parse/v2"
	phtml "github.com/tdewolff/parse/v2/html"
)

// HTML returns the references of a page or a Go template, found with
// tdewolff/parse's HTML lexer, which steps over {{ }} actions: an
// attribute whose value holds an action is left alone.
//
// Read: src (img, script, source, video, audio, track, embed, input,
// iframe), href (link, a, area, and use and image in inline SVG), srcset
// and imagesrcset (img, source, link) with their descriptors, poster
// (video), data (object), content of <meta property="og:image"> and of
// the other meta names that hold an image, xlink:href, style attributes and
// <style> elements (as CSS, see scanCSS), inline <svg> (see SVG), and
// integrity, which is set to the integrity of the file that the element's
// src or href names. A <script> with a plain src also gives a ScriptStart
// ref where its start tag begins.
//
// Links to navigate (a, area, iframe, and link elements other than style
// sheets, icons, manifests and preloads) are rewritten when they name a
// file of the tree that is not a page, and never warned about. A <base>
// element is not followed: references resolve against the file's own path.
func HTML(data []byte) []refs.Ref {
	buf := make([]byte, len(data), len(data)+1)
	copy(buf, data)
	in := parse.NewInputBytes(buf)
	l := phtml.NewTemplateLexer(in, mhtml.GoTemplateDelims)
	// A token, and an attribute's value without a template action after
	// it, ends where the input stands after Next.
	offset := func(b []byte) int { return in.Offset() - len(b) }
	var found []refs.Ref
	var tag string
	var tagStart int
	var attrs []htmlAttr
	inStyle := false
	for {
		tt, tok := l.Next()
		switch tt {
		case phtml.ErrorToken:
			sort.SliceStable(found, func(i, j int) bool { return found[i].Start < found[j].Start })
			return found
		case phtml.StartTagToken:
			tag, tagStart, attrs = string(l.Text()), offset(tok), attrs[:0]
			inStyle = false
		case phtml.AttributeToken:
			val := l.AttrVal()
			a := htmlAttr{key: string(l.AttrKey()), template: l.HasTemplate()}
			if val != nil {
				a.set(val, offset(val))
			}
			attrs = append(attrs, a)
		case phtml.StartTagCloseToken, phtml.StartTagVoidToken:
			found = append(found, htmlElementRefs(tag, tagStart, attrs)...)
			inStyle = tag == "style" && tt == phtml.StartTagCloseToken
		case phtml.TextToken:
			if inStyle {
				found = append(found, scanCSS(tok, offset(tok))...)
			}
			inStyle = false
		case phtml.SVGToken:
			found = append(found, scanSVGAt(tok, offset(tok))...)
		default:
			inStyle = false
		}
	}
}

// An htmlAttr is an attribute of the element being read.
type htmlAttr struct {
	key        string
	template   bool   // the value holds a template action
	quote      byte   // '"', '\'' or 0 for an unquoted value
	start, end int    // the value's bytes in the file, quotes excluded
	raw        string // the value as written
	value      string // the value, character references decoded
}

func (a *htmlAttr) set(val []byte, at int) {
	if len(val) > 0 && (val[0] == '"' || val[0] == '\'') {
		a.quote = val[0]
		val, at = val[1:], at+1
		if len(val) > 0 && val[len(val)-1] == a.quote {
			val = val[:len(val)-1]
		}
	}
	a.start, a.end, a.raw = at, at+len(val), string(val)
	a.value = html.UnescapeString(a.raw)
}

// region returns the refs that scan finds in the attribute's value: as
// they are when the value has no character reference, else inside a
// region that is written back escaped.
func (a *htmlAttr) region(scan func(text []byte, at int) []refs.Ref) []refs.Ref {
	if a.template {
		return nil
	}
	if a.raw == a.value {
		return scan([]byte(a.raw), a.start)
	}
	inner := scan([]byte(a.value), 0)
	if len(inner) == 0 {
		return nil
	}
	q := a.quote
	return []refs.Ref{{Start: a.start, End: a.end, Inner: inner, Decoded: a.value,
		Write: func(s string) []byte { return escapeAttr(s, q) }}}
}

// urlRef returns the ref of an attribute whose whole value is a URL.
func (a *htmlAttr) urlRef(kind refs.Kind) []refs.Ref {
	return a.region(func(text []byte, at int) []refs.Ref {
		u := strings.TrimSpace(string(text))
		if u == "" {
			return nil
		}
		lead := strings.Index(string(text), u)
		return []refs.Ref{{Start: at + lead, End: at + lead + len(u), URL: u, Plain: true, Kind: kind}}
	})
}

// escapeAttr writes s as an attribute value quoted with q (0 for none):
// "&" and the quote as character references.
func escapeAttr(s string, q byte) []byte {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '"' && q != '\'':
			b = append(b, "&#34;"...)
		case c == '\'' && q != '"':
			b = append(b, "&#39;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// htmlURLAttrs maps an element to its attributes that hold one URL, and
// whether it loads the URL (rather than navigate to it).
var htmlURLAttrs = map[string]map[string]refs.Kind{
	"a":      {"href": refs.Nav},
	"area":   {"href": refs.Nav},
	"audio":  {"src": refs.Load},
	"embed":  {"src": refs.Load},
	"iframe": {"src": refs.Nav},
	"image":  {"href": refs.Load, "xlink:href": refs.Load},
	"img":    {"src": refs.Load},
	"input":  {"src": refs.Load},
	"object": {"data": refs.Load},
	"script": {"src": refs.Load},
	"source": {"src": refs.Load},
	"track":  {"src": refs.Load},
	"use":    {"href": refs.Load, "xlink:href": refs.Load},
	"video":  {"src": refs.Load, "poster": refs.Load},
}

// loadingRels are the link relations whose target the browser loads.
var loadingRels = map[string]bool{
	"stylesheet": true, "icon": true, "apple-touch-icon": true, "apple-touch-icon-precomposed": true,
	"mask-icon": true, "manifest": true, "preload": true, "modulepreload": true, "prefetch": true,
}

// metaImages are the meta property and name values whose content is the
// URL of an image.
var metaImages = map[string]bool{
	"og:image": true, "og:image:url": true, "og:image:secure_url": true, "og:audio": true, "og:video": true,
	"twitter:image": true, "twitter:image:src": true, "msapplication-tileimage": true,
	"msapplication-square70x70logo": true, "msapplication-square150x150logo": true,
	"msapplication-wide310x150logo": true, "msapplication-square310x310logo": true,
}

// htmlElementRefs returns the refs of one element's attributes; start is
// where the element's start tag begins.
func htmlElementRefs(tag string, start int, attrs []htmlAttr) []refs.Ref {
	get := func(key string) *htmlAttr {
		for i := range attrs {
			if attrs[i].key == key {
				return &attrs[i]
			}
		}
		return nil
	}
	var found []refs.Ref
	var main *refs.Ref // the URL that an integrity attribute is for
	add := func(a *htmlAttr, kind refs.Kind) {
		rs := a.urlRef(kind)
		if len(rs) == 1 && rs[0].Inner == nil && main == nil {
			main = &refs.Ref{URL: rs[0].URL}
		} else if len(rs) == 1 && main == nil {
			main = &refs.Ref{URL: rs[0].Inner[0].URL}
		}
		found = append(found, rs...)
	}
	for i := range attrs {
		a := &attrs[i]
		switch a.key {
		case "style":
			found = append(found, a.region(func(text []byte, at int) []refs.Ref { return scanCSS(text, at) })...)
			continue
		case "srcset", "imagesrcset":
			if tag == "img" || tag == "source" || tag == "link" {
				found = append(found, a.region(scanSrcset)...)
			}
			continue
		}
		if kind, ok := htmlURLAttrs[tag][a.key]; ok {
			add(a, kind)
		}
	}
	switch tag {
	case "link":
		if href := get("href"); href != nil {
			kind := refs.Nav
			if rel := get("rel"); rel != nil {
				for _, r := range strings.Fields(strings.ToLower(rel.value)) {
					if loadingRels[r] {
						kind = refs.Load
					}
					if r == "manifest" {
						kind = refs.Manifest
						break
					}
				}
			}
			add(href, kind)
		}
	case "script":
		if len(found) == 1 && found[0].Plain {
			found = append(found, refs.Ref{Start: start, End: start, URL: found[0].URL, Kind: refs.ScriptStart})
		}
	case "meta":
		name := get("property")
		if name == nil {
			name = get("name")
		}
		if content := get("content"); name != nil && content != nil && metaImages[strings.ToLower(name.value)] {
			add(content, refs.Load)
		}
	}
	if sri := get("integrity"); sri != nil && main != nil && !sri.template && sri.raw == sri.value && strings.TrimSpace(sri.raw) != "" {
		found = append(found, refs.Ref{Start: sri.start, End: sri.end, URL: main.URL, Kind: refs.SRI})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Start < found[j].Start })
	return found
}

// scanSrcset returns the URLs of a srcset value that starts at offset at,
// read as the HTML standard's srcset parser does: a candidate is a URL up
// to white space, with trailing commas not part of it, then descriptors
// up to a comma outside parentheses.
func scanSrcset(text []byte, at int) []refs.Ref {
	var found []refs.Ref
	i := 0
	for i < len(text) {
		for i < len(text) && (isCSSSpace(text[i]) || text[i] == ',') {
			i++
		}
		if i >= len(text) {
			break
		}
		start := i
		for i < len(text) && !isCSSSpace(text[i]) {
			i++
		}
		end := i
		for end > start && text[end-1] == ',' {
			end--
		}
		if end > start {
			found = append(found, refs.Ref{Start: at + start, End: at + end, URL: string(text[start:end]), Plain: true, Kind: refs.Load})
		}
		if end < i { // the URL ended with commas: no descriptors
			continue
		}
		depth := 0
		for i < len(text) {
			c := text[i]
			if c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
			i++
		}
	}
	return found
}
