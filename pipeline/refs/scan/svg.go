package scan

import (
	"bytes"
	"strings"

	"github.com/bakefs/bakefs/pipeline/refs"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/xml"
)

// SVG returns the references of an SVG file; see scanSVGAt.
func SVG(data []byte) []refs.Ref { return scanSVGAt(data, 0) }

// scanSVGAt returns the references of SVG markup whose first byte is at
// offset at of its file (an SVG file, or an <svg> inside a page), found
// with tdewolff/parse's XML lexer: href and xlink:href of any element,
// url() in the style attribute and in presentation attributes (fill,
// clip-path, mask, filter, marker-*…), and <style> elements, read as CSS
// (see scanCSS). A reference to a fragment of the file itself (href="#a",
// url(#grad)) is left alone; one to another file (url(defs.svg#grad)) is
// rewritten, fragment kept.
func scanSVGAt(data []byte, at int) []refs.Ref {
	buf := make([]byte, len(data), len(data)+1)
	copy(buf, data)
	in := parse.NewInputBytes(buf)
	l := xml.NewLexer(in)
	// A token, and an attribute's value, ends where the input stands
	// after Next.
	offset := func(b []byte) int { return at + in.Offset() - len(b) }
	var found []refs.Ref
	inStyle := false
	for {
		tt, tok := l.Next()
		switch tt {
		case xml.ErrorToken:
			return found
		case xml.StartTagToken:
			inStyle = strings.EqualFold(localName(l.Text()), "style")
		case xml.AttributeToken:
			val := l.AttrVal()
			if val == nil {
				continue
			}
			a := htmlAttr{key: string(l.Text())}
			a.set(val, offset(val))
			switch key := strings.ToLower(a.key); {
			case key == "href" || key == "xlink:href":
				found = append(found, a.urlRef(refs.Load)...)
			case key == "style" || strings.Contains(strings.ToLower(a.value), "url("):
				found = append(found, a.region(func(text []byte, at int) []refs.Ref { return scanCSS(text, at) })...)
			}
		case xml.TextToken:
			if inStyle {
				found = append(found, scanCSS(tok, offset(tok))...)
			}
		case xml.CDATAToken:
			if inStyle {
				text := l.Text()
				start := offset(tok) + bytes.Index(tok, text)
				found = append(found, scanCSS(text, start)...)
			}
		case xml.StartTagCloseToken, xml.StartTagCloseVoidToken:
		default:
			inStyle = false
		}
	}
}

// localName returns an XML name without its namespace prefix.
func localName(name []byte) string {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return string(name)
}
