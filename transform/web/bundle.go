package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/evanw/esbuild/pkg/api"
)

// The bundle step follows the imports of an entry point with esbuild and
// writes one file with everything it needs:
//
//	bundle                              app.ts → app.js (ES module, es2020)
//	bundle:format=iife,minify=true      one self-running script, minified
//	bundle:external=react+react-dom     leave these imports as imports
//	bundle:sourcemap=external           also app.js.map (and app.css.map)
//	bundle:inline-limit=4096            images and fonts up to 4 KiB as data: URLs
//	bundle:loader=svg:text              import .svg files as strings
//	bundle:public-path=/static/         refer to imported files as /static/assets/…
//
// Entry points are .js .mjs .cjs .jsx .ts .mts .cts .tsx files, which give
// <stem>.js, and .css files, which give <stem>.css (with @import and url()
// followed). Other assets pass through unchanged. The entry's bytes are
// the asset's (an earlier step may have changed them); its imports are
// read from disk, relative to the entry's file (ctx.Resolve, or ctx.Root
// joined with the asset's Source).
//
// Beside the main output come:
//   - <stem>.css, when the JavaScript imports CSS;
//   - imported images (.png .jpg .jpeg .gif .svg .webp .avif .ico) and
//     fonts (.woff .woff2 .ttf .otf .eot), as assets/<name>-<hash>.<ext>
//     next to the output, or as data: URLs when no larger than
//     inline-limit bytes. The code refers to such a file by the URL
//     ./assets/<name>-<hash>.<ext>, or public-path + assets/… when that
//     is set: CSS resolves the relative URL against itself, JavaScript
//     against the page, so JavaScript served from another directory than
//     its pages needs public-path;
//   - <output>.map files with sourcemap=external.
//
// Output is deterministic and machine-independent: paths in the output,
// its source maps and its errors are relative to ctx.Root, and the hash in
// asset names depends only on the asset's bytes. The tsconfig.json or
// jsconfig.json nearest to the entry point, looked for up to ctx.Root and
// no further, applies to the entry and to every file it imports (see
// findTSConfig). Every file the bundle read beyond the entry, the
// configuration files and the directories it looked in are recorded with
// ctx.Depend and ctx.DependDir, so that a cache re-runs the bundle when one
// changes (see bundle_inputs.go). An import that resolves outside ctx.Root
// is an error. Errors are SourceErrors "file:line:col: error: <esbuild's text>"
// with 1-based byte columns, naming the importing file; esbuild's warnings
// are dropped. An imported file that holds code, neither imports nor
// exports, and of which the bundle keeps nothing (a classic script, see
// bundle_classic.go) gives a warning on the main output (Asset.Warnings),
// an error with strict.

func init() {
	transform.Register("bundle", "1", "bundle an entry point and its imports (JS, TS, JSX, CSS, images, fonts) into one file with esbuild", transform.Content, newBundleStep)
}

// BundleOptions are the options of the bundle step. The zero value writes an
// ES module for es2020 that bundles every import, with no source map and
// no minification, and puts every imported image or font in its own file.
type BundleOptions struct {
	ESCodeOptions
	Format      string            `opt:"format" values:"esm|iife" doc:"esm writes an ES module, iife a script that runs itself; default esm"`
	External    []string          `opt:"external" doc:"import paths kept as imports instead of bundled; one * wildcard allowed (e.g. /vendor/*); default none"`
	Minify      bool              `opt:"minify" doc:"minify whitespace, syntax and local names of the JS and CSS output; default false"`
	GlobalName  string            `opt:"global-name" doc:"with format=iife, the global variable that receives the entry's exports; default none"`
	Loader      map[string]string `opt:"loader" doc:"how imports with an extension load, ext:loader with loader one of file, dataurl, text, base64, binary, copy, empty, js, jsx, ts, tsx, json, css; default: images and fonts file, .json json, .txt text"`
	InlineLimit int               `opt:"inline-limit" doc:"imported images and fonts of at most this many bytes become data: URLs instead of files; default 0 (always files)"`
	PublicPath  string            `opt:"public-path" doc:"URL prefix of imported files, e.g. /static/; default ./, which CSS resolves against itself but JavaScript against the page"`
}

// bundleAssetExts are the extensions of imported images and fonts, which
// load as files (or data: URLs under inline-limit) unless a loader option
// says otherwise.
var bundleAssetExts = []string{".avif", ".eot", ".gif", ".ico", ".jpeg", ".jpg", ".otf", ".png", ".svg", ".ttf", ".webp", ".woff", ".woff2"}

// bundleLoaders are the loader names of the loader option.
var bundleLoaders = map[string]api.Loader{
	"base64":  api.LoaderBase64,
	"binary":  api.LoaderBinary,
	"copy":    api.LoaderCopy,
	"css":     api.LoaderCSS,
	"dataurl": api.LoaderDataURL,
	"empty":   api.LoaderEmpty,
	"file":    api.LoaderFile,
	"js":      api.LoaderJS,
	"json":    api.LoaderJSON,
	"jsx":     api.LoaderJSX,
	"text":    api.LoaderText,
	"ts":      api.LoaderTS,
	"tsx":     api.LoaderTSX,
}

// bundleEntryLoaders maps the extensions of entry points to their loaders.
var bundleEntryLoaders = map[string]api.Loader{
	".cjs": api.LoaderJS,
	".css": api.LoaderCSS,
	".cts": api.LoaderTS,
	".js":  api.LoaderJS,
	".jsx": api.LoaderJSX,
	".mjs": api.LoaderJS,
	".mts": api.LoaderTS,
	".ts":  api.LoaderTS,
	".tsx": api.LoaderTSX,
}

// bundleAssetNames names imported files in the output, relative to the
// directory of the bundle. The hash is of the file's bytes.
const bundleAssetNames = "assets/[name]-[hash]"

// bundleStep is the bundle step; opts is the part of esbuild's options that
// is the same for every entry point.
type bundleStep struct {
	opts        api.BuildOptions
	inlineLimit int
	inlineExts  []string       // asset extensions subject to inline-limit
	absorbed    transform.Step // the minify step after it, when it absorbed it (absorb.go)
}

// Absorb returns the bundle step that minifies what it writes as well, when
// next is a minify step with its target (absorb.go).
func (s *bundleStep) Absorb(next transform.Step) (transform.Step, bool) {
	return absorbMinify(s, next, s.opts.Target, func(f *bundleStep, m *minifyStep) {
		f.opts.MinifyWhitespace, f.opts.MinifyIdentifiers, f.opts.MinifySyntax = true, true, true
		f.absorbed = m
	})
}

var _ transform.Absorber = (*bundleStep)(nil)
var _ transform.Step = (*bundleStep)(nil)

func newBundleStep(o BundleOptions) (transform.Step, error) {
	target, err := esTarget(o.Target)
	if err != nil {
		return nil, err
	}
	s := &bundleStep{
		inlineLimit: o.InlineLimit,
		opts: api.BuildOptions{
			Bundle:            true,
			Write:             false,
			Metafile:          true,
			Platform:          api.PlatformBrowser,
			Format:            api.FormatESModule,
			Target:            target,
			Define:            o.Define,
			GlobalName:        o.GlobalName,
			MinifyWhitespace:  o.Minify,
			MinifyIdentifiers: o.Minify,
			MinifySyntax:      o.Minify,
			AssetNames:        bundleAssetNames,
			PublicPath:        o.PublicPath,
			Banner:            bannerFor(o.Banner),
			Footer:            bannerFor(o.Footer),
			LogLevel:          api.LogLevelSilent,
			// Paths stay as the source tree names them: no machine- or
			// sandbox-specific real path gets into the output.
			PreserveSymlinks: true,
			Loader: map[string]api.Loader{
				".json": api.LoaderJSON,
				".txt":  api.LoaderText,
			},
		},
	}
	switch o.Format {
	case "", "esm":
	case "iife":
		s.opts.Format = api.FormatIIFE
	default:
		return nil, fmt.Errorf("%w: format %q is not one of esm, iife", transform.ErrBadOption, o.Format)
	}
	if o.GlobalName != "" && s.opts.Format != api.FormatIIFE {
		return nil, fmt.Errorf("%w: global-name needs format=iife", transform.ErrBadOption)
	}
	if s.opts.Sourcemap, err = esSourcemap(o.Sourcemap, api.SourceMapLinked); err != nil {
		return nil, err
	}
	if o.InlineLimit < 0 {
		return nil, fmt.Errorf("%w: inline-limit %d is negative", transform.ErrBadOption, o.InlineLimit)
	}
	for _, e := range o.External {
		if e == "" || strings.Count(e, "*") > 1 {
			return nil, fmt.Errorf("%w: external %q must be a non-empty path with at most one *", transform.ErrBadOption, e)
		}
	}
	s.opts.External = o.External
	for _, ext := range bundleAssetExts {
		s.opts.Loader[ext] = api.LoaderFile
	}
	overridden := make(map[string]bool)
	for ext, name := range o.Loader {
		l, ok := bundleLoaders[name]
		if !ok {
			return nil, fmt.Errorf("%w: loader %q for %q is not one of %s", transform.ErrBadOption, name, ext, strings.Join(slices.Sorted(maps.Keys(bundleLoaders)), ", "))
		}
		ext = strings.ToLower(ext)
		if !strings.HasPrefix(ext, ".") {
			ext = "." + ext
		}
		if strings.ContainsAny(ext[1:], "./\\*") || len(ext) == 1 {
			return nil, fmt.Errorf("%w: loader key %q is not a file extension", transform.ErrBadOption, ext)
		}
		s.opts.Loader[ext] = l
		overridden[ext] = true
	}
	if s.inlineLimit > 0 {
		for _, ext := range bundleAssetExts {
			if !overridden[ext] {
				s.inlineExts = append(s.inlineExts, ext)
			}
		}
	}
	// A trial transform checks define values and the global name, which
	// esbuild checks only when it runs.
	trial := api.TransformOptions{Define: o.Define, GlobalName: o.GlobalName, Format: s.opts.Format, Target: target}
	if r := api.Transform("", trial); len(r.Errors) > 0 {
		return nil, esOptionsError(r.Errors)
	}
	return s, nil
}

// Run bundles each entry point among in and passes the other assets
// through.
func (s *bundleStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(s.one).Run(ctx, in)
}

func (s *bundleStep) one(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
	ext := strings.ToLower(path.Ext(a.Path))
	loader, ok := bundleEntryLoaders[ext]
	if !ok {
		return []*transform.Asset{a}, nil
	}
	root, err := filepath.Abs(ctx.Root)
	if err != nil {
		return nil, err
	}
	entry, err := filepath.Abs(sourceOnDisk(ctx, sourceName(a)))
	if err != nil {
		return nil, err
	}
	entryRel, err := filepath.Rel(root, entry)
	if err != nil {
		return nil, err
	}
	entryRel = filepath.ToSlash(entryRel)
	if strings.ContainsRune(entry, '*') {
		// esbuild would take the name for a pattern.
		return nil, fmt.Errorf("bundle: entry point name %q contains *", entryRel)
	}
	outDir := filepath.Join(root, filepath.FromSlash(path.Dir(a.Path)))
	stem := strings.TrimSuffix(path.Base(a.Path), path.Ext(a.Path))

	opts := s.opts
	opts.AbsWorkingDir = root
	opts.Outdir = outDir
	opts.EntryPointsAdvanced = []api.EntryPoint{{InputPath: entry, OutputPath: stem}}
	opts.Plugins = []api.Plugin{s.entryPlugin(entry, a.Data, loader)}
	if s.inlineLimit > 0 {
		opts.Plugins = append(opts.Plugins, s.inlinePlugin())
	}
	if cfg := findTSConfig(root, filepath.Dir(entry)); cfg != "" {
		opts.Tsconfig = cfg
		if err := dependTSConfig(ctx, root, cfg); err != nil {
			return nil, err
		}
	} else {
		opts.TsconfigRaw = "{}" // and esbuild looks for none
	}

	r, err := runBuild(ctx, opts)
	if err != nil {
		return nil, err
	}
	if len(r.Errors) > 0 {
		return nil, s.buildError(ctx, a, root, entryRel, r.Errors)
	}
	inputs, err := bundleInputs(r.Metafile)
	if err != nil {
		return nil, fmt.Errorf("reading esbuild metafile: %w", err)
	}
	read := []string{entry}
	defer func() { dependLookups(ctx, root, read) }()
	for _, in := range inputs {
		if in.path == entryRel {
			continue
		}
		if in.path == ".." || strings.HasPrefix(in.path, "../") || path.IsAbs(in.path) {
			importer := in.importer
			if importer == entryRel {
				importer = sourceName(a)
			}
			return nil, &transform.SourceError{File: importer, Msg: fmt.Sprintf("import %q resolves outside the source root", in.original)}
		}
		file := filepath.Join(root, filepath.FromSlash(in.path))
		ctx.Depend(file)
		read = append(read, file)
	}

	main := stem + ".js"
	if loader == api.LoaderCSS {
		main = stem + ".css"
	}
	warnings, err := classicScriptWarnings(root, r.Metafile, entryRel, path.Join(path.Dir(a.Path), main))
	if err != nil {
		return nil, fmt.Errorf("reading esbuild metafile: %w", err)
	}
	var out []*transform.Asset
	for _, f := range r.OutputFiles {
		rel, err := filepath.Rel(outDir, f.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("esbuild wrote %q outside the output directory", f.Path)
		}
		rel = filepath.ToSlash(rel)
		// Imported files are named by esbuild after their bytes
		// (bundleAssetNames): served as immutable under that name.
		o := &transform.Asset{Path: path.Join(path.Dir(a.Path), rel), Source: sourceName(a), Data: f.Contents,
			Fingerprinted: strings.HasPrefix(rel, "assets/")}
		if rel == main {
			o = a.Clone()
			o.Path, o.Source, o.Type, o.Encodings, o.Data = path.Join(path.Dir(a.Path), rel), sourceName(a), "", nil, f.Contents
			o.Warnings = append(o.Warnings, warnings...)
		}
		o.Absorbed = s.absorbed
		out = append(out, o)
	}
	mainPath := path.Join(path.Dir(a.Path), main)
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Path == mainPath) != (out[j].Path == mainPath) {
			return out[i].Path == mainPath
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}

// entryPlugin makes esbuild read the entry point's bytes from the asset
// rather than from disk, and accept the entry even when no file exists at
// its path (an earlier step may have made it).
func (s *bundleStep) entryPlugin(entry string, data []byte, loader api.Loader) api.Plugin {
	filter := "^" + regexp.QuoteMeta(entry) + "$"
	return api.Plugin{Name: "bakefs-entry", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: filter}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
			if args.Kind != api.ResolveEntryPoint {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: entry, Namespace: "file"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: filter, Namespace: "file"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			contents := string(data)
			return api.OnLoadResult{Contents: &contents, Loader: loader}, nil
		})
	}}
}

// inlinePlugin loads images and fonts of at most inlineLimit bytes as data:
// URLs, and larger ones as files.
func (s *bundleStep) inlinePlugin() api.Plugin {
	exts := make([]string, len(s.inlineExts))
	for i, e := range s.inlineExts {
		exts[i] = regexp.QuoteMeta(e)
	}
	filter := `(?i)(` + strings.Join(exts, "|") + `)$`
	return api.Plugin{Name: "bakefs-inline-limit", Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: filter, Namespace: "file"}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := os.ReadFile(args.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			contents := string(data)
			loader := api.LoaderFile
			if len(data) <= s.inlineLimit {
				loader = api.LoaderDataURL
			}
			return api.OnLoadResult{Contents: &contents, Loader: loader}, nil
		})
	}}
}

// runBuild runs esbuild, cancelling it when ctx is done.
//
// It leaves the garbage collector alone. esbuild's command-line tool turns
// collection off for its one-shot process; here BenchmarkBundleGC measured
// a 1000-module bundle at about 0.7 to 0.8 of the default's time with
// collection off (GOGC=400 gains about as much), for some 80 MB of garbage
// left per bundle instead of 27. But debug.SetGCPercent is process-wide:
// in a server or dev server it would stop collection for every concurrent
// request and bundle too, concurrent bundles saving and restoring it can
// leave it off for good, and it overrides the program's own GOGC and
// GOMEMLIMIT. A one-shot command may raise GOGC for itself instead.
func runBuild(ctx *transform.Context, opts api.BuildOptions) (api.BuildResult, error) {
	bc, cerr := api.Context(opts)
	if cerr != nil {
		return api.BuildResult{Errors: cerr.Errors}, nil
	}
	defer bc.Dispose()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			bc.Cancel()
		case <-done:
		}
	}()
	r := bc.Rebuild()
	if err := ctx.Err(); err != nil {
		return api.BuildResult{}, err
	}
	return r, nil
}

// buildError converts esbuild's errors. Positions in other files are
// positions on disk; positions in the entry are positions in the asset's
// bytes, which are the source's only when no earlier step changed them.
//
// The files that errors point at are recorded with ctx.Depend (esbuild
// gives no list of inputs for a failed build), so that a watcher knows to
// try again when one is fixed.
func (s *bundleStep) buildError(ctx *transform.Context, a *transform.Asset, root, entryRel string, msgs []api.Message) error {
	inEntry := false
	for _, m := range msgs {
		if m.Location == nil || m.Location.File == "" {
			continue
		}
		switch f := m.Location.File; {
		case f == entryRel:
			inEntry = true
		case !path.IsAbs(f) && f != ".." && !strings.HasPrefix(f, "../") && !strings.Contains(f, ":"):
			ctx.Depend(filepath.Join(root, filepath.FromSlash(f)))
		}
	}
	if !inEntry {
		return esMessagesError(msgs, func(f string) string { return f }, sourceName(a))
	}
	return placeError(ctx, a, func(entryName string) error {
		return esMessagesError(msgs, func(f string) string {
			if f == entryRel {
				return entryName
			}
			return f
		}, sourceName(a))
	})
}

// A bundleInput is one file esbuild read, as its metafile names it
// (relative to the working directory, slash-separated), with the first
// file that imported it.
type bundleInput struct {
	path, importer, original string
}

// bundleInputs lists the file inputs of an esbuild metafile, sorted.
func bundleInputs(metafile string) ([]bundleInput, error) {
	var meta struct {
		Inputs map[string]struct {
			Imports []struct {
				Path     string `json:"path"`
				Original string `json:"original"`
				External bool   `json:"external"`
			} `json:"imports"`
		} `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil, err
	}
	if meta.Inputs == nil {
		return nil, errors.New("no inputs")
	}
	importers := make(map[string]bundleInput)
	for _, p := range slices.Sorted(maps.Keys(meta.Inputs)) {
		for _, imp := range meta.Inputs[p].Imports {
			if _, seen := importers[imp.Path]; !seen && !imp.External {
				importers[imp.Path] = bundleInput{importer: p, original: imp.Original}
			}
		}
	}
	var inputs []bundleInput
	for _, p := range slices.Sorted(maps.Keys(meta.Inputs)) {
		if ns, _, ok := strings.Cut(p, ":"); ok && !strings.Contains(ns, "/") {
			continue // a virtual module of a namespace other than file
		}
		in := importers[p]
		in.path = p
		if in.original == "" {
			in.original = p
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}
