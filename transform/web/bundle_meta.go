package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// bundleMeta is the part of esbuild's metafile that the bundle step reads.
// Paths are relative to the build's working directory, the source root,
// and slash-separated; an output's path is thus its logical path.
type bundleMeta struct {
	Inputs map[string]struct {
		Bytes   int    `json:"bytes"`
		Format  string `json:"format"`
		Imports []struct {
			Path     string `json:"path"`
			Original string `json:"original"`
			External bool   `json:"external"`
		} `json:"imports"`
	} `json:"inputs"`
	Outputs map[string]struct {
		Imports []struct {
			Path     string `json:"path"`
			Kind     string `json:"kind"`
			External bool   `json:"external"`
		} `json:"imports"`
		EntryPoint string `json:"entryPoint"`
		CSSBundle  string `json:"cssBundle"`
		Inputs     map[string]struct {
			BytesInOutput int `json:"bytesInOutput"`
		} `json:"inputs"`
	} `json:"outputs"`
}

func parseBundleMeta(metafile string) (*bundleMeta, error) {
	var m bundleMeta
	if err := json.Unmarshal([]byte(metafile), &m); err != nil {
		return nil, err
	}
	if m.Inputs == nil {
		return nil, errors.New("no inputs")
	}
	return &m, nil
}

// graph returns the module graph of the output at logical path p: the
// outputs it imports statically and with import(), and its CSS, each
// sorted and without duplicates (see transform.Asset.Imports). Imports
// of files that are not outputs (external ones) are left out.
func (m *bundleMeta) graph(p string) (imports, dynamic, css []string) {
	out, ok := m.Outputs[p]
	if !ok || !strings.HasSuffix(p, ".js") {
		return nil, nil, nil
	}
	for _, imp := range out.Imports {
		if _, isOutput := m.Outputs[imp.Path]; imp.External || !isOutput {
			continue
		}
		switch imp.Kind {
		case "import-statement":
			imports = append(imports, imp.Path)
		case "dynamic-import":
			dynamic = append(dynamic, imp.Path)
		}
	}
	if out.CSSBundle != "" {
		css = []string{out.CSSBundle}
	}
	return sortedSet(imports), sortedSet(dynamic), css
}

// sortedSet returns xs sorted without duplicates, nil when empty.
func sortedSet(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// A bundleInput is one file esbuild read, as the metafile names it, with
// the first file that imported it.
type bundleInput struct {
	path, importer, original string
}

// inputs lists the file inputs of the build, sorted.
func (m *bundleMeta) inputs() []bundleInput {
	importers := make(map[string]bundleInput)
	for _, p := range slices.Sorted(maps.Keys(m.Inputs)) {
		for _, imp := range m.Inputs[p].Imports {
			if _, seen := importers[imp.Path]; !seen && !imp.External {
				importers[imp.Path] = bundleInput{importer: p, original: imp.Original}
			}
		}
	}
	var inputs []bundleInput
	for _, p := range slices.Sorted(maps.Keys(m.Inputs)) {
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
	return inputs
}

// dependBundleInputs records every file the build read other than the
// entries with ctx.Depend, and the directories esbuild looked in for them
// (dependLookups). Metafile paths are relative to base (bundleBase). An
// input outside the root is an error naming the
// importing file.
func dependBundleInputs(ctx *transform.Context, root, base string, meta *bundleMeta, entries map[string]*bundleEntry) error {
	var read []string
	for _, e := range entries {
		read = append(read, e.file)
	}
	slices.Sort(read)
	defer func() { dependLookups(ctx, root, read) }()
	for _, in := range meta.inputs() {
		if entries[in.path] != nil {
			continue
		}
		file := filepath.Join(base, filepath.FromSlash(in.path))
		if path.IsAbs(in.path) || !isInside(root, file) {
			importer := in.importer
			if e := entries[importer]; e != nil {
				importer = sourceName(e.asset)
			}
			return &transform.SourceError{File: importer, Msg: fmt.Sprintf("import %q resolves outside the source root", in.original)}
		}
		ctx.Depend(file)
		read = append(read, file)
	}
	return nil
}

// isInside reports whether file is root or inside it.
func isInside(root, file string) bool {
	_, ok := transform.RelativeTo(root, file)
	return ok
}
