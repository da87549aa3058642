package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bakefs/bakefs/transform"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/minify/v2"
	mcss "github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	mjs "github.com/tdewolff/minify/v2/js"
	mjson "github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/buffer"
)

// This file holds the minify step's markup and data side: HTML, SVG, JSON
// and XML through tdewolff/minify, with Go template actions kept intact.

// markupMinifier minifies HTML, SVG, JSON and XML. It is safe for
// concurrent use.
type markupMinifier struct {
	m      *minify.M
	delims [2]string // template action delimiters; empty for template=none
}

// markupMediaTypes are the media types under which each kind is registered
// with tdewolff/minify.
var markupMediaTypes = map[string]string{
	minifyHTML: "text/html",
	minifySVG:  "image/svg+xml",
	minifyJSON: "application/json",
	minifyXML:  "application/xml",
}

// newMarkupMinifier makes the minifier of markup and data; js and css are
// the esbuild options that minify JavaScript and CSS files, which inline
// <script> and <style> elements get too.
func newMarkupMinifier(o MinifyOptions, js, css api.TransformOptions) (*markupMinifier, error) {
	mm := &markupMinifier{m: minify.New()}
	switch o.Template {
	case "", "go":
		mm.delims = html.GoTemplateDelims
	case "none":
	default:
		return nil, fmt.Errorf("%w: template %q is not one of go, none", transform.ErrBadOption, o.Template)
	}
	mm.m.Add("text/html", &html.Minifier{
		KeepComments:        o.KeepComments,
		KeepSpecialComments: true, // conditional comments and server-side includes do something
		KeepDocumentTags:    !o.OmitDocumentTags,
		KeepEndTags:         !o.OmitEndTags,
		KeepQuotes:          !o.OmitQuotes,
		TemplateDelims:      mm.delims,
	})
	mm.m.Add("image/svg+xml", &svg.Minifier{KeepComments: o.KeepComments})
	mm.m.AddRegexp(regexp.MustCompile(`[/+]json$`), &mjson.Minifier{})
	mm.m.AddRegexp(regexp.MustCompile(`[/+]xml$`), &xml.Minifier{})
	// Inline code in HTML and SVG: <style> and <script> elements through
	// esbuild, as files are; style and on* attributes through tdewolff's
	// minifiers (see esbuildInline). A <script type> with no minifier
	// here (a template, an import map) is kept as it is.
	mm.m.Add("text/css", esbuildInline{opts: css, attr: &mcss.Minifier{}})
	mm.m.AddRegexp(regexp.MustCompile(`^(application|text)/(x-)?(java|ecma)script$|^module$`), esbuildInline{opts: js, attr: &mjs.Minifier{Version: tdewolffJSVersion(js.Target)}})
	return mm, nil
}

// inlineMinifier runs a minifier on code inside a document (a <script>, a
// style attribute) and reports its parse errors as an *inlineError. The
// HTML and SVG minifiers shift the position of a *parse.Error by the
// place of the code in the document, but get the column wrong past the
// code's first line (and the line, after template actions); an
// *inlineError passes through them untouched, and markupMinifier.error
// finds the code in the document itself.
type inlineMinifier struct{ minify.Minifier }

func (im inlineMinifier) Minify(m *minify.M, w io.Writer, r io.Reader, params map[string]string) error {
	code, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	err = im.Minifier.Minify(m, w, buffer.NewReader(bytes.Clone(code)), params)
	var perr *parse.Error
	if errors.As(err, &perr) {
		return &inlineError{perr: perr, code: code}
	}
	return err
}

// An inlineError is a parse error in code inside a document, with the
// position relative to the code.
type inlineError struct {
	perr *parse.Error
	code []byte
}

func (e *inlineError) Error() string { return e.perr.Error() }

// tdewolffJSVersion maps an esbuild target to tdewolff/minify's js
// Version (the newest ECMAScript year it may use; 0 for no limit).
func tdewolffJSVersion(t api.Target) int {
	for word, target := range esTargets {
		if target == t && word != "esnext" {
			year, err := strconv.Atoi(word[2:])
			if err == nil {
				return year
			}
		}
	}
	return 0
}

// minify minifies a's bytes as kind (minifyHTML, minifySVG, minifyJSON or
// minifyXML).
func (mm *markupMinifier) minify(ctx *transform.Context, a *transform.Asset, kind string) ([]byte, error) {
	if kind == minifyJSON {
		if err := checkJSON(ctx, a); err != nil {
			return nil, err
		}
	}
	// input is the text the minifier sees, kept as it is for error
	// positions; tdewolff/minify may write into its input, so it gets a
	// copy.
	input := a.Data
	var kept *keptRegions
	if kind == minifyHTML && mm.delims[0] != "" {
		input, kept = keepTemplatedRawText(input, mm.delims)
	}
	out, err := mm.m.Bytes(markupMediaTypes[kind], bytes.Clone(input))
	if err != nil {
		return nil, mm.error(ctx, a, input, kept, err)
	}
	if kept != nil {
		if out, err = kept.restore(out); err != nil {
			return nil, fmt.Errorf("%s: %w", a.Path, err)
		}
	}
	return out, nil
}

// error converts a tdewolff/minify error into a SourceError at the place in
// a's bytes it names. input is the text the minifier saw.
func (mm *markupMinifier) error(ctx *transform.Context, a *transform.Asset, input []byte, kept *keptRegions, err error) error {
	var ierr *inlineError
	var perr *parse.Error
	line, col, msg := 0, 0, err.Error()
	switch {
	case errors.As(err, &ierr):
		msg = ierr.perr.Message
		if at := bytes.Index(input, ierr.code); at >= 0 {
			// The code is in the document as it is (not so for attribute
			// values with entities): count from where it starts.
			before := input[:at]
			startLine := 1 + bytes.Count(before, []byte("\n"))
			startCol := at - (bytes.LastIndexByte(before, '\n') + 1) + 1
			line = startLine + ierr.perr.Line - 1
			col = byteColumn(ierr.code, ierr.perr.Line, ierr.perr.Column)
			if ierr.perr.Line == 1 {
				col += startCol - 1
			}
		} else {
			msg = fmt.Sprintf("%s in inline code %q", msg, ierr.perr.Context)
		}
	case errors.As(err, &perr):
		line, col, msg = perr.Line, byteColumn(input, perr.Line, perr.Column), perr.Message
	}
	if kept != nil && line > 0 {
		line += kept.linesBefore(line)
	}
	return placeError(ctx, a, func(file string) error {
		return &transform.SourceError{File: file, Line: line, Column: col, Msg: msg}
	})
}

// checkJSON reports a's bytes when they are not valid JSON (RFC 8259):
// the JSON minifier accepts some mistakes, such as a trailing comma, that
// browsers' JSON.parse rejects.
func checkJSON(ctx *transform.Context, a *transform.Asset) error {
	var v json.RawMessage
	err := json.Unmarshal(a.Data, &v)
	if err == nil {
		return nil
	}
	var serr *json.SyntaxError
	line, col := 0, 0
	msg := err.Error()
	if errors.As(err, &serr) {
		at := int(serr.Offset)
		if at > 0 {
			at-- // Offset counts the byte that failed
		}
		before := a.Data[:min(at, len(a.Data))]
		line = 1 + bytes.Count(before, []byte("\n"))
		col = len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
		msg = strings.TrimPrefix(msg, "json: ")
	}
	return placeError(ctx, a, func(file string) error {
		return &transform.SourceError{File: file, Line: line, Column: col, Msg: msg}
	})
}

// byteColumn converts a 1-based column in runes on a 1-based line of data,
// as tdewolff/parse counts them (lines end at \n, \r\n, \r, U+2028 and
// U+2029), to a 1-based column in bytes. It returns 0 when the line does
// not exist.
func byteColumn(data []byte, line, runeCol int) int {
	if line < 1 || runeCol < 1 {
		return 0
	}
	i := 0
	for l := 1; l < line; l++ {
		for {
			if i >= len(data) {
				return 0
			}
			r, n := utf8.DecodeRune(data[i:])
			i += n
			if r == '\r' && i < len(data) && data[i] == '\n' {
				i++
			}
			if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
				break
			}
		}
	}
	start := i
	for c := 1; c < runeCol && i < len(data); c++ {
		_, n := utf8.DecodeRune(data[i:])
		i += n
	}
	return i - start + 1
}

// rawTextTags are the HTML elements whose text is not markup. When one
// holds a template action, the minifier would still collapse its white
// space and decode its entities (changing strings in a script, the value
// of a textarea), so such an element's text is kept byte for byte.
var rawTextTags = []string{"script", "style", "textarea"}

// keptRegions remembers the texts that keepTemplatedRawText set aside.
type keptRegions struct {
	delims [2]string
	marker string   // unique in the document: "/*bakefs-kept-" or a longer variant
	texts  [][]byte // the texts, by index in their placeholder
	lines  []int    // the line of each placeholder in the input the minifier saw
	// removed[i] is the number of line breaks texts[i] had, which the
	// one-line placeholder does not.
	removed []int
}

// keepTemplatedRawText replaces the text of every script, style and
// textarea element that contains the opening delimiter with a placeholder
// template action, which the minifier copies as it is; restore puts the
// texts back. It returns src itself and nil when there is nothing to keep.
func keepTemplatedRawText(src []byte, delims [2]string) ([]byte, *keptRegions) {
	open, close := []byte(delims[0]), []byte(delims[1])
	var k *keptRegions
	var out []byte
	last := 0
	for i := 0; i < len(src); {
		switch {
		case bytes.HasPrefix(src[i:], []byte("<!--")):
			i = skipPast(src, i+4, []byte("-->"))
		case bytes.HasPrefix(src[i:], open):
			i = skipPast(src, i+len(open), close)
		case src[i] == '<':
			name := rawTextTagAt(src[i+1:])
			if name == "" {
				i++
				continue
			}
			start := startTagEnd(src, i+1+len(name), open, close)
			end := closingTag(src, start, name)
			if start < end && bytes.Contains(src[start:end], open) {
				if k == nil {
					k = &keptRegions{delims: delims, marker: uniqueMarker(src, delims)}
				}
				out = append(out, src[last:start]...)
				k.lines = append(k.lines, 1+bytes.Count(out, []byte("\n")))
				k.removed = append(k.removed, bytes.Count(src[start:end], []byte("\n")))
				out = append(out, k.placeholder(len(k.texts))...)
				k.texts = append(k.texts, src[start:end])
				last = end
			}
			i = end
		default:
			i++
		}
	}
	if k == nil {
		return src, nil
	}
	return append(out, src[last:]...), k
}

func (k *keptRegions) placeholder(n int) []byte {
	return []byte(k.delims[0] + k.marker + strconv.Itoa(n) + "*/" + k.delims[1])
}

// restore puts the kept texts back into the minified output.
func (k *keptRegions) restore(out []byte) ([]byte, error) {
	for n, text := range k.texts {
		ph := k.placeholder(n)
		if bytes.Count(out, ph) != 1 {
			return nil, fmt.Errorf("minify: kept text %d of a script, style or textarea was lost", n)
		}
		out = bytes.Replace(out, ph, text, 1)
	}
	return out, nil
}

// linesBefore returns the number of line breaks that placeholders before
// line (of the input the minifier saw) took out.
func (k *keptRegions) linesBefore(line int) int {
	sum := 0
	for i, l := range k.lines {
		if l < line {
			sum += k.removed[i]
		}
	}
	return sum
}

// uniqueMarker returns the text that starts placeholders: a template
// comment opening that does not occur in src.
func uniqueMarker(src []byte, delims [2]string) string {
	marker := "/*bakefs-kept-"
	for bytes.Contains(src, []byte(delims[0]+marker)) {
		marker += "x-"
	}
	return marker
}

// skipPast returns the index just past the first end at or after i, or
// len(src).
func skipPast(src []byte, i int, end []byte) int {
	if j := bytes.Index(src[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(src)
}

// rawTextTagAt returns the raw text tag name that b starts with, when a
// space, '/' or '>' follows it, else "".
func rawTextTagAt(b []byte) string {
	for _, name := range rawTextTags {
		if len(b) > len(name) && bytes.EqualFold(b[:len(name)], []byte(name)) && isTagNameEnd(b[len(name)]) {
			return name
		}
	}
	return ""
}

func isTagNameEnd(c byte) bool {
	return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// startTagEnd returns the index just past the '>' that closes a start
// tag whose attributes begin at i, skipping quoted values and template
// actions; len(src) if there is none.
func startTagEnd(src []byte, i int, open, close []byte) int {
	for i < len(src) {
		switch c := src[i]; {
		case bytes.HasPrefix(src[i:], open):
			i = skipPast(src, i+len(open), close)
		case c == '"' || c == '\'':
			i = skipPast(src, i+1, []byte{c})
		case c == '>':
			return i + 1
		default:
			i++
		}
	}
	return len(src)
}

// closingTag returns the index of the end tag </name that ends the raw
// text starting at i, or len(src).
func closingTag(src []byte, i int, name string) int {
	for i < len(src) {
		j := bytes.Index(src[i:], []byte("</"))
		if j < 0 {
			break
		}
		at := i + j
		rest := src[at+2:]
		if len(rest) > len(name) && bytes.EqualFold(rest[:len(name)], []byte(name)) && isTagNameEnd(rest[len(name)]) {
			return at
		}
		i = at + 2
	}
	return len(src)
}
