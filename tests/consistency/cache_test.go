package consistency

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mixedTOML is a small project with a bundle and minified files, with
// variants and hashed names, a package, and the cache given by %s.
const mixedTOML = `src      = "src"
out      = "out"
profile  = "dev"
compress = ["gzip", "br"]
hash     = true
%s
[package]
dir  = "pkg/assets"
name = "assets"

[[rule]]
match = "app.ts"
steps = ["bundle:format=esm"]

[[rule]]
match = ["styles/*.css", "data/*.json"]
steps = ["minify"]
`

// mixedSources returns the sources of a mixedTOML project, marked with
// tag so that two projects differ. With sameEntry, the bundle's entry
// point is the same file in every project and only the module it imports
// differs.
func mixedSources(tag string, sameEntry bool) map[string]string {
	entryTag := tag
	if sameEntry {
		entryTag = "you"
	}
	return map[string]string{
		"src/app.ts":       "import { greet } from \"./lib/util\";\nexport const s: string = greet(\"" + entryTag + "\");\n",
		"src/lib/util.ts":  "export function greet(n: string): string {\n  return \"hello \" + n + \" from " + tag + "\";\n}\n",
		"src/styles/a.css": "." + tag + " {\n  color: #123456;\n  margin: 0px 0px 0px 0px;\n}\n" + rules(40),
		"src/data/d.json":  "{ \"tag\": \"" + tag + "\", \"list\": [ 1, 2, 3 ] }\n",
	}
}

// rules returns n distinct CSS rules, enough for compression to pay.
func rules(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ".rule-%d {\n  padding: %dpx;\n  color: #%06x;\n}\n", i, i, i*4099)
	}
	return b.String()
}

// cacheFiles returns the regular files under the cache's dir/sub, as
// paths relative to dir.
func cacheFiles(t *testing.T, dir, sub string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, sub), func(file string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, file)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDamagedCacheRebuilt: a cache entry or blob damaged on disk is never
// copied into an output and never fails the build: it is discarded, the
// job runs again, and the output equals a clean build's.
func TestDamagedCacheRebuilt(t *testing.T) {
	tests := []struct {
		name   string
		sub    string // where under the cache
		damage func(t *testing.T, file string)
	}{
		{"blob byte flipped", "blobs", func(t *testing.T, file string) { flipByte(t, file, 7) }},
		{"blob truncated", "blobs", func(t *testing.T, file string) {
			if err := os.Truncate(file, 1); err != nil {
				t.Fatal(err)
			}
		}},
		{"entry garbled", "entries", func(t *testing.T, file string) { flipByte(t, file, 0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			p := newProject(t, filepath.Join(root, "proj"), strings.Replace(mixedTOML, "%s", "", 1), mixedSources("damaged", false))
			p.age(t, time.Time{}, time.Now().Add(-time.Hour))
			p.mustBuild(t)
			cache := p.path(".bakefs-cache")
			files := cacheFiles(t, cache, tt.sub)
			if len(files) == 0 {
				t.Fatalf("no files under %s/%s after a build", cache, tt.sub)
			}
			for _, f := range files {
				tt.damage(t, filepath.Join(cache, f))
			}
			if err := os.RemoveAll(p.path(outDir)); err != nil {
				t.Fatal(err)
			}
			r := p.build(t)
			if r.code != 0 {
				t.Fatalf("the build with a damaged cache (%d files under %s) failed:\n%s", len(files), tt.sub, r)
			}
			_, want := p.cleanCopy(t, root)
			if d := p.outputs(t).diff(want, "with the damaged cache", "clean"); d != "" {
				t.Fatalf("damaged cache: %s", d)
			}
			// What the build stored in place of the damage serves the
			// next one.
			if err := os.RemoveAll(p.path(outDir)); err != nil {
				t.Fatal(err)
			}
			p.mustBuild(t)
			if d := p.outputs(t).diff(want, "after the repair", "clean"); d != "" {
				t.Fatalf("repaired cache: %s", d)
			}
		})
	}
}

// TestSharedCacheDir: two projects that share one cache directory keep
// each other's entries and file indexes: building A, then B, then A and B
// again runs no step the second time round, and every build equals the
// project's clean build. That holds too when the two bundles' entry
// points are the same file and their imports differ.
func TestSharedCacheDir(t *testing.T) {
	for _, sameEntry := range []bool{false, true} {
		name := "different sources"
		if sameEntry {
			name = "same entry point, different imports"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			toml := strings.Replace(mixedTOML, "%s", `cache    = "../shared-cache"`, 1)
			a := newProject(t, filepath.Join(root, "a"), toml, mixedSources("alpha", sameEntry))
			b := newProject(t, filepath.Join(root, "b"), toml, mixedSources("beta", sameEntry))
			for _, p := range []*project{a, b} {
				p.age(t, time.Time{}, time.Now().Add(-time.Hour))
			}
			_, wantA := a.cleanCopy(t, root)
			_, wantB := b.cleanCopy(t, root)
			steps := []struct {
				name    string
				p       *project
				want    outputs
				noneRan bool
			}{
				{"A", a, wantA, false},
				{"B", b, wantB, false},
				{"A again", a, wantA, true},
				{"B again", b, wantB, true},
			}
			for _, s := range steps {
				r := s.p.mustBuild(t)
				ran, _ := summary(r.stderr)
				if s.noneRan && ran != 0 {
					t.Errorf("build %s: %d steps ran, want 0 (the other project's build displaced this one's cache entries):\n%s", s.name, ran, r.stderr)
				}
				if d := s.p.outputs(t).diff(s.want, "build "+s.name, "clean"); d != "" {
					t.Fatalf("build %s: %s", s.name, d)
				}
			}
			if _, err := os.Stat(filepath.Join(root, "shared-cache")); err != nil {
				t.Fatalf("the shared cache directory was not used: %v", err)
			}
		})
	}
}

// TestCachePrune: bakefs cache prune --max-size 0 empties the cache, and
// the next build runs every step and equals a clean build.
func TestCachePrune(t *testing.T) {
	if r := bakefs(t, t.TempDir(), "help", "cache"); r.code != 0 || !strings.Contains(r.stdout, "prune") {
		t.Fatalf("bakefs help cache does not teach prune:\n%s", r)
	}
	root := t.TempDir()
	p := newProject(t, filepath.Join(root, "proj"), strings.Replace(mixedTOML, "%s", "", 1), mixedSources("pruned", false))
	p.age(t, time.Time{}, time.Now().Add(-time.Hour))
	p.mustBuild(t)
	cache := p.path(".bakefs-cache")
	if len(cacheFiles(t, cache, "blobs")) == 0 || len(cacheFiles(t, cache, "entries")) == 0 {
		t.Fatalf("the build stored nothing in %s", cache)
	}
	if r := bakefs(t, p.dir, "cache", "prune", "--max-size", "0"); r.code != 0 {
		t.Fatalf("%s", r)
	}
	for _, sub := range []string{"blobs", "entries"} {
		if left := cacheFiles(t, cache, sub); len(left) > 0 {
			t.Errorf("prune --max-size 0 left %d files under %s, such as %s", len(left), sub, left[0])
		}
	}
	r := p.mustBuild(t)
	if _, cached := summary(r.stderr); cached != 0 {
		t.Errorf("after prune --max-size 0, %d jobs were answered from the cache:\n%s", cached, r.stderr)
	}
	_, want := p.cleanCopy(t, root)
	if d := p.outputs(t).diff(want, "after prune", "clean"); d != "" {
		t.Fatalf("after prune: %s", d)
	}
}
