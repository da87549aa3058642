package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// bundleProject builds entry under root with the bundle step and a cache,
// and returns the main output's text and the run's stats.
func bundleProject(t *testing.T, root, entry string, cache *Cache) (string, Stats) {
	t.Helper()
	chain, err := transform.ParseChain([]string{"bundle"})
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Path: entry, File: filepath.Join(root, filepath.FromSlash(entry)), Chain: chain}
	res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), []*Job{job})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.outputs {
		if strings.HasSuffix(o.Path, ".js") {
			data, err := fetch(o.data, o.blob, cache)
			if err != nil {
				t.Fatal(err)
			}
			return string(data), res.Stats
		}
	}
	t.Fatal("no JavaScript output")
	return "", Stats{}
}

// ageAll sets every file and directory under root an hour back, out of the
// cache's racy window, as files edited long before a build are.
func ageAll(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// TestBundleInputsInvalidate: every edit that changes what a bundle reads
// makes the cached bundle stale, and the incremental output equals a
// clean build's.
func TestBundleInputsInvalidate(t *testing.T) {
	base := map[string]string{
		"src/app.tsx":     "import {util} from './lib/util'\nexport const v = <b>{util}</b>\n",
		"src/lib/util.js": "export const util = 'from js'\n",
		"src/tsconfig.json": `{ // comments and trailing commas, as tsconfig files have
  "compilerOptions": {"jsx": "react", "jsxFactory": "h",},
}`,
	}
	for _, tc := range []struct {
		name string
		edit func(root string)
		want string // a text the new output holds
	}{
		{"a .ts beside the imported .js", func(root string) {
			write(t, root, "src/lib/util.ts", "export const util: string = 'from ts'\n")
		}, "from ts"},
		{"tsconfig edited", func(root string) {
			write(t, root, "src/tsconfig.json", `{"compilerOptions": {"jsx": "react", "jsxFactory": "preact.h"}}`)
		}, "preact.h("},
		{"a nearer tsconfig", func(root string) {
			write(t, root, "src/lib/tsconfig.json", `{"compilerOptions": {"jsx": "react", "jsxFactory": "near"}}`)
			write(t, root, "src/lib/app.tsx", "export const v = <i/>\n")
		}, ""},
		{"extended tsconfig edited", func(root string) {
			write(t, root, "src/tsconfig.json", `{"extends": "./base", "compilerOptions": {"jsx": "react"}}`)
			write(t, root, "src/base.json", `{"compilerOptions": {"jsxFactory": "based"}}`)
		}, "based("},
		{"a package.json with a browser field", func(root string) {
			write(t, root, "src/app.tsx", "import {util} from 'pkg'\nexport const v = <b>{util}</b>\n")
			write(t, root, "src/node_modules/pkg/package.json", `{"main": "main.js"}`)
			write(t, root, "src/node_modules/pkg/main.js", "export const util = 'main'\n")
		}, "main"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeSources(t, base)
			src := filepath.Join(root, "src")
			ageAll(t, root)
			cache := &Cache{Dir: t.TempDir()}
			first, _ := bundleProject(t, src, "app.tsx", cache)
			if !strings.Contains(first, "h(") {
				t.Fatalf("the entry does not use the tsconfig's factory:\n%s", first)
			}
			tc.edit(root)
			ageAll(t, root)
			incremental, st := bundleProject(t, src, "app.tsx", cache)
			clean, _ := bundleProject(t, src, "app.tsx", &Cache{Dir: t.TempDir()})
			if incremental != clean {
				t.Fatalf("incremental (%+v) differs from clean:\n%s\n---\n%s", st, incremental, clean)
			}
			if !strings.Contains(clean, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, clean)
			}
			if tc.name == "a package.json with a browser field" {
				write(t, root, "src/node_modules/pkg/package.json", `{"main": "main.js", "browser": {"./main.js": "./browser.js"}}`)
				write(t, root, "src/node_modules/pkg/browser.js", "export const util = 'browser'\n")
				ageAll(t, root)
				incremental, _ := bundleProject(t, src, "app.tsx", cache)
				if !strings.Contains(incremental, "browser") {
					t.Errorf("a browser field added to package.json is not seen:\n%s", incremental)
				}
			}
		})
	}
}

// TestBundleTSConfigRule: the tsconfig.json nearest to the entry within
// the source root applies to the entry and its imports alike; one above
// the source root is never read.
func TestBundleTSConfigRule(t *testing.T) {
	root := writeSources(t, map[string]string{
		"tsconfig.json":     `{"compilerOptions": {"jsx": "react", "jsxFactory": "outside"}}`,
		"src/app.tsx":       "import {B} from './b'\nexport const a = <a/>, b = B\n",
		"src/b.tsx":         "export const B = <b/>\n",
		"src/sub/other.tsx": "export const o = <o/>\n",
	})
	src := filepath.Join(root, "src")
	out, _ := bundleProject(t, src, "app.tsx", nil)
	if strings.Contains(out, "outside") {
		t.Fatalf("a tsconfig.json above the source root was read:\n%s", out)
	}
	write(t, root, "src/tsconfig.json", `{"compilerOptions": {"jsx": "react", "jsxFactory": "inside"}}`)
	out, _ = bundleProject(t, src, "app.tsx", nil)
	if strings.Count(out, "inside(") != 2 {
		t.Fatalf("the entry and its import do not both use the tsconfig:\n%s", out)
	}
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
