package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// explainTOML bundles web/js/app.ts and minifies the style sheets.
const explainTOML = `src = "web"
out = "build"

[[rule]]
match = "js/app.ts"
steps = ["bundle"]

[[rule]]
match = "**/*.css"
steps = ["minify"]
`

// explainSources are the sources of explainTOML.
var explainSources = map[string]string{
	"web/js/app.ts":           "import { u } from \"./util\";\nimport { c } from \"./components/c\";\nexport const x = u + c;\n",
	"web/js/util.ts":          "export const u = 1;\n",
	"web/js/components/c.ts":  "export const c = 2;\n",
	"web/css/site.css":        "a { color: red }\n",
	"web/css/print/print.css": "a { color: black }\n",
}

// explained returns the lines of bakefs build --explain that say why a
// job ran.
func explained(stderr string) []string {
	lines := []string{}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "bakefs: ran ") {
			lines = append(lines, line)
		}
	}
	return lines
}

// ageTree dates every file and directory under dir an hour back, out of
// the racy window, as sources edited long before a build are.
func ageTree(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
}

// TestBuildExplain: bakefs build --explain prints a line for each job
// that ran, saying what changed since its last build, and none when
// nothing ran.
func TestBuildExplain(t *testing.T) {
	tests := []struct {
		name    string
		toml    string
		files   map[string]string
		change  func(dir string) // between the first build and the next
		want    [][]string       // the lines of each build after the change
		summary string           // in the summary of the last build
	}{
		{
			name:    "nothing changed",
			change:  func(string) {},
			want:    [][]string{{}},
			summary: "0 ran, 3 cached",
		},
		{
			name: "input edited",
			change: func(dir string) {
				writeFile(t, filepath.Join(dir, "web/js/util.ts"), "export const u = 3;\n")
			},
			want: [][]string{{"bakefs: ran js/app.ts: input js/util.ts changed"}, {}},
		},
		{
			name: "option changed in the project file",
			change: func(dir string) {
				writeFile(t, filepath.Join(dir, "bakefs.toml"), strings.Replace(explainTOML, `["minify"]`, `["minify:target=es2017"]`, 1))
			},
			want: [][]string{{
				"bakefs: ran css/print/print.css: option minify.target changed (default → es2017)",
				"bakefs: ran css/site.css: option minify.target changed (default → es2017)",
			}, {}},
		},
		{
			name: "file added to a directory the bundle lists",
			change: func(dir string) {
				writeFile(t, filepath.Join(dir, "web/js/components/d.ts"), "export const d = 4;\n")
			},
			want: [][]string{{"bakefs: ran js/app.ts: directory listing js/components changed"}, {}},
		},
		{
			name:   "empty cache",
			change: func(dir string) { os.RemoveAll(filepath.Join(dir, ".bakefs-cache")) },
			want: [][]string{{
				"bakefs: ran css/print/print.css: no earlier build of this job",
				"bakefs: ran css/site.css: no earlier build of this job",
				"bakefs: ran js/app.ts: no earlier build of this job",
			}, {}},
		},
		{
			// Not aged: stamped just before the build, the file is racy,
			// so the bundle is not cached, and the next build says why it
			// runs again. The stamp is a whole second, which bakefs reads
			// as a coarse file system's and gives a 2 s window, so that
			// the build is still within it on a loaded machine (a stamp
			// of a fine-grained file system is racy for 50 ms only).
			name: "racy file",
			change: func(dir string) {
				writeFile(t, filepath.Join(dir, "web/js/util.ts"), "export const u = 3;\n")
				second := time.Now().Truncate(time.Second)
				os.Chtimes(filepath.Join(dir, "web/js/util.ts"), second, second)
			},
			want: [][]string{
				{"bakefs: ran js/app.ts: input js/util.ts changed; not cached: input js/util.ts was modified too recently (racy)"},
				{"bakefs: ran js/app.ts: input js/util.ts was modified during the last run (racy)"},
			},
		},
		{
			// The cache, the tree and the package in the directory the
			// bundle lists: the builds after a cold one run nothing.
			name: "out inside src",
			toml: "src = \".\"\nout = \"build\"\nhash = true\n[package]\ndir = \"assets\"\nname = \"assets\"\n" +
				"[[rule]]\nmatch = \"app.ts\"\nsteps = [\"bundle\"]\n[[rule]]\nmatch = \"*.css\"\nsteps = [\"minify\"]\n",
			files:   map[string]string{"a.css": "a { color: red }\n", "app.ts": "import \"./a.css\";\nexport const x = 1;\n"},
			change:  func(string) {},
			want:    [][]string{{}, {}},
			summary: "0 ran, 2 cached",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			toml, files := tc.toml, tc.files
			if toml == "" {
				toml, files = explainTOML, explainSources
			}
			for name, body := range files {
				writeFile(t, filepath.Join(dir, name), body)
			}
			project := filepath.Join(dir, "bakefs.toml")
			writeFile(t, project, toml)
			ageTree(t, dir)
			buildOK(t, "--explain", "-f", project)
			tc.change(dir)
			if !strings.HasPrefix(tc.name, "racy") {
				ageTree(t, filepath.Join(dir, "web"))
			}
			var stderr string
			for i, want := range tc.want {
				stderr = buildOK(t, "--explain", "-f", project)
				if got := explained(stderr); !slices.Equal(got, want) {
					t.Errorf("build %d after the change:\n got %q\nwant %q\n%s", i+1, got, want, stderr)
				}
				ran, _, _ := counts(t, stderr)
				if ran != len(want) {
					t.Errorf("build %d: %d ran, %d explained", i+1, ran, len(want))
				}
				ageTree(t, filepath.Join(dir, "web"))
			}
			if !strings.Contains(stderr, tc.summary) {
				t.Errorf("summary of the last build: %s\nwant %q", stderr, tc.summary)
			}
		})
	}
}

// TestBuildExplainOff: without --explain a build prints no reasons.
func TestBuildExplainOff(t *testing.T) {
	dir := t.TempDir()
	for name, body := range explainSources {
		writeFile(t, filepath.Join(dir, name), body)
	}
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, explainTOML)
	if got := explained(buildOK(t, "-f", project)); len(got) != 0 {
		t.Errorf("reasons without --explain: %q", got)
	}
}
