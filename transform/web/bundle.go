package web

import (
	"cmp"
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
// writes one file with everything it needs, and chunks that several
// entries share or that the code loads with import():
//
//	bundle                              app.ts → app.js (ES module, es2020)
//	bundle:chunk-names=chunks/[name]-[hash]   chunks in chunks/
//	bundle:splitting=false              one self-contained file per entry
//	bundle:jsx=automatic,jsx-import-source=preact   JSX without a tsconfig
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
//   - <output>.map files with sourcemap=external;
//   - with code splitting (format=esm, on unless splitting=false), chunks.
//
// Code splitting bundles every entry point of one run together (a rule's
// several match files, a Bazel rule's several srcs: the step is a
// transform.Joiner): code that two entries share goes into a shared chunk,
// and each import() into a chunk of its own that the browser loads on
// demand, as esbuild's --splitting does, byte for byte. Chunks are named by
// chunk-names relative to the entries' common directory, contain their
// content hash and are marked Fingerprinted (served immutable, never
// hashed again); CSS that a chunk imports is split with it. Each
// JavaScript output records the chunks it imports (Asset.Imports), loads
// on demand (DynamicImports) and the style sheets it needs (CSS), by
// output path: the manifest's module graph. A single entry gives the same
// main output with splitting as without, and chunks only for its import()s.
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
	transform.Register("bundle", "2", "bundle an entry point and its imports (JS, TS, JSX, CSS, images, fonts) into one file with esbuild", transform.Content, newBundleStep)
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
	Splitting   string            `opt:"splitting" values:"true|false" doc:"with format=esm, bundle the entries of a rule together: code they share goes into shared chunks, and each import() into a chunk loaded on demand; default true with format=esm"`
	ChunkNames  string            `opt:"chunk-names" doc:"names of chunks relative to the entries' directory, with esbuild's placeholders [name] (chunk for a shared one) and [hash] (required); default [name]-[hash]"`
	JSXSettings
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
	inlineExts  []string // asset extensions subject to inline-limit
	splitting   bool
	chunkNames  *regexp.Regexp // matches the paths of chunks under the output directory
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
	if s.opts.JSX, err = o.mode(); err != nil {
		return nil, err
	}
	s.opts.JSXFactory, s.opts.JSXFragment, s.opts.JSXImportSource = o.JSXFactory, o.JSXFragment, o.JSXImportSource
	if err := s.setSplitting(o); err != nil {
		return nil, err
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
	// esbuild checks only when it runs; without either there is nothing
	// to check, and a trial costs a few hundred kilobytes.
	if len(o.Define) > 0 || o.GlobalName != "" {
		trial := api.TransformOptions{Define: o.Define, GlobalName: o.GlobalName, Format: s.opts.Format, Target: target}
		if r := api.Transform("", trial); len(r.Errors) > 0 {
			return nil, esOptionsError(r.Errors)
		}
	}
	return s, nil
}

// Run bundles the entry points among in and passes the other assets
// through: with splitting, all of them in one build, sharing chunks;
// without, each in a build of its own.
func (s *bundleStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	if !s.splitting {
		return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
			if !isBundleEntry(a) {
				return []*transform.Asset{a}, nil
			}
			return s.build(ctx, []*transform.Asset{a})
		}).Run(ctx, in)
	}
	var entries, others []*transform.Asset
	for _, a := range in {
		if isBundleEntry(a) {
			entries = append(entries, a)
		} else {
			others = append(others, a)
		}
	}
	if len(entries) == 0 {
		return in, nil
	}
	out, err := s.build(ctx, entries)
	if err != nil {
		return nil, err
	}
	return append(out, others...), nil
}

// Joins reports whether the step bundles the entries of a rule together:
// with splitting.
func (s *bundleStep) Joins() bool { return s.splitting }

var _ transform.Joiner = (*bundleStep)(nil)

// isBundleEntry reports whether a is an entry point by its extension.
func isBundleEntry(a *transform.Asset) bool {
	_, ok := bundleEntryLoaders[strings.ToLower(path.Ext(a.Path))]
	return ok
}

// A bundleEntry is one entry point of a build.
type bundleEntry struct {
	asset  *transform.Asset
	file   string // absolute
	rel    string // relative to the root, slash-separated, as the metafile names it
	loader api.Loader
	main   string // logical path of its main output: <stem>.js or <stem>.css
}

// build bundles entries in one esbuild build: their main outputs (each a
// clone of its entry's asset), then the other files esbuild wrote, by
// path.
func (s *bundleStep) build(ctx *transform.Context, assets []*transform.Asset) ([]*transform.Asset, error) {
	root, err := filepath.Abs(ctx.Root)
	if err != nil {
		return nil, err
	}
	dir := path.Dir(assets[0].Path)
	for _, a := range assets[1:] {
		dir = commonDir(dir, path.Dir(a.Path))
	}
	base := bundleBase(ctx, root, assets)
	outDir := filepath.Join(base, filepath.FromSlash(dir))
	entries := make([]*bundleEntry, len(assets))
	byRel := make(map[string]*bundleEntry)
	opts := s.opts
	opts.AbsWorkingDir = base
	opts.Outdir = outDir
	for i, a := range assets {
		e, err := newBundleEntry(ctx, base, dir, a)
		if err != nil {
			return nil, err
		}
		entries[i], byRel[e.rel] = e, e
		stem := strings.TrimSuffix(relDir(dir, a.Path), path.Ext(a.Path))
		opts.EntryPointsAdvanced = append(opts.EntryPointsAdvanced, api.EntryPoint{InputPath: e.file, OutputPath: stem})
	}
	opts.Plugins = []api.Plugin{entryPlugin(entries)}
	if s.inlineLimit > 0 {
		opts.Plugins = append(opts.Plugins, s.inlinePlugin())
	}
	if cfg := findTSConfig(root, filepath.Dir(entries[0].file)); cfg != "" {
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
		return nil, s.buildError(ctx, root, base, byRel, r.Errors)
	}
	meta, err := parseBundleMeta(r.Metafile)
	if err != nil {
		return nil, fmt.Errorf("reading esbuild metafile: %w", err)
	}
	if err := dependBundleInputs(ctx, root, base, meta, byRel); err != nil {
		return nil, err
	}
	var mains []string
	for _, e := range entries {
		mains = append(mains, e.main)
	}
	warnings, err := classicScriptWarnings(base, meta, byRel, strings.Join(mains, ", "))
	if err != nil {
		return nil, err
	}
	return s.outputs(r.OutputFiles, outDir, dir, meta, entries, warnings)
}

// bundleBase returns the directory that esbuild runs in and names files
// relative to: the entries' logical root, the directory that holds each
// entry's file at its logical source path (the project's src for bakefs
// build; for Bazel's asset_transform, the package directory with
// strip_prefix), so that the bytes, and the content hashes in chunk
// names, are the same however the files are laid out on disk. It is root
// when the entries have no one such directory inside root.
func bundleBase(ctx *transform.Context, root string, assets []*transform.Asset) string {
	base := ""
	for _, a := range assets {
		file, err := filepath.Abs(sourceOnDisk(ctx, sourceName(a)))
		if err != nil {
			return root
		}
		dir, ok := strings.CutSuffix(filepath.ToSlash(file), "/"+sourceName(a))
		if !ok || base != "" && dir != base {
			return root
		}
		base = dir
	}
	if _, inside := transform.RelativeTo(root, filepath.FromSlash(base)); !inside {
		return root
	}
	return filepath.FromSlash(base)
}

// newBundleEntry describes the entry point a, whose outputs go to the
// logical directory dir.
func newBundleEntry(ctx *transform.Context, root, dir string, a *transform.Asset) (*bundleEntry, error) {
	file, err := filepath.Abs(sourceOnDisk(ctx, sourceName(a)))
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return nil, err
	}
	if strings.ContainsRune(file, '*') {
		// esbuild would take the name for a pattern.
		return nil, fmt.Errorf("bundle: entry point name %q contains *", filepath.ToSlash(rel))
	}
	ext := strings.ToLower(path.Ext(a.Path))
	e := &bundleEntry{asset: a, file: file, rel: filepath.ToSlash(rel), loader: bundleEntryLoaders[ext]}
	e.main = strings.TrimSuffix(a.Path, path.Ext(a.Path)) + ".js"
	if e.loader == api.LoaderCSS {
		e.main = strings.TrimSuffix(e.main, ".js") + ".css"
	}
	return e, nil
}

// outputs turns the files esbuild wrote into assets: each entry's main
// output a clone of the entry with the warnings on the first, the others
// named by their path under dir, content-named (Fingerprinted) when
// esbuild put a hash in the name (imported files, chunks), and every
// JavaScript output with its module graph.
func (s *bundleStep) outputs(files []api.OutputFile, outDir, dir string, meta *bundleMeta, entries []*bundleEntry, warnings []*transform.SourceError) ([]*transform.Asset, error) {
	mainOf := make(map[string]*bundleEntry)
	sourceOf := make(map[string]string) // the outputs that belong to one entry
	for _, e := range entries {
		mainOf[e.main] = e
		sourceOf[e.main] = sourceName(e.asset)
		if css := meta.Outputs[e.main].CSSBundle; css != "" {
			sourceOf[css] = sourceName(e.asset)
		}
	}
	var mains, rest []*transform.Asset
	for _, f := range files {
		rel, err := filepath.Rel(outDir, f.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("esbuild wrote %q outside the output directory", f.Path)
		}
		logical := path.Join(dir, filepath.ToSlash(rel))
		if e := mainOf[logical]; e != nil {
			o := e.asset.Clone()
			o.Path, o.Source, o.Type, o.Encodings, o.Data = logical, sourceName(e.asset), "", nil, f.Contents
			if e == entries[0] {
				o.Warnings = append(o.Warnings, warnings...)
			}
			o.Imports, o.DynamicImports, o.CSS = meta.graph(logical)
			o.Absorbed = s.absorbed
			mains = append(mains, o)
			continue
		}
		o := &transform.Asset{Path: logical, Source: sourceOf[strings.TrimSuffix(logical, ".map")], Data: f.Contents, Absorbed: s.absorbed}
		_, owned := sourceOf[logical]
		o.Fingerprinted = !owned && !strings.HasSuffix(logical, ".map") && s.contentNamed(filepath.ToSlash(rel))
		if o.Source == "" {
			o.Source = meta.Outputs[logical].EntryPoint // a chunk that import() loads
		}
		if o.Source == "" {
			o.Source = logical // a chunk that entries or chunks share, and its CSS
			if len(entries) == 1 && !s.isChunk(filepath.ToSlash(rel)) {
				o.Source = sourceName(entries[0].asset) // a file the one entry imports
			}
		}
		o.Imports, o.DynamicImports, o.CSS = meta.graph(logical)
		rest = append(rest, o)
	}
	sort.Slice(mains, func(i, j int) bool { return mains[i].Path < mains[j].Path })
	sort.Slice(rest, func(i, j int) bool { return rest[i].Path < rest[j].Path })
	return append(mains, rest...), nil
}

// contentNamed reports whether esbuild named an output, by its path under
// the output directory, after its bytes: an imported file
// (bundleAssetNames) or a chunk (chunk-names, which holds [hash]).
func (s *bundleStep) contentNamed(rel string) bool {
	return strings.HasPrefix(rel, "assets/") || s.isChunk(rel)
}

// isChunk reports whether the output at rel under the output directory is
// a chunk of code splitting (or its CSS): its name matches chunk-names.
func (s *bundleStep) isChunk(rel string) bool {
	return s.chunkNames != nil && s.chunkNames.MatchString(rel)
}

// commonDir returns the deepest directory that holds both slash-separated
// directories a and b, "." for none.
func commonDir(a, b string) string {
	for a != b {
		if len(a) > len(b) {
			a = path.Dir(a)
		} else {
			b = path.Dir(b)
		}
		if a == "." || b == "." {
			return "."
		}
	}
	return a
}

// relDir returns the slash-separated name p relative to its directory dir
// (see commonDir).
func relDir(dir, p string) string {
	if dir == "." {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}

// entryPlugin makes esbuild read the entry points' bytes from their
// assets rather than from disk, and accept an entry even when no file
// exists at its path (an earlier step may have made it).
func entryPlugin(entries []*bundleEntry) api.Plugin {
	byFile := make(map[string]*bundleEntry)
	var names []string
	for _, e := range entries {
		byFile[e.file] = e
		names = append(names, regexp.QuoteMeta(e.file))
	}
	filter := "^(" + strings.Join(names, "|") + ")$"
	return api.Plugin{Name: "bakefs-entry", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: filter}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
			if args.Kind != api.ResolveEntryPoint {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: args.Path, Namespace: "file"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: filter, Namespace: "file"}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			e := byFile[args.Path]
			contents := string(e.asset.Data)
			return api.OnLoadResult{Contents: &contents, Loader: e.loader}, nil
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
// positions on disk; positions in an entry are positions in its asset's
// bytes, which are the source's only when no earlier step changed them.
//
// The files that errors point at are recorded with ctx.Depend (esbuild
// gives no list of inputs for a failed build), so that a watcher knows to
// try again when one is fixed.
func (s *bundleStep) buildError(ctx *transform.Context, root, base string, entries map[string]*bundleEntry, msgs []api.Message) error {
	var first *bundleEntry // of the entries that errors point into
	for _, m := range msgs {
		if m.Location == nil || m.Location.File == "" {
			continue
		}
		switch f := m.Location.File; {
		case entries[f] != nil:
			if first == nil {
				first = entries[f]
			}
		case !path.IsAbs(f) && !strings.Contains(f, ":"):
			if file := filepath.Join(base, filepath.FromSlash(f)); isInside(root, file) {
				ctx.Depend(file)
			}
		}
	}
	fallback := ""
	for _, e := range entries {
		if fallback == "" || sourceName(e.asset) < fallback {
			fallback = sourceName(e.asset)
		}
	}
	if first == nil {
		return esMessagesError(msgs, func(f string) string { return f }, fallback)
	}
	return placeError(ctx, first.asset, func(entryName string) error {
		return esMessagesError(msgs, func(f string) string {
			if e := entries[f]; e == first {
				return entryName
			} else if e != nil {
				return sourceName(e.asset)
			}
			return f
		}, fallback)
	})
}

// defaultChunkNames is esbuild's own default.
const defaultChunkNames = "[name]-[hash]"

// setSplitting sets splitting and chunk names from the options.
func (s *bundleStep) setSplitting(o BundleOptions) error {
	esm := s.opts.Format == api.FormatESModule
	switch {
	case o.Splitting == "true" && !esm:
		return fmt.Errorf("%w: splitting needs format=esm", transform.ErrBadOption)
	case o.Splitting == "false" || !esm:
		if o.ChunkNames != "" {
			return fmt.Errorf("%w: chunk-names needs splitting", transform.ErrBadOption)
		}
		return nil
	}
	names := cmp.Or(o.ChunkNames, defaultChunkNames)
	if !strings.Contains(names, "[hash]") {
		return fmt.Errorf("%w: chunk-names %q must hold [hash]: chunks are served as immutable under their names", transform.ErrBadOption, names)
	}
	if strings.HasPrefix(names, "/") || strings.Contains(names, "\\") || slices.Contains(strings.Split(names, "/"), "..") {
		return fmt.Errorf("%w: chunk-names %q must be a relative slash-separated name within the entries' directory", transform.ErrBadOption, names)
	}
	pattern := regexp.QuoteMeta(names)
	for placeholder, re := range map[string]string{`\[name\]`: `[^/]+`, `\[hash\]`: `[A-Z2-7]{8}`} {
		pattern = strings.ReplaceAll(pattern, placeholder, re)
	}
	s.chunkNames = regexp.MustCompile("^" + pattern + `\.(js|css)$`)
	s.splitting, s.opts.Splitting, s.opts.ChunkNames = true, true, names
	return nil
}
