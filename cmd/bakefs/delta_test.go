package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// releaseScript is a script of many pseudo-randomly named functions, one
// of which carries the release's number.
func releaseScript(release int) string {
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for i := range 800 {
		fmt.Fprintf(&b, "export function f%x(a) { return a + %d; }\n", rng.Uint64(), i)
	}
	fmt.Fprintf(&b, "export const release = %d;\n", release)
	return b.String()
}

const deltaTOML = `src = "web"
out = "build"
hash = true
compress = ["br", "gzip"]

[[rule]]
match = "**"
steps = []
`

// TestBuildDeltas: a release built with [delta] against the tree of the
// release before keeps that release's changed files and makes a delta of
// each; --check agrees; a [package] embeds them all.
func TestBuildDeltas(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, deltaTOML)
	writeFile(t, filepath.Join(dir, "web/js/app.js"), releaseScript(1))
	writeFile(t, filepath.Join(dir, "web/css/site.css"), strings.Repeat("a { color: red }\n", 40))
	buildOK(t, "-f", project)
	if err := os.CopyFS(filepath.Join(dir, "releases/v1"), os.DirFS(filepath.Join(dir, "build"))); err != nil {
		t.Fatal(err)
	}

	writeFile(t, filepath.Join(dir, "web/js/app.js"), releaseScript(2))
	writeFile(t, project, deltaTOML+"\n[delta]\nprevious = \"releases/v1\"\n")
	stderr := buildOK(t, "-f", project)
	if !strings.Contains(stderr, "(1 kept from earlier releases, 1 deltas)") {
		t.Fatalf("summary does not count the kept file and the delta:\n%s", stderr)
	}
	deltas, _ := filepath.Glob(filepath.Join(dir, "build/js/app.js.*.dcz"))
	if len(deltas) != 1 {
		t.Fatalf("deltas in the tree: %q", deltas)
	}
	buildOK(t, "--check", "-f", project)

	writeFile(t, project, deltaTOML+"\n[package]\ndir = \"assets\"\nname = \"assets\"\n\n[delta]\nprevious = \"releases/v1\"\n")
	buildOK(t, "-f", project)
	buildOK(t, "--check", "-f", project)
	embedded, _ := filepath.Glob(filepath.Join(dir, "assets/_data/js/app.*.js*"))
	if len(embedded) != 3 { // the kept file, its .br and .gz
		t.Fatalf("the package embeds %q of release 1's app.js, want it and its variants", embedded)
	}
	if deltas, _ := filepath.Glob(filepath.Join(dir, "assets/_data/js/app.js.*.dcz")); len(deltas) != 1 {
		t.Fatalf("the package embeds deltas %q", deltas)
	}
}
