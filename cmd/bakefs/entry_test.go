package main

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
)

// entryPage is a page that names the source of a bundle, as Vite's
// index.html does, from the root and from a subdirectory.
const entryPage = `<!doctype html><title>t</title><script type="module" src="%s"></script><p>page</p>`

// TestPageNamesBundleSource builds pages whose <script> names a TSX
// source that a rule bundles with code splitting, with and without
// hashing, and checks that each page names the bundle's output and links
// its style sheet and its shared chunk before the script; then that an
// edit to the style sheet, built with the cache, gives the page the new
// name.
func TestPageNamesBundleSource(t *testing.T) {
	for _, hash := range []bool{false, true} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "web/index.html"), strings.Replace(entryPage, "%s", "/src/index.tsx", 1))
		writeFile(t, filepath.Join(dir, "web/pages/about.html"), strings.Replace(entryPage, "%s", "../src/index.tsx?v=1", 1))
		writeFile(t, filepath.Join(dir, "web/src/index.tsx"), "import \"./index.css\";\nimport { shared } from \"./shared\";\nexport const a = <b>{shared()}</b>;\ndocument.onclick = async () => (await import(\"./lazy\")).lazy();\n")
		writeFile(t, filepath.Join(dir, "web/src/admin.tsx"), "import { shared } from \"./shared\";\nconsole.log(shared());\n")
		writeFile(t, filepath.Join(dir, "web/src/shared.ts"), "export function shared() { return \"shared\" + Math.random(); }\n")
		writeFile(t, filepath.Join(dir, "web/src/lazy.ts"), "export function lazy() { console.log(\"lazy\"); }\n")
		writeFile(t, filepath.Join(dir, "web/src/index.css"), "body { color: red }\n")
		project := filepath.Join(dir, "bakefs.toml")
		writeFile(t, project, "src = \"web\"\nout = \"build\"\nstrict = true\nhash = "+map[bool]string{false: "false", true: "true"}[hash]+`
[[rule]]
match = ["src/index.tsx", "src/admin.tsx"]
steps = ["bundle:jsx=automatic,jsx-import-source=preact,external=preact/jsx-runtime"]
[[rule]]
match = "**/*.html"
steps = []
`)
		for edit := range 2 {
			if edit == 1 {
				writeFile(t, filepath.Join(dir, "web/src/index.css"), "body { color: blue }\n")
			}
			if code, _, stderr := runCLI(t, "build", "-f", project); code != 0 {
				t.Fatalf("hash=%v, build %d: exit %d, stderr:\n%s", hash, edit+1, code, stderr)
			}
			m := readManifest(t, filepath.Join(dir, "build"))
			for _, page := range []string{"index.html", "pages/about.html"} {
				data, err := os.ReadFile(filepath.Join(dir, "build", page))
				if err != nil {
					t.Fatal(err)
				}
				checkEntryPage(t, m, page, string(data), hash)
			}
		}
	}
}

// checkEntryPage checks that page, in a tree of manifest m, links
// src/index.css, preloads the chunk that src/index.js imports and runs
// src/index.js, in that order, by their served names, and names no source.
func checkEntryPage(t *testing.T, m *bakefs.Manifest, page, data string, hash bool) {
	t.Helper()
	served := func(p string) string {
		e, ok := m.Lookup(p)
		if !ok {
			t.Fatalf("no %s in the manifest", p)
		}
		if hash && e.Hashed != "" {
			return e.Hashed
		}
		return e.Path
	}
	js, _ := m.Lookup("src/index.js")
	if len(js.Imports) != 1 || len(js.DynamicImports) != 1 || len(js.CSS) != 1 {
		t.Fatalf("src/index.js: imports %q, dynamic %q, css %q; want one of each", js.Imports, js.DynamicImports, js.CSS)
	}
	link := func(u string) string {
		if page == "index.html" {
			return "/" + u
		}
		return "../" + u
	}
	query := ""
	if page != "index.html" {
		query = "?v=1"
	}
	want := `<link rel="stylesheet" href="` + link(served("src/index.css")) + `">` +
		`<link rel="modulepreload" href="` + link(served(js.Imports[0])) + `">` +
		`<script type="module" src="` + link(served("src/index.js")) + query + `"></script>`
	if !strings.Contains(data, want) {
		t.Errorf("hash=%v: %s is\n%s\nwant it to hold\n%s", hash, page, data, want)
	}
	if strings.Contains(data, ".tsx") || regexp.MustCompile(`lazy`).MatchString(data) {
		t.Errorf("hash=%v: %s names a source or the lazy chunk:\n%s", hash, page, data)
	}
	if hash && !strings.Contains(served("src/index.css"), ".") || path.Ext(served("src/index.js")) != ".js" {
		t.Errorf("hash=%v: served names %s, %s", hash, served("src/index.css"), served("src/index.js"))
	}
}

// readManifest reads the manifest of the tree in dir.
func readManifest(t *testing.T, dir string) *bakefs.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, bakefs.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m bakefs.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// TestPageNamesSingleEntryWithChunks: a rule of one entry whose lazily
// loaded module shares code with it has a shared chunk too, which is not
// the entry's output: the page still names the entry's.
func TestPageNamesSingleEntryWithChunks(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "web/main.ts"), "import { s } from \"./shared\";\nconsole.log(s());\nexport const later = () => import(\"./lazy\");\n")
	writeFile(t, filepath.Join(dir, "web/lazy.ts"), "import { s } from \"./shared\";\nexport const z = s();\n")
	writeFile(t, filepath.Join(dir, "web/shared.ts"), "export function s() { return \"shared\" + Math.random(); }\n")
	writeFile(t, filepath.Join(dir, "web/index.html"), strings.Replace(entryPage, "%s", "main.ts", 1))
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, "src = \"web\"\nout = \"build\"\nstrict = true\n[[rule]]\nmatch = \"main.ts\"\nsteps = [\"bundle\"]\n[[rule]]\nmatch = \"index.html\"\nsteps = []\n")
	if code, _, stderr := runCLI(t, "build", "-f", project); code != 0 {
		t.Fatalf("build: exit %d, stderr:\n%s", code, stderr)
	}
	m := readManifest(t, filepath.Join(dir, "build"))
	main, _ := m.Lookup("main.js")
	if len(main.Imports) != 1 || len(main.DynamicImports) != 1 {
		t.Fatalf("main.js imports %q and %q on demand, want a shared chunk and the lazy one", main.Imports, main.DynamicImports)
	}
	data, err := os.ReadFile(filepath.Join(dir, "build", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<link rel="modulepreload" href="` + main.Imports[0] + `"><script type="module" src="main.js"></script>`; !strings.Contains(string(data), want) {
		t.Errorf("index.html is\n%s\nwant it to hold\n%s", data, want)
	}
}
