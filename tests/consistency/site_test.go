package consistency

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"sort"
	"strings"
	"testing"
)

// siteTOML is the project file of the site the property test edits: two
// entries bundled together (a TSX entry with JSX in it and in an imported
// module, a TS entry that imports a class with fields, JSON and a package
// from node_modules), which share lib/util in a chunk, and the TSX entry
// loads lib/lazy with import(), a chunk of its own with CSS, which imports
// lib/util too; minified stylesheets, pages, icons and data, with gzip
// variants, hashed names and a Go package.
const siteTOML = `src      = "src"
out      = "out"
profile  = "dev"
compress = ["gzip"]
hash     = true

[package]
dir    = "pkg/assets"
name   = "assets"
import = "example.com/site/pkg/assets"

[[rule]]
match = ["app.tsx", "main.ts"]
steps = ["bundle:format=esm"]

[[rule]]
match = ["styles/*.css", "*.html", "icons/*.svg", "data/*.json"]
steps = ["minify"]
`

// siteOriginals are the site's first files, each at version 0; a deleted
// one can come back by a restore edit.
var siteOriginals = []string{
	"app.tsx",
	"main.ts",
	"lib/util.js",
	"lib/view.tsx",
	"lib/model.ts",
	"lib/lazy.ts",
	"lib/lazy.css",
	"node_modules/localpkg/index.js",
	"node_modules/localpkg/main.js",
	"node_modules/localpkg/module.js",
	"node_modules/localpkg/browser.js",
	"styles/base.css",
	"styles/extra.css",
	"index.html",
	"about.html",
	"icons/sun.svg",
	"icons/moon.svg",
	"data/config.json",
	"data/list.json",
}

// siteContent returns the bytes of a source file of the site at a version.
// Versions are written with three digits, so that most edits keep a
// file's size: a cache that trusted sizes would be caught out.
func siteContent(name string, version int) string {
	v := fmt.Sprintf("%03d", version%1000)
	stem := strings.TrimSuffix(path.Base(name), path.Ext(name))
	r := strings.NewReplacer("{V}", v, "{NAME}", stem, "{EXT}", strings.TrimPrefix(path.Ext(name), "."))
	switch name {
	case "app.tsx":
		return r.Replace(`import { greet } from "./lib/util";
import { View } from "./lib/view";
import "./styles/base.css";

export function App() {
  return <><main id="app-{V}"><h1>{greet("app {V}")}</h1><View /></main></>;
}

export async function loadLazy(): Promise<string> {
  const { lazy } = await import("./lib/lazy");
  return lazy("app {V}");
}
`)
	case "main.ts":
		return r.Replace(`import { greet } from "./lib/util";
import { Model } from "./lib/model";
import config from "./data/config.json";
import { pkg } from "localpkg";

export const main: string[] = [greet("main {V}"), new Model(config.name).describe(), pkg];
`)
	case "lib/util.js":
		return r.Replace("export function greet(name) {\n  return \"hello \" + name + \" from util.js {V}\";\n}\n")
	case "lib/util.ts":
		return r.Replace("export function greet(name: string): string {\n  return \"typed hello \" + name + \" from util.ts {V}\";\n}\n")
	case "lib/view.tsx":
		return r.Replace("export function View() {\n  return <span class=\"view-{V}\">view {V}</span>;\n}\n")
	case "lib/lazy.ts", "lib/lazy.tsx":
		return r.Replace(`import { greet } from "./util";
import "./lazy.css";

export function lazy(name: string): string {
  return greet("{NAME}.{EXT} {V} " + name);
}
`)
	case "lib/model.ts":
		return r.Replace(`export class Model {
  kind = "model-{V}";
  static made = 0;
  constructor(public name: string) {}
  describe(): string {
    return this.kind + ":" + this.name;
  }
}
`)
	}
	switch path.Ext(name) {
	case ".js": // node_modules/localpkg/*.js
		return r.Replace("export const pkg = \"localpkg {NAME}.js {V}\";\n")
	case ".css":
		return r.Replace(`/* {NAME} */
:root {
  --accent: #abc{V};
}
body { color: var(--accent);  margin: 0px auto; padding: 1px 2px 1px 2px; }
.{NAME}-{V} { content: "{NAME} {V}"; }
`)
	case ".html":
		return r.Replace(`<!doctype html>
<html lang="en">
<head>
  <title>{NAME} {V}</title>
  <link rel="stylesheet" href="styles/base.css">
</head>
<body>
  <p class="page">  Page   {NAME},   version {V}  </p>
  <script type="module" src="app.js"></script>
</body>
</html>
`)
	case ".svg":
		return r.Replace(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <!-- {NAME} -->
  <rect x="1" y="1" width="14" height="14" fill="#abc{V}" />
</svg>
`)
	case ".json":
		return r.Replace("{ \"name\": \"{NAME} {V}\", \"items\": [ 1, 2, 3 ], \"nested\": { \"v\": \"{V}\" } }\n")
	}
	panic("no content for " + name)
}

// A tsconfig is the state of src/tsconfig.json.
type tsconfig struct {
	JSX, Factory, Fragment, Target string
}

func (c tsconfig) String() string {
	return fmt.Sprintf("jsx=%s jsxFactory=%s jsxFragmentFactory=%s target=%s", c.JSX, c.Factory, c.Fragment, c.Target)
}

func (c tsconfig) content() string {
	opts := map[string]string{"jsx": c.JSX, "jsxFactory": c.Factory, "jsxFragmentFactory": c.Fragment, "target": c.Target}
	data, err := json.MarshalIndent(map[string]any{"compilerOptions": opts}, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(data) + "\n"
}

// A site is the model of the edited sources: which files exist at which
// version, and what tsconfig.json and the local package's package.json
// say. Every edit changes the model and the files on disk together.
type site struct {
	p       *project
	files   map[string]srcFile // by source path (under src/)
	ts      *tsconfig          // nil: no tsconfig.json
	pkgJSON []string           // fields of localpkg's package.json: browser, module, main
	renamed int                // counter for new names
}

// newSite writes the site's first state into p.
func newSite(t testing.TB, p *project) *site {
	t.Helper()
	s := &site{p: p, files: make(map[string]srcFile)}
	for _, name := range siteOriginals {
		s.put(t, name, srcFile{name, 0})
	}
	s.ts = &tsconfig{JSX: "react", Factory: "h", Fragment: "Fragment", Target: "ES2020"}
	p.write(t, "src/tsconfig.json", s.ts.content())
	s.pkgJSON = []string{"main"}
	p.write(t, "src/node_modules/localpkg/package.json", packageJSON(s.pkgJSON))
	return s
}

// A srcFile is a source file of the site: the template of its bytes (the
// name it had when made; a renamed file keeps it) and its version.
type srcFile struct {
	tmpl    string
	version int
}

// put writes a file into the model and to disk.
func (s *site) put(t testing.TB, name string, f srcFile) {
	t.Helper()
	s.files[name] = f
	s.p.write(t, "src/"+name, siteContent(f.tmpl, f.version))
}

func packageJSON(fields []string) string {
	m := map[string]string{"name": "localpkg", "version": "1.0.0"}
	for _, f := range fields {
		m[f] = f + ".js"
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(data) + "\n"
}

// present returns the sorted source paths of the model, filtered by keep.
func (s *site) present(keep func(string) bool) []string {
	var ns []string
	for n := range s.files {
		if keep == nil || keep(n) {
			ns = append(ns, n)
		}
	}
	sort.Strings(ns)
	return ns
}

// An edit kind has a weight and a function that makes one edit of that
// kind and describes it, or returns "" when it cannot apply now.
type editKind struct {
	weight int
	apply  func(s *site, t testing.TB, rng *rand.Rand) string
}

var editKinds = []editKind{
	{30, (*site).editContent},
	{4, (*site).touch},
	{10, (*site).addFile},
	{8, (*site).deleteFile},
	{8, (*site).renameFile},
	{10, (*site).restore},
	{12, (*site).editTSConfig},
	{8, (*site).toggleShadow},
	{8, (*site).editPackageJSON},
}

// randomEdit makes one random edit and describes it. After a build that
// failed, it restores a missing original file half of the time, so that a
// sequence spends most of its builds on sources that build.
func (s *site) randomEdit(t testing.TB, rng *rand.Rand, failed bool) string {
	if failed && rng.IntN(2) == 0 {
		if d := s.restore(t, rng); d != "" {
			return d
		}
	}
	total := 0
	for _, k := range editKinds {
		total += k.weight
	}
	for {
		n := rng.IntN(total)
		for _, k := range editKinds {
			if n -= k.weight; n < 0 {
				if d := k.apply(s, t, rng); d != "" {
					return d
				}
				break
			}
		}
	}
}

func pick(rng *rand.Rand, names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[rng.IntN(len(names))]
}

func (s *site) newVersion(rng *rand.Rand, old int) int {
	for {
		if v := 1 + rng.IntN(999); v != old {
			return v
		}
	}
}

// editContent gives a file a new version.
func (s *site) editContent(t testing.TB, rng *rand.Rand) string {
	name := pick(rng, s.present(nil))
	if name == "" {
		return ""
	}
	f := s.files[name]
	f.version = s.newVersion(rng, f.version)
	s.put(t, name, f)
	return fmt.Sprintf("edit %s (version %d)", name, f.version)
}

// touch rewrites a file with the bytes it has.
func (s *site) touch(t testing.TB, rng *rand.Rand) string {
	name := pick(rng, s.present(nil))
	if name == "" {
		return ""
	}
	s.put(t, name, s.files[name])
	return "rewrite " + name + " unchanged"
}

// addFile adds a stylesheet, page, icon or data file.
func (s *site) addFile(t testing.TB, rng *rand.Rand) string {
	s.renamed++
	name := pick(rng, []string{
		fmt.Sprintf("styles/new%d.css", s.renamed),
		fmt.Sprintf("page%d.html", s.renamed),
		fmt.Sprintf("icons/new%d.svg", s.renamed),
		fmt.Sprintf("data/new%d.json", s.renamed),
	})
	v := s.newVersion(rng, -1)
	s.put(t, name, srcFile{name, v})
	return fmt.Sprintf("add %s (version %d)", name, v)
}

// deleteFile deletes any source file, which may break the build (an
// imported module, the last file a pattern matches).
func (s *site) deleteFile(t testing.TB, rng *rand.Rand) string {
	name := pick(rng, s.present(nil))
	if name == "" {
		return ""
	}
	delete(s.files, name)
	s.p.remove(t, "src/"+name)
	return "delete " + name
}

// renameFile renames a file within its directory, keeping its bytes and
// modification time.
func (s *site) renameFile(t testing.TB, rng *rand.Rand) string {
	name := pick(rng, s.present(func(n string) bool { return !strings.HasPrefix(n, "node_modules/") }))
	if name == "" {
		return ""
	}
	s.renamed++
	ext := path.Ext(name)
	to := fmt.Sprintf("%s-r%d%s", strings.TrimSuffix(name, ext), s.renamed, ext)
	if err := os.Rename(s.p.path("src/"+name), s.p.path("src/"+to)); err != nil {
		t.Fatal(err)
	}
	s.files[to] = s.files[name]
	delete(s.files, name)
	return "rename " + name + " to " + to
}

// restore brings back a deleted or renamed original file.
func (s *site) restore(t testing.TB, rng *rand.Rand) string {
	var gone []string
	for _, n := range siteOriginals {
		if _, ok := s.files[n]; !ok {
			gone = append(gone, n)
		}
	}
	name := pick(rng, gone)
	if name == "" {
		return ""
	}
	v := s.newVersion(rng, -1)
	s.put(t, name, srcFile{name, v})
	return fmt.Sprintf("restore %s (version %d)", name, v)
}

// editTSConfig changes the settings of tsconfig.json that change
// esbuild's output, or removes the file, or brings it back.
func (s *site) editTSConfig(t testing.TB, rng *rand.Rand) string {
	if s.ts != nil && rng.IntN(8) == 0 {
		s.ts = nil
		s.p.remove(t, "src/tsconfig.json")
		return "delete tsconfig.json"
	}
	c := tsconfig{JSX: "react", Factory: "h", Fragment: "Fragment", Target: "ES2020"}
	if s.ts != nil {
		c = *s.ts
	}
	switch rng.IntN(4) {
	case 0:
		c.Factory = pick(rng, []string{"h", "React.createElement", "preact.h", "jsx"})
	case 1:
		c.Fragment = pick(rng, []string{"Fragment", "React.Fragment", "preact.Fragment"})
	case 2:
		c.Target = pick(rng, []string{"ES2020", "ES2022", "ESNext"})
	case 3:
		c.JSX = pick(rng, []string{"react", "preserve"})
	}
	s.ts = &c
	s.p.write(t, "src/tsconfig.json", c.content())
	return "tsconfig.json: " + c.String()
}

// shadows are files that, added beside an imported module of the same
// stem, win the resolution of its extensionless import: esbuild tries
// .tsx before .ts before .js.
var shadows = []struct{ name, beside string }{
	{"lib/util.ts", "lib/util.js"},  // shared by both entries and the lazy chunk
	{"lib/lazy.tsx", "lib/lazy.ts"}, // the lazy chunk
}

// toggleShadow adds a shadowing file (shadows), or removes it.
func (s *site) toggleShadow(t testing.TB, rng *rand.Rand) string {
	sh := shadows[rng.IntN(len(shadows))]
	if _, ok := s.files[sh.name]; ok {
		delete(s.files, sh.name)
		s.p.remove(t, "src/"+sh.name)
		return "delete " + sh.name + " (beside " + sh.beside + ")"
	}
	v := s.newVersion(rng, -1)
	s.put(t, sh.name, srcFile{sh.name, v})
	return fmt.Sprintf("add %s beside %s (version %d)", sh.name, sh.beside, v)
}

// editPackageJSON changes which of browser, module and main the local
// package's package.json has; without any, index.js is the entry.
func (s *site) editPackageJSON(t testing.TB, rng *rand.Rand) string {
	var fields []string
	for _, f := range []string{"browser", "module", "main"} {
		if rng.IntN(2) == 0 {
			fields = append(fields, f)
		}
	}
	s.pkgJSON = fields
	s.p.write(t, "src/node_modules/localpkg/package.json", packageJSON(fields))
	return fmt.Sprintf("localpkg/package.json fields %v", fields)
}
