package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bakefs/bakefs/bench/synth"
	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// fixture is a 1,000-file synthetic tree built once with a cold cache and
// shared by the benchmarks of this file.
var fixture struct {
	once sync.Once
	dir  string
	err  error
}

// tempRoot holds every tree of this test binary; TestMain removes it.
var tempRoot string

func TestMain(m *testing.M) {
	var err error
	tempRoot, err = os.MkdirTemp("", "bakefs-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tempRoot)
	os.Exit(code)
}

// warmTree returns the project file of the shared tree, built once so that
// its cache and output tree are complete.
func warmTree(b *testing.B) string {
	b.Helper()
	fixture.once.Do(func() {
		fixture.dir = filepath.Join(tempRoot, "tree1000")
		if _, fixture.err = synth.Generate(fixture.dir, synth.Options{Files: 1000}); fixture.err != nil {
			return
		}
		_, fixture.err = build(filepath.Join(fixture.dir, synth.ProjectFile))
	})
	if fixture.err != nil {
		b.Fatal(fixture.err)
	}
	return filepath.Join(fixture.dir, synth.ProjectFile)
}

// build is what bakefs build does before writing a Go package: load the
// project, walk the sources, run the pipeline with the cache, write the
// tree.
func build(file string) (*pipeline.Result, error) {
	p, err := project.Load(file)
	if err != nil {
		return nil, err
	}
	jobs, err := p.Jobs()
	if err != nil {
		return nil, err
	}
	pipe := &pipeline.Pipeline{Root: p.Src, Profile: p.Profile}
	if p.Cache != "" {
		pipe.Cache = &pipeline.Cache{Dir: p.Cache}
	}
	res, err := pipe.Run(context.Background(), jobs)
	if err != nil {
		return nil, err
	}
	if _, err := res.WriteTree(p.Out); err != nil {
		return nil, err
	}
	return res, nil
}

// BenchmarkWarmBuild1000 is a no-change rebuild of 1,000 source files: every
// job is answered by the cache and the output tree is left as it is.
func BenchmarkWarmBuild1000(b *testing.B) {
	file := warmTree(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := build(file)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Ran != 0 {
			b.Fatalf("%d jobs ran in a no-change build", res.Stats.Ran)
		}
	}
}

// BenchmarkOneCSSChanged1000 rebuilds after one style sheet changed: one
// minify chain runs, the other jobs come from the cache, and the tree is
// rewritten with hard links for the unchanged files.
func BenchmarkOneCSSChanged1000(b *testing.B) {
	benchmarkOneChanged(b, synth.FirstCSS, "\n.bench-%d { order: %d; }\n", 1)
}

// BenchmarkOneModuleChanged1000 rebuilds after the first TypeScript module
// changed: the bundles of its group's entry and of all.ts run again.
func BenchmarkOneModuleChanged1000(b *testing.B) {
	benchmarkOneChanged(b, synth.LeafModule, "\nexport const bench%d = %d;\n", 2)
}

// edits numbers the changes of this test binary, so that no change repeats
// one that the cache has seen, whatever -count and b.N are.
var edits atomic.Int64

func benchmarkOneChanged(b *testing.B, rel, format string, wantRan int) {
	file := warmTree(b)
	src := filepath.Join(filepath.Dir(file), rel)
	orig, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		os.WriteFile(src, orig, 0o644)
		build(file)
	}()
	for b.Loop() {
		b.StopTimer()
		n := edits.Add(1)
		// Content never seen before, so that the cache cannot answer it.
		data := append(append([]byte(nil), orig...), fmt.Sprintf(format, n, n)...)
		if err := os.WriteFile(src, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := build(file)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Ran != wantRan {
			b.Fatalf("%d jobs ran after changing %s, want %d", res.Stats.Ran, rel, wantRan)
		}
	}
}
