package synth

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func generate(t *testing.T, o Options) (string, *Summary) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tree")
	sum, err := Generate(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

func TestGenerateDeterministic(t *testing.T) {
	o := Options{Files: 120, Size: 1500, Seed: 7}
	dirA, _ := generate(t, o)
	dirB, _ := generate(t, o)
	a, b := readTree(t, dirA), readTree(t, dirB)
	if len(a) != len(b) {
		t.Fatalf("same options, %d files then %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs with the same options", name)
		}
	}
	o.Seed = 8
	dirC, _ := generate(t, o)
	c := readTree(t, dirC)
	if bytes.Equal(a[FirstCSS], c[FirstCSS]) {
		t.Errorf("%s is the same with seeds 7 and 8", FirstCSS)
	}
}

func TestGenerateCounts(t *testing.T) {
	tests := []struct {
		name string
		o    Options
	}{
		{"smallest", Options{Files: MinFiles, Size: MinSize}},
		{"odd count", Options{Files: 57, Size: 1500, GroupSize: 7}},
		{"defaults", Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, sum := generate(t, tt.o)
			o, _ := tt.o.withDefaults()
			files := readTree(t, filepath.Join(dir, SourceDir))
			if sum.Files != o.Files || len(files) != o.Files {
				t.Fatalf("summary says %d files, disk has %d, want %d", sum.Files, len(files), o.Files)
			}
			var total int64
			kinds := make(map[string]int)
			for name, data := range files {
				total += int64(len(data))
				kinds[kindOf(name)]++
			}
			if total != sum.Bytes {
				t.Errorf("summary says %d bytes, disk has %d", sum.Bytes, total)
			}
			for k, n := range kinds {
				if sum.ByKind[k] != n {
					t.Errorf("summary says %d %s files, disk has %d", sum.ByKind[k], k, n)
				}
			}
			if mean := total / int64(o.Files); mean < int64(o.Size)*3/4 || mean > int64(o.Size)*3/2 {
				t.Errorf("mean size %d, want about %d", mean, o.Size)
			}
			for _, name := range []string{LeafModule, FirstCSS, AllEntry} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("fixed name: %v", err)
				}
			}
			for _, e := range sum.Entries {
				if !isEntry(e) {
					t.Errorf("entry %s is not at ts/*.ts", e)
				}
			}
		})
	}
}

// importRE finds the imports of the generated TypeScript.
var importRE = regexp.MustCompile(`(?m)^import .* from "(\./[^"]+)";$`)

// TestImportGraph checks that every import resolves, every module is
// reachable from all.ts, and LeafModule is a dependency of its whole group.
func TestImportGraph(t *testing.T) {
	dir, _ := generate(t, Options{Files: 300, Size: 1024, GroupSize: 9})
	files := readTree(t, filepath.Join(dir, SourceDir))
	deps := make(map[string][]string)
	for name, data := range files {
		if kindOf(name) != "ts" {
			continue
		}
		for _, m := range importRE.FindAllSubmatch(data, -1) {
			dep := path.Join(path.Dir(name), string(m[1])) + ".ts"
			if _, ok := files[dep]; !ok {
				t.Fatalf("%s imports %s, which does not exist", name, m[1])
			}
			deps[name] = append(deps[name], dep)
		}
	}
	reach := func(from string) map[string]bool {
		seen := map[string]bool{from: true}
		stack := []string{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range deps[n] {
				if !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
		return seen
	}
	fromAll := reach(strings.TrimPrefix(AllEntry, SourceDir+"/"))
	leaf := strings.TrimPrefix(LeafModule, SourceDir+"/")
	for name := range files {
		if kindOf(name) != "ts" {
			continue
		}
		if !fromAll[name] {
			t.Errorf("%s is not reachable from all.ts", name)
		}
		if strings.HasPrefix(name, "ts/g00/") && name != leaf && !reach(name)[leaf] {
			t.Errorf("%s does not depend on %s", name, leaf)
		}
	}
}

// TestProjectBuilds loads the generated bakefs.toml, checks that it gives
// one job per file outside the module directories, and runs the bundles
// through the real pipeline.
func TestProjectBuilds(t *testing.T) {
	dir, sum := generate(t, Options{Files: 60, Size: 1024, GroupSize: 5})
	p, err := project.Load(filepath.Join(dir, ProjectFile))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	modules := sum.ByKind["ts"] - len(sum.Entries)
	if want := sum.Files - modules; len(jobs) != want {
		t.Fatalf("%d jobs, want %d (every file but the %d modules)", len(jobs), want, modules)
	}
	var bundles []*pipeline.Job
	for _, j := range jobs {
		if strings.HasSuffix(j.Path, ".ts") {
			bundles = append(bundles, j)
		}
	}
	pipe := &pipeline.Pipeline{Root: p.Src, Profile: transform.Dev}
	res, err := pipe.Run(context.Background(), bundles)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sum.Entries {
		js := strings.TrimSuffix(e, ".ts") + ".js"
		if _, ok := res.Manifest.Lookup(js); !ok {
			t.Errorf("no %s in the manifest", js)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  string
		o    Options
		want error
	}{
		{"too few files", t.TempDir(), Options{Files: 3}, ErrOptions},
		{"too many files", t.TempDir(), Options{Files: MaxFiles + 1}, ErrOptions},
		{"negative size", t.TempDir(), Options{Size: -1}, ErrOptions},
		{"huge size", t.TempDir(), Options{Size: MaxSize + 1}, ErrOptions},
		{"bad group", t.TempDir(), Options{GroupSize: -2}, ErrOptions},
		{"not empty", full, Options{}, ErrNotEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generate(tt.dir, tt.o)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.want == ErrNotEmpty && !strings.Contains(err.Error(), tt.dir) {
				t.Errorf("error %q does not name %s", err, tt.dir)
			}
		})
	}
}
