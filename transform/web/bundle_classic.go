package web

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/transform"
	"github.com/evanw/esbuild/pkg/api"
)

// A classic script (one with no import or export, written for a <script>
// tag) is a module once bundled: its top-level names are no longer
// globals, so esbuild keeps nothing of a file that only declares them, and
// the code of other files that used them throws at run time. The bundle
// step warns about each such file.

// scriptLoaders are the loaders of the files that can be classic scripts.
var scriptLoaders = map[string]api.Loader{
	".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS, ".jsx": api.LoaderJSX,
	".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS, ".tsx": api.LoaderTSX,
}

// classicScriptWarnings returns a warning for each file of the build
// other than its entries (metafile paths relative to root) that holds
// code but neither imports nor exports, and of which esbuild kept nothing
// in any output; bundle names the build's outputs in the message. A file
// without code (comments, TypeScript types) is no mistake.
func classicScriptWarnings(root string, meta *bundleMeta, entries map[string]*bundleEntry, bundle string) ([]*transform.SourceError, error) {
	kept := make(map[string]bool)
	for _, out := range meta.Outputs {
		for p, in := range out.Inputs {
			kept[p] = kept[p] || in.BytesInOutput > 0
		}
	}
	var warnings []*transform.SourceError
	for _, p := range slices.Sorted(maps.Keys(meta.Inputs)) {
		in := meta.Inputs[p]
		loader, script := scriptLoaders[strings.ToLower(path.Ext(p))]
		if entries[p] != nil || !script || in.Format != "" || in.Bytes == 0 || kept[p] {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		code := api.Transform(string(src), api.TransformOptions{Loader: loader, MinifyWhitespace: true, MinifySyntax: true, LogLevel: api.LogLevelSilent})
		if len(code.Errors) > 0 || strings.TrimSpace(string(code.Code)) == "" {
			continue
		}
		warnings = append(warnings, &transform.SourceError{File: p, Warning: true, Msg: fmt.Sprintf(
			"%s keeps nothing of this file: it neither imports nor exports, so once bundled its top-level names are not globals; "+
				"join classic scripts in order with the concat step, load one with its own <script> tag, or export what other files use", bundle)})
	}
	return warnings, nil
}
