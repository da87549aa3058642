package web

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/parse/v2"
)

// esbuildInline minifies the code of <script> and <style> elements in HTML
// and SVG with esbuild and the options that minify .js and .css files, so
// that one engine minifies a language whether it arrives as a file or
// inline. Code in attributes (style="…", onclick="…") is a declaration
// list or a statement list rather than a stylesheet or a program; it goes
// to attr, tdewolff's minifier for it. Parse errors are *inlineError, with
// positions relative to the code.
type esbuildInline struct {
	opts api.TransformOptions
	attr minify.Minifier
}

func (e esbuildInline) Minify(m *minify.M, w io.Writer, r io.Reader, params map[string]string) error {
	if params["inline"] == "1" {
		return inlineMinifier{e.attr}.Minify(m, w, r, params)
	}
	code, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	res := api.Transform(string(code), e.opts)
	if len(res.Errors) > 0 {
		return &inlineError{perr: esParseError(res.Errors[0], code), code: code}
	}
	_, err = w.Write(bytes.TrimSuffix(res.Code, []byte("\n")))
	return err
}

// esParseError converts an esbuild message about code into tdewolff's
// error type, whose column counts runes from 1 (esbuild's counts bytes
// from 0).
func esParseError(msg api.Message, code []byte) *parse.Error {
	perr := &parse.Error{Message: msg.Text, Line: 1, Column: 1}
	if loc := msg.Location; loc != nil && loc.Line > 0 {
		perr.Line = loc.Line
		text := []byte(loc.LineText)
		perr.Column = utf8.RuneCount(text[:min(loc.Column, len(text))]) + 1
		perr.Context = loc.LineText
	}
	return perr
}
