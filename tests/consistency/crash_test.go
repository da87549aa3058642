package consistency

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// crashTOML is the project of the crash test: a bundle of many modules,
// many stylesheets and data files, all with three variants and hashed
// names, and a Go package.
const crashTOML = `src      = "src"
out      = "out"
profile  = "dev"
compress = ["br", "gzip", "zstd"]
hash     = true

[package]
dir    = "pkg/assets"
name   = "assets"
import = "example.com/crash/pkg/assets"

[[rule]]
match = "app.ts"
steps = ["bundle:format=esm"]

[[rule]]
match = ["styles/*.css", "data/*.json", "*.svg"]
steps = ["minify"]
`

// crashSources returns the sources of state "A" or "B". Every file of one
// state differs from the other's, and each state has a file of its own,
// so that a tree or package mixing the two differs from both.
func crashSources(state string) map[string]string {
	files := make(map[string]string)
	var app strings.Builder
	for i := range 24 {
		fmt.Fprintf(&app, "import { f%d } from \"./lib/m%d\";\n", i, i)
		var m strings.Builder
		fmt.Fprintf(&m, "export function f%d(n: number): string {\n", i)
		for j := range 30 {
			fmt.Fprintf(&m, "  if (n === %d) return \"state %s module %d case %d\";\n", j, state, i, j)
		}
		m.WriteString("  return \"\";\n}\n")
		files[fmt.Sprintf("src/lib/m%d.ts", i)] = m.String()
	}
	app.WriteString("export const all: string[] = [")
	for i := range 24 {
		fmt.Fprintf(&app, "f%d(%d), ", i, i)
	}
	app.WriteString("];\n")
	files["src/app.ts"] = app.String()
	for i := range 24 {
		var css strings.Builder
		for j := range 40 {
			fmt.Fprintf(&css, ".s%s-%d-%d {\n  color: #%02x%02x%02x;\n  margin: %dpx  %dpx;\n}\n", state, i, j, i*7%256, j*5%256, len(state)*40, i, j)
		}
		files[fmt.Sprintf("src/styles/s%d.css", i)] = css.String()
	}
	for i := range 8 {
		files[fmt.Sprintf("src/data/d%d.json", i)] = fmt.Sprintf("{ \"state\": %q, \"index\": %d, \"items\": [ %s ] }\n", state, i, strings.Repeat(`"`+state+`", `, 200)+`"end"`)
	}
	files["src/only-"+strings.ToLower(state)+".svg"] = fmt.Sprintf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\">\n  <text x=\"0\" y=\"8\">%s</text>\n</svg>\n", state)
	return files
}

// setSources replaces the project's src/ with a state's sources.
func (p *project) setSources(t testing.TB, files map[string]string) {
	t.Helper()
	if err := os.RemoveAll(p.path("src")); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p.write(t, name, body)
	}
}

// leftovers returns the entries beside the output tree and the package
// directory that are not part of the project: temporary or set-aside
// directories of a write that did not finish.
func (p *project) leftovers(t testing.TB) []string {
	t.Helper()
	var extra []string
	known := []string{"bakefs.toml", "src", outDir, "pkg", ".bakefs-cache"}
	for _, n := range entries(t, p.dir) {
		if !slices.Contains(known, n) {
			extra = append(extra, n)
		}
	}
	for _, n := range entries(t, p.path("pkg")) {
		if n != filepath.Base(pkgDir) {
			extra = append(extra, "pkg/"+n)
		}
	}
	return extra
}

// TestKilledBuildLeavesOldOrNew kills builds with SIGKILL at random
// moments over their whole run. After each kill, the output tree and the
// package directory must each be the complete previous state or the
// complete new one, with no stray file in them; the next build must finish
// and give the clean build's bytes, and no temporary directory may be left
// beside them once it has. Half of the killed builds run with an empty
// cache (killed mostly while transforming), half with a full one (killed
// mostly while writing the tree and the package).
func TestKilledBuildLeavesOldOrNew(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b696c6c))
	root := t.TempDir()
	states := []string{"A", "B"}
	sources := make(map[string]map[string]string)
	ref := make(map[string]outputs)
	for _, s := range states {
		sources[s] = crashSources(s)
		c := newProject(t, filepath.Join(root, "ref"+s, "crash"), crashTOML, sources[s])
		c.mustBuild(t)
		ref[s] = c.outputs(t)
		if err := os.RemoveAll(filepath.Dir(c.dir)); err != nil {
			t.Fatal(err)
		}
	}
	if d := ref["A"].diff(ref["B"], "A", "B"); d == "" {
		t.Fatal("states A and B build the same bytes")
	}
	for _, name := range ref["A"].out.names() {
		if ref["A"].out[name] == ref["B"].out[name] {
			t.Fatalf("output %s is the same in both states: a mix would not show", name)
		}
	}

	p := newProject(t, filepath.Join(root, "crash"), crashTOML, sources["A"])
	// Each state's files always carry the same, old, modification time,
	// so that the cache answers for a state it has seen, as it would for
	// files checked out long ago.
	stamps := map[string]time.Time{"A": time.Now().Add(-2 * time.Hour), "B": time.Now().Add(-time.Hour)}
	switchTo := func(state string) {
		p.setSources(t, sources[state])
		p.age(t, time.Time{}, stamps[state])
	}
	timed := func(state string) time.Duration {
		switchTo(state)
		start := time.Now()
		p.mustBuild(t)
		return time.Since(start)
	}
	timed("A")
	if err := os.RemoveAll(p.path(".bakefs-cache")); err != nil {
		t.Fatal(err)
	}
	cold := timed("B")
	timed("A")
	warm := timed("B")
	t.Logf("uninterrupted builds: %s with an empty cache, %s with a full one", cold.Round(time.Millisecond), warm.Round(time.Millisecond))
	current := "B"

	const wantKills = 24
	kills, finished := 0, 0
	outcomes := make(map[string]int) // "tree old, package new" and so on
	for attempt := 0; kills < wantKills; attempt++ {
		if attempt >= 3*wantKills {
			t.Fatalf("only %d of %d builds were still running when killed", kills, attempt)
		}
		target := "A"
		if current == "A" {
			target = "B"
		}
		switchTo(target)
		span, how := warm, "full cache"
		if attempt%2 == 0 {
			span, how = cold, "empty cache"
			if err := os.RemoveAll(p.path(".bakefs-cache")); err != nil {
				t.Fatal(err)
			}
		}
		delay := time.Duration(rng.Int64N(int64(span)*12/10 + 1))
		what := fmt.Sprintf("build %d (%s → %s, %s) killed after %s", attempt+1, current, target, how, delay)
		if killed := p.buildKilledAfter(t, delay); killed {
			kills++
		} else {
			finished++
		}
		got := p.outputs(t)
		outState, pkgState := "", ""
		for _, s := range []string{current, target} {
			if got.out.diff(ref[s].out, "", "") == "" {
				outState = s
			}
			if got.pkg.diff(ref[s].pkg, "", "") == "" {
				pkgState = s
			}
		}
		if outState == "" {
			t.Fatalf("%s: the output tree is neither state %s nor %s:\n\tagainst %s: %s\n\tagainst %s: %s", what, current, target,
				current, got.out.diff(ref[current].out, "tree", "state "+current), target, got.out.diff(ref[target].out, "tree", "state "+target))
		}
		if pkgState == "" {
			t.Fatalf("%s: the package is neither state %s nor %s:\n\tagainst %s: %s\n\tagainst %s: %s", what, current, target,
				current, got.pkg.diff(ref[current].pkg, "package", "state "+current), target, got.pkg.diff(ref[target].pkg, "package", "state "+target))
		}
		age := func(s string) string {
			if s == current {
				return "old"
			}
			return "new"
		}
		outcomes["tree "+age(outState)+", package "+age(pkgState)]++
		if r := p.build(t); r.code != 0 {
			t.Fatalf("%s: the next build failed:\n%s", what, r)
		}
		if d := p.outputs(t).diff(ref[target], "after the kill", "clean"); d != "" {
			t.Fatalf("%s: the next build differs from a clean build: %s", what, d)
		}
		if extra := p.leftovers(t); len(extra) > 0 {
			t.Fatalf("%s: after the next build finished, left beside the outputs: %s", what, strings.Join(extra, ", "))
		}
		current = target
	}
	t.Logf("survived %d kills (%d more builds finished before their kill); states found after a kill: %v", kills, finished, outcomes)
}

// buildKilledAfter starts a build, sends it SIGKILL after delay and waits
// for it. It reports whether the build was still running when killed.
func (p *project) buildKilledAfter(t testing.TB, delay time.Duration) bool {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := command(p.dir, &stdout, &stderr, "build", "-f", p.path("bakefs.toml"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("build ended before its kill: %v\n%s", err, stderr.String())
		}
		return false
	case <-time.After(delay):
	}
	cmd.Process.Kill()
	err := <-done
	return err != nil && cmd.ProcessState != nil && !cmd.ProcessState.Exited()
}
