package web

import (
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/evanw/esbuild/pkg/api"
)

// The minify step makes text files smaller without changing what they do.
// It picks the minifier by the asset's media type (Asset.MediaTypeOf):
//
//	JavaScript (text/javascript, application/javascript)  esbuild: whitespace, syntax, local names
//	CSS (text/css)                                        esbuild
//	HTML (text/html)                                      tdewolff/minify html
//	SVG (image/svg+xml)                                   tdewolff/minify svg
//	JSON (application/json, */*+json, .map, .webmanifest) tdewolff/minify json
//	XML (application/xml, text/xml, */*+xml)              tdewolff/minify xml
//
// Any other media type passes through unchanged, so that "minify" can be
// applied to every file of a tree. A file of a known type that fails to
// parse is an error naming it, with line:col (1-based, byte columns) when
// the minifier gives a position.
//
// HTML defaults suit Go html/template files: {{ … }} actions are left
// byte for byte, inside text, attributes and tags; a <script>, <style> or
// <textarea> that contains an action is kept whole, since its text cannot
// be minified without knowing what the action writes; optional end tags,
// <html>/<head>/<body> tags and attribute quotes are kept, since a
// template may be cut into parts ({{ define }}) that are only whole
// together. Inline <script> and <style> without actions, style and on*
// attributes are minified by tdewolff/minify's js and css packages.
//
// JavaScript keeps its top-level names (a script's globals stay visible to
// other scripts) and its legal comments (/*! … */, @license, @preserve);
// other comments go, and so does a sourceMappingURL comment: minify does
// not update source maps (use bundle:minify=true,sourcemap=external for
// minified code with a map). esbuild's warnings (for example about CSS it
// cannot parse, which it keeps as is) are dropped.
//
// Options:
//
//	minify                          the defaults above
//	minify:target=es2015            JavaScript may use at most ES2015 syntax
//	minify:keep-comments=true       keep HTML and SVG comments
//	minify:omit-end-tags=true,omit-document-tags=true,omit-quotes=true
//	                                smallest HTML, for complete documents
//	minify:template=none            HTML that is not a template: {{ is text

func init() {
	transform.Register("minify", "1", "minify JavaScript and CSS (esbuild), HTML, SVG, JSON and XML (tdewolff/minify) by media type; other files pass through", transform.Content, newMinifyStep)
}

// MinifyOptions are the options of the minify step. The zero value
// minifies with settings that are safe for Go templates and for es2020
// browsers.
type MinifyOptions struct {
	ESTargetOption
	ESWrapOptions
	KeepComments     bool   `opt:"keep-comments" doc:"keep HTML and SVG comments; default false (JavaScript and CSS keep only legal comments either way)"`
	OmitEndTags      bool   `opt:"omit-end-tags" doc:"drop optional HTML end tags such as </p>, </li>, </td>; default false, as a template part may end inside an element"`
	OmitDocumentTags bool   `opt:"omit-document-tags" doc:"drop <html>, <head> and <body> tags without attributes; default false"`
	OmitQuotes       bool   `opt:"omit-quotes" doc:"drop quotes around HTML attribute values where HTML allows; default false"`
	Template         string `opt:"template" values:"go|none" doc:"go keeps {{ … }} actions of Go, Handlebars and Mustache templates untouched in HTML; none treats braces as text; default go"`
}

// minifyStep is the minify step.
type minifyStep struct {
	js, css api.TransformOptions
	markup  *markupMinifier
}

var _ transform.Step = (*minifyStep)(nil)

func newMinifyStep(o MinifyOptions) (transform.Step, error) {
	target, err := esTarget(o.Target)
	if err != nil {
		return nil, err
	}
	js := api.TransformOptions{
		Loader:            api.LoaderJS,
		Target:            target,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LogLevel:          api.LogLevelSilent,
	}
	css := js
	css.Loader = api.LoaderCSS
	markup, err := newMarkupMinifier(o, js, css) // inline code gets no banner
	if err != nil {
		return nil, err
	}
	js.Banner, js.Footer = o.Banner, o.Footer
	css.Banner, css.Footer = o.Banner, o.Footer
	return &minifyStep{js: js, css: css, markup: markup}, nil
}

// Kinds of text the minify step knows, by media type.
const (
	minifyJS   = "js"
	minifyCSS  = "css"
	minifyHTML = "html"
	minifySVG  = "svg"
	minifyJSON = "json"
	minifyXML  = "xml"
)

// minifyKind returns the kind of text of a media type, or "" for a type the
// minify step passes through. Parameters (; charset=utf-8) and case are
// ignored.
func minifyKind(mediaType string) string {
	t, _, _ := strings.Cut(mediaType, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	switch t {
	case "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript", "application/ecmascript":
		return minifyJS
	case "text/css":
		return minifyCSS
	case "text/html":
		return minifyHTML
	case "image/svg+xml":
		return minifySVG
	case "application/json", "text/json":
		return minifyJSON
	case "application/xml", "text/xml":
		return minifyXML
	}
	switch {
	case strings.HasSuffix(t, "+json"):
		return minifyJSON
	case strings.HasSuffix(t, "+xml"):
		return minifyXML
	}
	return ""
}

// Run minifies each asset of a known media type and passes the others
// through.
func (s *minifyStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(s.one).Run(ctx, in)
}

func (s *minifyStep) one(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
	if _, done := a.Absorbed.(*minifyStep); done {
		return []*transform.Asset{a}, nil // done by the step before (absorb.go)
	}
	kind := minifyKind(a.MediaTypeOf())
	var (
		data []byte
		err  error
	)
	switch kind {
	case "":
		return []*transform.Asset{a}, nil
	case minifyJS:
		data, err = s.esbuild(ctx, a, s.js)
	case minifyCSS:
		data, err = s.esbuild(ctx, a, s.css)
	default:
		data, err = s.markup.minify(ctx, a, kind)
	}
	if err != nil {
		return nil, err
	}
	out := a.Clone()
	out.Data, out.Encodings = data, nil
	return []*transform.Asset{out}, nil
}

func (s *minifyStep) esbuild(ctx *transform.Context, a *transform.Asset, opts api.TransformOptions) ([]byte, error) {
	r := api.Transform(string(a.Data), opts)
	if len(r.Errors) > 0 {
		return nil, placeError(ctx, a, func(file string) error {
			return esMessagesError(r.Errors, func(string) string { return file }, file)
		})
	}
	return r.Code, nil
}
