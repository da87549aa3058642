package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// This file decides which configuration a bundle reads and records
// everything that can change a bundle's bytes beyond its input: the files
// esbuild read, the tsconfig.json (or jsconfig.json) that applies and the
// files it extends, the package.json files that steer resolution, and the
// listings of every directory in which esbuild looked for a file, so that
// a file appearing where it would win a lookup (lib/util.ts beside
// lib/util.js, a closer tsconfig.json, a node_modules directory) runs the
// bundle again.

// tsconfigNames are the configuration files esbuild reads, in the order it
// prefers them within one directory.
var tsconfigNames = []string{"tsconfig.json", "jsconfig.json"}

// findTSConfig returns the tsconfig.json or jsconfig.json that applies to
// an entry point in dir: the nearest one in dir or a parent, stopping at
// root, or "" when there is none. Nothing above root is looked at, so a
// project's output does not depend on where it is checked out. esbuild is
// then given this one file for the entry point and everything it imports
// (one rule for all the bundle's files), or an empty configuration when
// there is none.
func findTSConfig(root, dir string) string {
	if _, ok := transform.RelativeTo(root, dir); !ok {
		return ""
	}
	for {
		for _, name := range tsconfigNames {
			file := filepath.Join(dir, name)
			if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
				return file
			}
		}
		if dir == root {
			return ""
		}
		parent := filepath.Dir(dir)
		if _, ok := transform.RelativeTo(root, parent); !ok || parent == dir {
			return ""
		}
		dir = parent
	}
}

// dependTSConfig records a tsconfig file and, following "extends", the
// files it extends. An extended file outside root is an error.
func dependTSConfig(ctx *transform.Context, root, file string) error {
	for depth := 0; file != ""; depth++ {
		if depth > 16 {
			return fmt.Errorf("%s: tsconfig extends more than 16 levels deep", relOrAbs(root, file))
		}
		ctx.Depend(file)
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var cfg struct {
			Extends json.RawMessage `json:"extends"`
		}
		if json.Unmarshal(stripJSONC(data), &cfg) != nil || len(cfg.Extends) == 0 {
			return nil // esbuild reports a malformed file itself
		}
		var extends []string
		var one string
		if json.Unmarshal(cfg.Extends, &one) == nil {
			extends = []string{one}
		} else if json.Unmarshal(cfg.Extends, &extends) != nil {
			return nil
		}
		next := ""
		for _, spec := range extends {
			target, err := extendedTSConfig(ctx, root, filepath.Dir(file), spec)
			if err != nil {
				return fmt.Errorf("%s: extends %q: %w", relOrAbs(root, file), spec, err)
			}
			if target == "" {
				continue
			}
			if next != "" {
				if err := dependTSConfig(ctx, root, target); err != nil {
					return err
				}
				continue
			}
			next = target
		}
		file = next
	}
	return nil
}

// errOutsideRoot reports a file that a bundle would read from outside its
// source root.
var errOutsideRoot = errors.New("resolves outside the source root")

// extendedTSConfig finds the file a tsconfig "extends" names, as
// TypeScript does: a relative path with or without ".json", or a package
// under root's node_modules (its path, with ".json", or its
// tsconfig.json). The directories looked in are recorded.
func extendedTSConfig(ctx *transform.Context, root, dir, spec string) (string, error) {
	var candidates []string
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || filepath.IsAbs(spec) {
		base := spec
		if !filepath.IsAbs(base) {
			base = filepath.Join(dir, filepath.FromSlash(spec))
		}
		candidates = []string{base, base + ".json"}
	} else {
		base := filepath.Join(root, "node_modules", filepath.FromSlash(spec))
		candidates = []string{base, base + ".json", filepath.Join(base, "tsconfig.json")}
	}
	for _, c := range candidates {
		if _, ok := transform.RelativeTo(root, c); !ok {
			return "", errOutsideRoot
		}
		ctx.DependDir(filepath.Dir(c))
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, nil
		}
	}
	return "", nil
}

// dependLookups records, for every file a bundle read (absolute paths
// under root), the listing of each directory from the file's up to root,
// and the package.json files in them, which steer how imports resolve.
func dependLookups(ctx *transform.Context, root string, files []string) {
	seen := make(map[string]bool)
	for _, f := range files {
		for dir := filepath.Dir(f); !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			if _, ok := transform.RelativeTo(root, dir); !ok {
				break
			}
			ctx.DependDir(dir)
			if pj := filepath.Join(dir, "package.json"); isRegular(pj) {
				ctx.Depend(pj)
			}
			if dir == root {
				break
			}
		}
	}
}

func isRegular(file string) bool {
	fi, err := os.Stat(file)
	return err == nil && fi.Mode().IsRegular()
}

// relOrAbs names a file relative to root when it is inside it.
func relOrAbs(root, file string) string {
	if rel, ok := transform.RelativeTo(root, file); ok {
		return rel
	}
	return file
}

// stripJSONC turns the JSON-with-comments of tsconfig files into JSON:
// it blanks // and /* */ comments outside strings and drops commas before
// a closing bracket or brace.
func stripJSONC(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(data))
			out = append(out, data[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case c == ',':
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
