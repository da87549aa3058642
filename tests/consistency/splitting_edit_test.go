package consistency

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bfs "github.com/bakefs/bakefs/fs"
)

// splitEdits change one module or style sheet of pagesSources each,
// putting a marker into what the bundle keeps of it.
var splitEdits = []struct{ file, old, new, marker string }{
	{"lib/lazy.ts", `stamp("lazy")`, `stamp("lazy EDITED-lazy")`, "EDITED-lazy"},                               // the lazy chunk alone
	{"lib/format.ts", `stamp(n.toFixed(level))`, `stamp(n.toFixed(level) + "EDITED-format")`, "EDITED-format"}, // shared by two entries
	{"lib/base.ts", `"[" + s + "]"`, `"[" + s + "]EDITED-base"`, "EDITED-base"},                                // imported by every module
	{"styles/shared.css", "--accent: #abcdef;", "--accent: #abcdef;\n  --edited: EDITED-css;", "EDITED-css"},   // CSS of a shared module
}

// TestSplittingEditChangesItsChunks edits, one at a time and with the
// cache, a module of three entries bundled together, and checks that the
// build changed exactly the outputs that hold the module's code and those
// that import, statically or with import(), a chunk whose content name
// changed (the manifest's graph); that no content name kept its name with
// other bytes; and that the tree equals a clean build of the same sources.
func TestSplittingEditChangesItsChunks(t *testing.T) {
	root := t.TempDir()
	files := make(map[string]string)
	for name, body := range pagesSources {
		files["src/"+name] = body
	}
	toml := strings.Replace(splitTOML([]string{"pages/home.ts", "pages/admin.ts", "pages/settings.tsx"}, "bundle"), "cache = \"\"\n", "", 1)
	p := newProject(t, filepath.Join(root, "proj"), toml, files)
	p.mustBuild(t)
	// The entries' outputs (JavaScript and CSS) keep their names.
	entry := func(n string) bool {
		stem := strings.TrimSuffix(n, filepath.Ext(n))
		return slices.Contains([]string{"pages/home", "pages/admin", "pages/settings"}, stem)
	}
	for _, e := range splitEdits {
		before := regularFiles(snapshot(t, p.path(outDir)))
		body := files["src/"+e.file]
		if !strings.Contains(body, e.old) {
			t.Fatalf("%s has no %q", e.file, e.old)
		}
		files["src/"+e.file] = strings.Replace(body, e.old, e.new, 1)
		p.write(t, "src/"+e.file, files["src/"+e.file])
		p.mustBuild(t)
		after := regularFiles(snapshot(t, p.path(outDir)))
		graph := manifestGraph(t, p.path(outDir))

		changed := func(n string) bool { old, ok := before[n]; return !ok || old != after[n] }
		renamed := func(n string) bool { _, ok := before[n]; return !ok }
		var holders []string
		for _, n := range after.names() {
			if strings.Contains(after[n], e.marker) {
				holders = append(holders, n)
			}
			if !changed(n) {
				continue
			}
			if _, ok := before[n]; ok && !entry(n) {
				t.Errorf("%s: %s kept its content name with other bytes", e.file, n)
			}
		}
		if len(holders) == 0 {
			t.Fatalf("%s: no output holds %s", e.file, e.marker)
		}
		for _, n := range after.names() {
			why := ""
			if strings.Contains(after[n], e.marker) {
				why = "holds the edit"
			}
			for _, d := range slices.Concat(graph[n].Imports, graph[n].DynamicImports) {
				if renamed(d) && why == "" {
					why = "imports " + d
				}
			}
			switch {
			case why != "" && !changed(n):
				t.Errorf("%s: %s %s but did not change", e.file, n, why)
			case why == "" && changed(n):
				t.Errorf("%s: %s changed, but neither holds the edit nor imports a renamed chunk", e.file, n)
			}
		}
		var gone []string
		for _, n := range before.names() {
			if _, ok := after[n]; !ok {
				gone = append(gone, n)
			}
		}
		t.Logf("%s: in %q; renamed %q; changed %d of %d files", e.file, holders, gone, len(slices.DeleteFunc(after.names(), func(n string) bool { return !changed(n) })), len(after))

		clean := newProject(t, filepath.Join(root, "clean-"+strings.ReplaceAll(e.file, "/", "-")), toml, maps.Clone(files))
		clean.mustBuild(t)
		if d := after.diff(regularFiles(snapshot(t, clean.path(outDir))), "incremental", "clean"); d != "" {
			t.Fatalf("%s: incremental and clean builds differ: %s", e.file, d)
		}
	}
}

// manifestGraph returns the module graph of the tree in dir by path.
func manifestGraph(t *testing.T, dir string) map[string]bfs.Entry {
	t.Helper()
	var m bfs.Manifest
	if err := json.Unmarshal([]byte(snapshot(t, dir)[bfs.ManifestName]), &m); err != nil {
		t.Fatal(err)
	}
	graph := make(map[string]bfs.Entry, len(m.Files))
	for _, e := range m.Files {
		graph[e.Path] = e
	}
	return graph
}
