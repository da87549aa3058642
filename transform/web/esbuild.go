package web

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/evanw/esbuild/pkg/api"
)

// This file holds what the esbuild-based steps (typescript, jsx, tsx,
// bundle, minify) share: option words, output names and the conversion of
// esbuild's messages into SourceErrors. esbuild's types stay in this
// package; callers only ever see Go errors.

// ESTargetOption is the target option of every step that runs esbuild.
type ESTargetOption struct {
	Target string `opt:"target" values:"es2015|es2016|es2017|es2018|es2019|es2020|es2021|es2022|es2023|es2024|es2025|esnext" doc:"newest JavaScript syntax the output may use; default es2020"`
}

// ESWrapOptions are the banner and footer of every step that writes
// JavaScript or CSS with esbuild: typescript, jsx, tsx, bundle and minify.
// esbuild puts them around each JavaScript and CSS file the step writes
// (a bundle's imported images and fonts, and the HTML, SVG and JSON that
// minify reads, are left as they are), and source maps account for them.
// To keep a comment through a later minify, write it as a legal comment
// (/*! … */, @license or @preserve).
type ESWrapOptions struct {
	Banner string `opt:"banner" doc:"text put before each JavaScript and CSS output, such as a license comment; default none"`
	Footer string `opt:"footer" doc:"text put after each JavaScript and CSS output; default none"`
}

// bannerFor returns esbuild's banner or footer map of a bundle, by output
// kind, for text; nil for "".
func bannerFor(text string) map[string]string {
	if text == "" {
		return nil
	}
	return map[string]string{"js": text, "css": text}
}

// ESCodeOptions are the options shared by the steps that compile
// JavaScript with esbuild: typescript, jsx, tsx and bundle.
type ESCodeOptions struct {
	ESTargetOption
	ESWrapOptions
	Sourcemap string            `opt:"sourcemap" values:"none|external|inline" doc:"external adds a .map file per output and a sourceMappingURL comment, inline embeds the maps; default none"`
	Define    map[string]string `opt:"define" doc:"replace a global name with a constant, name:value (value is JSON or a name); default none"`
}

// esTargetValues lists the accepted target words, for values tags.
const esTargetValues = "es2015|es2016|es2017|es2018|es2019|es2020|es2021|es2022|es2023|es2024|es2025|esnext"

// esDefaultTarget is the target when the option is not given.
const esDefaultTarget = "es2020"

var esTargets = map[string]api.Target{
	"es2015": api.ES2015,
	"es2016": api.ES2016,
	"es2017": api.ES2017,
	"es2018": api.ES2018,
	"es2019": api.ES2019,
	"es2020": api.ES2020,
	"es2021": api.ES2021,
	"es2022": api.ES2022,
	"es2023": api.ES2023,
	"es2024": api.ES2024,
	"es2025": api.ES2025,
	"esnext": api.ESNext,
}

// esTarget returns the esbuild target for a target word, "" meaning
// esDefaultTarget. Errors wrap ErrBadOption.
func esTarget(word string) (api.Target, error) {
	if word == "" {
		word = esDefaultTarget
	}
	t, ok := esTargets[word]
	if !ok {
		return 0, fmt.Errorf("%w: target %q is not one of %s", transform.ErrBadOption, word, strings.ReplaceAll(esTargetValues, "|", ", "))
	}
	return t, nil
}

// esFormat returns the esbuild module format for a format word; "" keeps
// import and export statements as written.
func esFormat(word string) (api.Format, error) {
	switch word {
	case "":
		return api.FormatDefault, nil
	case "esm":
		return api.FormatESModule, nil
	case "iife":
		return api.FormatIIFE, nil
	case "cjs":
		return api.FormatCommonJS, nil
	}
	return 0, fmt.Errorf("%w: format %q is not one of esm, iife, cjs", transform.ErrBadOption, word)
}

// Source map modes of the sourcemap option.
const (
	sourcemapNone     = "none"
	sourcemapExternal = "external"
	sourcemapInline   = "inline"
)

// esSourcemapValues lists the sourcemap option words, for values tags.
const esSourcemapValues = "none|external|inline"

// esSourcemap returns esbuild's source map mode for a sourcemap word: none
// for "" and "none", external for "external" (the build API links the map
// itself, api.SourceMapLinked; the transform API leaves the comment to the
// step, api.SourceMapExternal), inline for "inline". Errors wrap
// ErrBadOption.
func esSourcemap(word string, external api.SourceMap) (api.SourceMap, error) {
	switch word {
	case "", sourcemapNone:
		return api.SourceMapNone, nil
	case sourcemapExternal:
		return external, nil
	case sourcemapInline:
		return api.SourceMapInline, nil
	}
	return 0, fmt.Errorf("%w: sourcemap %q is not one of %s", transform.ErrBadOption, word, strings.ReplaceAll(esSourcemapValues, "|", ", "))
}

// jsOutputPath returns the name of the JavaScript made from a source file:
// a.ts, a.tsx, a.jsx → a.js; a.mts → a.mjs; a.cts → a.cjs. Names already
// ending in .js, .mjs or .cjs are kept.
func jsOutputPath(p string) string {
	ext := path.Ext(p)
	stem := strings.TrimSuffix(p, ext)
	switch strings.ToLower(ext) {
	case ".mts", ".mjs":
		return stem + ".mjs"
	case ".cts", ".cjs":
		return stem + ".cjs"
	}
	return stem + ".js"
}

// sourceMappingURL returns the comment that links JavaScript to its
// external source map mapName (a name relative to the JavaScript file).
func sourceMappingURL(mapName string) string {
	return "//# sourceMappingURL=" + mapName + "\n"
}

// sourceOnDisk returns the file on disk that holds the logical source
// path p: ctx.Resolve(p), or p under ctx.Root.
func sourceOnDisk(ctx *transform.Context, p string) string {
	if ctx.Resolve != nil {
		return ctx.Resolve(p)
	}
	return filepath.Join(ctx.Root, filepath.FromSlash(p))
}

// placeError makes an error found at line:col in a's bytes name the right
// file; mistake builds the error for a given file name. When a still holds
// the bytes of its source file (the step is the first of its chain), the
// positions are positions in the source, and the error (a SourceError,
// usually) names it. Otherwise an earlier step made the bytes, so the
// positions are in a generated file that no editor can open: the error
// then names a's path in plain text and is no longer a SourceError, so that
// the chain prefixes the source and the step. placeError is only called on
// failure, so its extra read costs nothing on success.
func placeError(ctx *transform.Context, a *transform.Asset, mistake func(file string) error) error {
	src := sourceName(a)
	if data, err := os.ReadFile(sourceOnDisk(ctx, src)); err == nil && bytes.Equal(data, a.Data) {
		return mistake(src)
	}
	return errors.New(mistake(a.Path).Error())
}

// sourceName returns the logical source path of an asset: its Source, or
// its Path when Source is empty.
func sourceName(a *transform.Asset) string {
	if a.Source != "" {
		return a.Source
	}
	return a.Path
}

// esMessagesError converts esbuild errors into a *SourceError (one message)
// or a SourceErrors (several), sorted by file, line and column so that the
// text does not depend on esbuild's scheduling. file maps the file name in
// a message's location to a logical source path; messages without a
// location name fallback.
//
// esbuild columns are 0-based byte offsets; SourceError columns are
// 1-based byte columns, so 1 is added.
func esMessagesError(msgs []api.Message, file func(string) string, fallback string) error {
	errs := make(transform.SourceErrors, 0, len(msgs))
	for _, m := range msgs {
		e := &transform.SourceError{File: fallback, Msg: m.Text}
		if m.PluginName != "" {
			e.Msg = "[" + m.PluginName + "] " + e.Msg
		}
		if loc := m.Location; loc != nil && loc.File != "" {
			e.File = file(loc.File)
			e.Line = loc.Line
			if loc.Line > 0 {
				e.Column = loc.Column + 1
			}
		}
		errs = append(errs, e)
	}
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	if len(errs) == 1 {
		return errs[0]
	}
	return errs
}

// esOptionsError converts the errors of a trial transform, made to check
// options, into an error wrapping ErrBadOption.
func esOptionsError(msgs []api.Message) error {
	texts := make([]string, len(msgs))
	for i, m := range msgs {
		texts[i] = m.Text
	}
	return fmt.Errorf("%w: %s", transform.ErrBadOption, strings.Join(texts, "; "))
}
