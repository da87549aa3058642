package web

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// These benchmarks measure whether switching the garbage collector off
// during a bundle, as esbuild's command-line tool does for its one-shot
// process, pays in a long-running process. Run them with
//
//	go test ./transform -run '^$' -bench BundleGC -benchtime 20x
//
// BenchmarkBundleGC runs a 1000-module bundle under each collector setting
// in turn, every iteration, and reports for each variant the median of
// its time relative to the default's ("off/default" below 1 means faster
// with the collector off; the median keeps a busy machine's hiccups out),
// the heap it leaves to collect afterwards, and, for the default, the
// share of the CPU time that went to the collector.

// benchProject writes a project of n TypeScript modules: an entry that
// imports them all, each module importing the one before it, so that
// esbuild parses, links and prints n files.
func benchProject(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	var entry strings.Builder
	for i := 0; i < n; i++ {
		var src strings.Builder
		if i > 0 {
			fmt.Fprintf(&src, "import { Shape%04d, area%04d } from \"./mod%04d\";\n", i-1, i-1, i-1)
		}
		src.WriteString(strings.ReplaceAll(`
export enum KindNNNN { Circle = "circle", Square = "square" }

export interface ShapeNNNN {
  kind: KindNNNN;
  size: number;
  label?: string;
}

export class RegistryNNNN<T extends ShapeNNNN> {
  #items = new Map<string, T>();
  add(name: string, item: T): this {
    this.#items.set(name, item);
    return this;
  }
  total(): number {
    let sum = 0;
    for (const [, item] of this.#items) sum += areaNNNN(item);
    return sum;
  }
}

export function areaNNNN(s: ShapeNNNN): number {
  const r = s.size / 2;
  return s.kind === KindNNNN.Circle ? Math.PI * r * r : s.size ** 2;
}

export const describeNNNN = (s: ShapeNNNN): string =>
  `+"`${s.label ?? s.kind} of size ${s.size} has area ${areaNNNN(s).toFixed(2)}`"+`;
`, "NNNN", fmt.Sprintf("%04d", i)))
		if i > 0 {
			fmt.Fprintf(&src, "\nexport const chained%04d = (s: Shape%04d) => area%04d(s) + 1;\n", i, i-1, i-1)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("mod%04d.ts", i)), []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&entry, "export { describe%04d } from \"./mod%04d\";\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.ts"), []byte(entry.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// gcVariant runs f under one garbage collector setting and restores the
// previous one.
type gcVariant struct {
	name    string
	percent int // for debug.SetGCPercent; 0 leaves the setting alone
}

var gcVariants = []gcVariant{{"default", 0}, {"gogc400", 400}, {"off", -1}}

func (v gcVariant) run(f func()) {
	if v.percent != 0 {
		old := debug.SetGCPercent(v.percent)
		defer debug.SetGCPercent(old)
	}
	f()
}

func BenchmarkBundleGC(b *testing.B) {
	const modules = 1000
	dir := benchProject(b, modules)
	step := mustStep(b, "bundle:minify=true")
	entry := esLoad(b, dir, "main.ts")
	bundle := func() {
		out, err := step.Step.Run(transform.NewContext(b.Context(), dir, transform.Release), []*transform.Asset{entry})
		if err != nil {
			b.Fatal(err)
		}
		if len(out) != 1 || len(out[0].Data) < modules*50 {
			b.Fatalf("unexpected output %s", esPaths(out))
		}
	}
	bundle() // warm up: file system caches, lazily built tables

	cpu := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/user:cpu-seconds"}}
	var gcCPU, userCPU float64
	ratios := make([][]float64, len(gcVariants))
	garbage := make([]uint64, len(gcVariants))
	var defaultTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var base time.Duration
		for j, v := range gcVariants {
			// Collect first, so that no variant pays for the garbage of
			// the one before.
			b.StopTimer()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			metrics.Read(cpu)
			gc0, user0 := cpu[0].Value.Float64(), cpu[1].Value.Float64()
			b.StartTimer()
			start := time.Now()
			v.run(bundle)
			took := time.Since(start)
			b.StopTimer()
			metrics.Read(cpu)
			runtime.ReadMemStats(&after)
			if j == 0 {
				base = took
				defaultTime += took
				gcCPU += cpu[0].Value.Float64() - gc0
				userCPU += cpu[1].Value.Float64() - user0
			}
			ratios[j] = append(ratios[j], float64(took)/float64(base))
			garbage[j] += after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
			b.StartTimer()
		}
	}
	b.StopTimer()
	for j, v := range gcVariants {
		if j > 0 {
			b.ReportMetric(median(ratios[j]), v.name+"/default")
		}
		b.ReportMetric(float64(garbage[j])/float64(b.N)/(1<<20), v.name+"-heap-MB")
	}
	b.ReportMetric(float64(defaultTime.Nanoseconds())/float64(b.N), "default-ns/bundle")
	if gcCPU+userCPU > 0 {
		b.ReportMetric(gcCPU/(gcCPU+userCPU), "default-gc-cpu-share")
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// BenchmarkBundle1000 is the plain figure: a 1000-module bundle with the
// settings the step uses.
func BenchmarkBundle1000(b *testing.B) {
	dir := benchProject(b, 1000)
	step := mustStep(b, "bundle:minify=true")
	entry := esLoad(b, dir, "main.ts")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := step.Step.Run(transform.NewContext(b.Context(), dir, transform.Release), []*transform.Asset{entry}); err != nil {
			b.Fatal(err)
		}
	}
}
