package web

import (
	"fmt"
	"path"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/evanw/esbuild/pkg/api"
)

// The typescript, jsx and tsx steps transpile one file at a time with
// esbuild, without reading its imports (bundle does that):
//
//	typescript                          a.ts → a.js, types stripped, es2020
//	typescript:target=es2017,format=iife
//	typescript:sourcemap=external       also a.js.map, linked from a.js
//	tsx:jsx=automatic                   a.tsx → a.js with react/jsx-runtime imports
//	jsx:jsx-factory=h,jsx-fragment=Fragment
//
// Output names: .ts, .tsx, .jsx → .js; .mts → .mjs; .cts → .cjs. Each step
// transpiles the assets whose extension it reads (typescript: .ts .mts
// .cts; jsx: .jsx; tsx: .tsx) and passes every other asset through
// unchanged, so that one chain may serve a mixed tree. A syntax error is a SourceError
// "a.ts:12:5: error: <esbuild's text>" with 1-based byte columns; several
// are a SourceErrors. Warnings are dropped. Output depends only on the
// input bytes and the options (tsconfig.json files are not read).

func init() {
	transform.Register("typescript", "1", "transpile TypeScript (.ts .mts .cts) to JavaScript with esbuild, one file at a time", transform.Content,
		func(o TypeScriptOptions) (transform.Step, error) {
			return newTranspileStep(api.LoaderTS, []string{".ts", ".mts", ".cts"}, JSXOptions{TypeScriptOptions: o})
		})
	transform.Register("jsx", "1", "transpile JSX (.jsx) to JavaScript with esbuild, one file at a time", transform.Content,
		func(o JSXOptions) (transform.Step, error) {
			return newTranspileStep(api.LoaderJSX, []string{".jsx"}, o)
		})
	transform.Register("tsx", "1", "transpile TypeScript with JSX (.tsx) to JavaScript with esbuild, one file at a time", transform.Content,
		func(o JSXOptions) (transform.Step, error) {
			return newTranspileStep(api.LoaderTSX, []string{".tsx"}, o)
		})
}

// TypeScriptOptions are the options of the typescript step. The zero value
// transpiles to es2020, keeps import and export statements, and writes no
// source map.
type TypeScriptOptions struct {
	ESCodeOptions
	Format string `opt:"format" values:"esm|iife|cjs" doc:"module format of the output; default keeps import and export as written"`
}

// JSXOptions are the options of the jsx and tsx steps: those of
// TypeScriptOptions plus the JSX settings. The zero value compiles JSX to
// React.createElement calls.
type JSXOptions struct {
	TypeScriptOptions
	JSXSettings
}

// JSXSettings are the options that say how JSX compiles, for the jsx,
// tsx and bundle steps.
type JSXSettings struct {
	JSX             string `opt:"jsx" values:"transform|automatic" doc:"transform calls jsx-factory, automatic imports the runtime of jsx-import-source; default transform"`
	JSXFactory      string `opt:"jsx-factory" doc:"function called for each element in transform mode; default React.createElement"`
	JSXFragment     string `opt:"jsx-fragment" doc:"fragment component in transform mode; default React.Fragment"`
	JSXImportSource string `opt:"jsx-import-source" doc:"package whose jsx-runtime automatic mode imports; default react"`
}

// mode returns esbuild's JSX mode for the jsx option.
func (j JSXSettings) mode() (api.JSX, error) {
	switch j.JSX {
	case "", "transform":
		return api.JSXTransform, nil
	case "automatic":
		return api.JSXAutomatic, nil
	}
	return 0, fmt.Errorf("%w: jsx %q is not one of transform, automatic", transform.ErrBadOption, j.JSX)
}

// transpileStep runs esbuild's transform on each asset it reads.
type transpileStep struct {
	exts      []string // lowercase extensions transpiled, with the dot
	opts      api.TransformOptions
	sourcemap string
	absorbed  transform.Step // the minify step after it, when it absorbed it (absorb.go)
}

// Absorb returns the step that transpiles that minifies what it writes as well, when
// next is a minify step with its target (absorb.go).
func (s *transpileStep) Absorb(next transform.Step) (transform.Step, bool) {
	return absorbMinify(s, next, s.opts.Target, func(f *transpileStep, m *minifyStep) {
		f.opts.MinifyWhitespace, f.opts.MinifyIdentifiers, f.opts.MinifySyntax = true, true, true
		f.absorbed = m
	})
}

var _ transform.Absorber = (*transpileStep)(nil)
var _ transform.Step = (*transpileStep)(nil)

func newTranspileStep(loader api.Loader, exts []string, j JSXOptions) (*transpileStep, error) {
	target, err := esTarget(j.Target)
	if err != nil {
		return nil, err
	}
	format, err := esFormat(j.Format)
	if err != nil {
		return nil, err
	}
	s := &transpileStep{
		exts:      exts,
		sourcemap: j.Sourcemap,
		opts: api.TransformOptions{
			Loader:          loader,
			Target:          target,
			Format:          format,
			Define:          j.Define,
			JSXFactory:      j.JSXFactory,
			JSXFragment:     j.JSXFragment,
			JSXImportSource: j.JSXImportSource,
			Banner:          j.Banner,
			Footer:          j.Footer,
			LogLevel:        api.LogLevelSilent,
		},
	}
	if s.opts.JSX, err = j.mode(); err != nil {
		return nil, err
	}
	if s.opts.Sourcemap, err = esSourcemap(j.Sourcemap, api.SourceMapExternal); err != nil {
		return nil, err
	}
	// A trial run checks what esbuild checks only when it runs: define
	// values, JSX factory names, a target too old for the format.
	if r := api.Transform("", s.opts); len(r.Errors) > 0 {
		return nil, esOptionsError(r.Errors)
	}
	return s, nil
}

// Run transpiles the assets the step reads and passes the others through.
func (s *transpileStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(s.one).Run(ctx, in)
}

func (s *transpileStep) reads(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	for _, e := range s.exts {
		if e == ext {
			return true
		}
	}
	return false
}

func (s *transpileStep) one(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
	if !s.reads(a.Path) {
		return []*transform.Asset{a}, nil
	}
	outPath := jsOutputPath(a.Path)
	opts := s.opts
	// The source map lists the source relative to the map, which sits next
	// to the output.
	opts.Sourcefile = transform.RelativePath(path.Dir(outPath), sourceName(a))
	r := api.Transform(string(a.Data), opts)
	if len(r.Errors) > 0 {
		return nil, placeError(ctx, a, func(file string) error {
			return esMessagesError(r.Errors, func(string) string { return file }, file)
		})
	}
	js := a.Clone()
	js.Path, js.Source, js.Type, js.Encodings = outPath, sourceName(a), "", nil
	js.Data = r.Code
	js.Absorbed = s.absorbed
	if s.sourcemap != sourcemapExternal {
		return []*transform.Asset{js}, nil
	}
	mapName := path.Base(outPath) + ".map"
	js.Data = append(r.Code[:len(r.Code):len(r.Code)], sourceMappingURL(mapName)...)
	m := &transform.Asset{Path: outPath + ".map", Source: js.Source, Data: r.Map, Absorbed: s.absorbed}
	return []*transform.Asset{js, m}, nil
}
