package consistency

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bundleTOML bundles src/app.ts or src/app.tsx (whichever the case has)
// into a tree and a package.
const bundleTOML = `src     = "src"
out     = "out"
profile = "dev"

[package]
dir  = "pkg/assets"
name = "assets"

[[rule]]
match = "app.ts*"
steps = ["bundle:format=esm"]
`

// TestBundleInputs: a change to any file that decides a bundle's bytes,
// besides the files it imported, makes the incremental build give the
// clean build's bytes. Each case builds, makes one change, builds again
// with the cache, and compares with a clean build of a fresh copy; the
// change must show in the output (so the case tests something).
func TestBundleInputs(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		change map[string]string // files written after the first build
		want   []string          // in out/app.js after the change
		unwant []string          // not in out/app.js after the change
	}{
		{
			name: "ts file added beside the imported js",
			files: map[string]string{
				"src/app.ts":      "import { greet } from \"./lib/util\";\nexport const s: string = greet();\n",
				"src/lib/util.js": "export function greet() { return \"from util.js\"; }\n",
			},
			change: map[string]string{"src/lib/util.ts": "export function greet(): string { return \"from util.ts\"; }\n"},
			want:   []string{"from util.ts"}, // esbuild tries .ts before .js
			unwant: []string{"from util.js"},
		},
		{
			name: "file added where a directory import resolved",
			files: map[string]string{
				"src/app.ts":              "import { w } from \"./lib/widget\";\nexport const s: string = w;\n",
				"src/lib/widget/index.js": "export const w = \"from widget/index.js\";\n",
			},
			change: map[string]string{"src/lib/widget.js": "export const w = \"from widget.js\";\n"},
			want:   []string{"from widget.js"},
			unwant: []string{"from widget/index.js"},
		},
		{
			name: "jsxFactory edited in tsconfig.json",
			files: map[string]string{
				"src/tsconfig.json": `{"compilerOptions": {"jsx": "react", "jsxFactory": "h"}}`,
				"src/app.tsx":       "export const app = <div class=\"a\">hello</div>;\n",
			},
			change: map[string]string{"src/tsconfig.json": `{"compilerOptions": {"jsx": "react", "jsxFactory": "preact.h"}}`},
			want:   []string{`preact.h("div"`},
		},
		{
			name: "tsconfig.json added",
			files: map[string]string{
				"src/app.tsx": "export const app = <div class=\"a\">hello</div>;\n",
			},
			change: map[string]string{"src/tsconfig.json": `{"compilerOptions": {"jsxFactory": "preact.h"}}`},
			want:   []string{`preact.h("div"`},
		},
		{
			name: "target edited in tsconfig.json changes class fields",
			files: map[string]string{
				"src/tsconfig.json": `{"compilerOptions": {"target": "ES2020"}}`,
				"src/app.ts":        "export class Model {\n  kind = \"model\";\n  constructor(public name: string) {}\n}\n",
			},
			change: map[string]string{"src/tsconfig.json": `{"compilerOptions": {"target": "ES2022"}}`},
		},
		{
			name: "browser field added to a package.json",
			files: map[string]string{
				"src/app.ts":                             "import { pkg } from \"localpkg\";\nexport const s: string = pkg;\n",
				"src/node_modules/localpkg/package.json": `{"name": "localpkg", "main": "main.js"}`,
				"src/node_modules/localpkg/main.js":      "export const pkg = \"from main.js\";\n",
				"src/node_modules/localpkg/browser.js":   "export const pkg = \"from browser.js\";\n",
			},
			change: map[string]string{"src/node_modules/localpkg/package.json": `{"name": "localpkg", "main": "main.js", "browser": "browser.js"}`},
			want:   []string{"from browser.js"},
		},
		{
			name: "package added to a nearer node_modules",
			files: map[string]string{
				"src/app.ts":                         "import { s } from \"./lib/use\";\nexport const t: string = s;\n",
				"src/lib/use.ts":                     "import { pkg } from \"localpkg\";\nexport const s: string = pkg;\n",
				"src/node_modules/localpkg/index.js": "export const pkg = \"from src/node_modules\";\n",
			},
			change: map[string]string{"src/lib/node_modules/localpkg/index.js": "export const pkg = \"from src/lib/node_modules\";\n"},
			want:   []string{"from src/lib/node_modules"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			p := newProject(t, filepath.Join(root, "inc", "proj"), bundleTOML, tt.files)
			p.age(t, time.Time{}, time.Now().Add(-time.Hour))
			p.mustBuild(t)
			before := p.outputs(t)
			if ran, _ := summary(p.mustBuild(t).stderr); ran != 0 {
				t.Fatalf("a build with nothing changed ran %d jobs: the cache did not keep the bundle, and the case would test nothing", ran)
			}
			for name, body := range tt.change {
				p.write(t, name, body)
			}
			inc := p.build(t)
			clean, want := p.cleanCopy(t, root)
			if inc.code != 0 || clean.code != 0 {
				t.Fatalf("build after the change failed:\nincremental: %s\nclean: %s", inc, clean)
			}
			got := p.outputs(t)
			if d := got.diff(want, "incremental", "clean"); d != "" {
				t.Fatalf("incremental and clean builds differ after the change: %s", d)
			}
			if got.diff(before, "after", "before") == "" {
				t.Fatalf("the change did not change the output; out/app.js:\n%s", got.out["app.js"])
			}
			for _, w := range tt.want {
				if !strings.Contains(got.out["app.js"], w) {
					t.Errorf("out/app.js lacks %q:\n%s", w, got.out["app.js"])
				}
			}
			for _, w := range tt.unwant {
				if strings.Contains(got.out["app.js"], w) {
					t.Errorf("out/app.js still has %q:\n%s", w, got.out["app.js"])
				}
			}
		})
	}
}

// TestTSConfigAboveSourceRootIgnored: a tsconfig.json in the project
// directory (the parent of src) or above it changes nothing: the output is
// the same byte for byte with and without it, whether it is there at the
// first build or appears later.
func TestTSConfigAboveSourceRootIgnored(t *testing.T) {
	files := map[string]string{
		"src/app.tsx":      "import { View } from \"./lib/view\";\nexport const app = <div class=\"a\"><View /></div>;\n",
		"src/lib/view.tsx": "export function View() {\n  return <span>view</span>;\n}\n",
	}
	above := `{"compilerOptions": {"jsx": "react", "jsxFactory": "aboveFactory", "jsxFragmentFactory": "AboveFragment", "target": "ES2015"}}`
	root := t.TempDir()
	plain := newProject(t, filepath.Join(root, "plain", "proj"), bundleTOML, files)
	plain.age(t, time.Time{}, time.Now().Add(-time.Hour))
	plain.mustBuild(t)
	want := plain.outputs(t)
	if !strings.Contains(want.out["app.js"], `React.createElement("div"`) {
		t.Fatalf("without any tsconfig.json, out/app.js should use React.createElement:\n%s", want.out["app.js"])
	}

	t.Run("present from the start", func(t *testing.T) {
		p := newProject(t, filepath.Join(root, "above", "proj"), bundleTOML, files)
		p.write(t, "tsconfig.json", above)
		if err := os.WriteFile(filepath.Join(root, "above", "tsconfig.json"), []byte(above), 0o644); err != nil {
			t.Fatal(err)
		}
		p.mustBuild(t)
		if d := p.outputs(t).diff(want, "with tsconfig.json above src", "without"); d != "" {
			t.Fatalf("a tsconfig.json above the source root changed the output: %s", d)
		}
	})
	t.Run("added after a build", func(t *testing.T) {
		plain.write(t, "tsconfig.json", above)
		plain.mustBuild(t)
		if d := plain.outputs(t).diff(want, "with tsconfig.json above src", "without"); d != "" {
			t.Fatalf("a tsconfig.json added above the source root changed the output: %s", d)
		}
	})
}

// TestTSConfigAppliesToEntryAndImports: the entry point and the modules
// it imports are compiled with the same tsconfig.json: both use its
// jsxFactory and jsxFragmentFactory.
func TestTSConfigAppliesToEntryAndImports(t *testing.T) {
	p := newProject(t, filepath.Join(t.TempDir(), "proj"), bundleTOML, map[string]string{
		"src/tsconfig.json": `{"compilerOptions": {"jsx": "react", "jsxFactory": "myH", "jsxFragmentFactory": "MyFragment"}}`,
		"src/app.tsx":       "import { View } from \"./lib/view\";\nexport const app = <><div class=\"entry\"><View /></div></>;\n",
		"src/lib/view.tsx":  "export function View() {\n  return <><span class=\"imported\">view</span></>;\n}\n",
	})
	p.mustBuild(t)
	js := p.outputs(t).out["app.js"]
	for _, w := range []string{`myH("div"`, `myH("span"`, `myH(MyFragment, null, /* @__PURE__ */ myH("div"`, `myH(MyFragment, null, /* @__PURE__ */ myH("span"`} {
		if !strings.Contains(js, w) {
			t.Errorf("out/app.js lacks %q:\n%s", w, js)
		}
	}
	if strings.Contains(js, "React.") {
		t.Errorf("out/app.js uses React's default factory somewhere:\n%s", js)
	}
}
