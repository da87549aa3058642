package consistency

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// raceModules is the number of modules of the race test's bundle, enough
// for esbuild to take a while over it.
const raceModules = 400

// raceSources returns a bundle of raceModules modules and lib/dep.ts.
func raceSources() map[string]string {
	files := make(map[string]string)
	var app strings.Builder
	app.WriteString("import { dep } from \"./lib/dep\";\n")
	for i := range raceModules {
		fmt.Fprintf(&app, "import { f%d } from \"./lib/m%d\";\n", i, i)
		var m strings.Builder
		fmt.Fprintf(&m, "export function f%d(n: number): string {\n  const parts: string[] = [];\n", i)
		for j := range 12 {
			fmt.Fprintf(&m, "  if (n > %d) parts.push(\"module %d part %d\");\n", j, i, j)
		}
		m.WriteString("  return parts.join(\",\");\n}\n")
		files[fmt.Sprintf("src/lib/m%d.ts", i)] = m.String()
	}
	app.WriteString("export const all: string[] = [dep")
	for i := range raceModules {
		fmt.Fprintf(&app, ", f%d(%d)", i, i%13)
	}
	app.WriteString("];\n")
	files["src/app.ts"] = app.String()
	files["src/lib/dep.ts"] = depVersion("A")
	return files
}

// depVersion returns lib/dep.ts in version "A" or "B", of one size.
func depVersion(v string) string {
	return "export const dep: string = \"the dependency in version " + v + "\";\n"
}

// writeAtomic replaces a file by renaming a complete temporary file over
// it, so that a reader sees one version or the other, never a mix.
func writeAtomic(t testing.TB, file, body string) {
	t.Helper()
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, file); err != nil {
		t.Error(err)
	}
}

// TestDependencyEditedDuringBuild: a file that a bundle imports is
// rewritten again and again, between two versions, while a build runs.
// Whatever that build made of it, the next builds must not take the
// bytes built from one version for the other's: with the file at either
// version, the incremental build equals the clean build of that version.
// The rewriting is timed by the build, not by the test, but the verdict is
// not: a correct cache passes every iteration whatever the interleaving,
// and a cache that records a dependency's hash after the step read it
// fails when the file changed in between, which the iterations make all
// but certain.
func TestDependencyEditedDuringBuild(t *testing.T) {
	root := t.TempDir()
	toml := strings.Replace(bundleTOML, `match = "app.ts*"`, `match = "app.ts"`, 1)
	ref := make(map[string]outputs)
	for _, v := range []string{"A", "B"} {
		files := raceSources()
		files["src/lib/dep.ts"] = depVersion(v)
		c := newProject(t, filepath.Join(root, "ref"+v, "proj"), toml, files)
		c.mustBuild(t)
		ref[v] = c.outputs(t)
	}
	if !strings.Contains(ref["A"].out["app.js"], "version A") || ref["A"].diff(ref["B"], "A", "B") == "" {
		t.Fatal("the two versions of lib/dep.ts do not show in the bundle")
	}

	p := newProject(t, filepath.Join(root, "race", "proj"), toml, raceSources())
	p.age(t, time.Time{}, time.Now().Add(-time.Hour))
	start := time.Now()
	p.mustBuild(t)
	span := time.Since(start)
	t.Logf("one build: %s", span.Round(time.Millisecond))
	dep := p.path("src/lib/dep.ts")
	const iterations = 10
	racing := make(map[int]int)
	for i := range iterations {
		// The file is rewritten from the start of the build for at most
		// one and a half times its usual length, so that a build that
		// waits for its inputs to settle can finish.
		var stdout, stderr bytes.Buffer
		cmd := command(p.dir, &stdout, &stderr, "build", "-f", p.path("bakefs.toml"))
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			until := time.Now().Add(span * 3 / 2)
			for n := 0; time.Now().Before(until); n++ {
				select {
				case <-stop:
					return
				default:
				}
				writeAtomic(t, dep, depVersion([]string{"A", "B"}[n%2]))
				time.Sleep(time.Millisecond)
			}
		}()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		close(stop)
		wg.Wait()
		racing[cmd.ProcessState.ExitCode()]++

		for _, v := range []string{"A", "B"} {
			writeAtomic(t, dep, depVersion(v))
			r := p.build(t)
			if r.code != 0 {
				t.Fatalf("iteration %d: the build after the racing one, with lib/dep.ts at version %s, failed:\n%s", i+1, v, r)
			}
			if d := p.outputs(t).diff(ref[v], "incremental", "clean"); d != "" {
				t.Fatalf("iteration %d: after a build during which lib/dep.ts was rewritten, the build with it at version %s differs from a clean build: %s", i+1, v, d)
			}
		}
	}
	t.Logf("%d iterations; exit statuses of the builds that raced with the edits: %v", iterations, racing)
}
