package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// defaultMemoryLimit is the least soft memory limit of a one-shot build
// when the user sets neither GOGC nor GOMEMLIMIT.
const defaultMemoryLimit = 192 << 20

// relaxGC sets the collector of a one-shot build to run only when memory
// in use reaches a soft limit (GOGC=off with a GOMEMLIMIT), which is
// defaultMemoryLimit or three times the live heap that the last
// collection found, whichever is more. So a build of many small jobs stays
// under defaultMemoryLimit and collects only when it reaches it (bundling
// a thousand modules spends a fifth of its CPU in the collector at Go's
// default pacing, BenchmarkBundleGC), and one whose live data is large (a
// bundle of thousands of modules) collects at three times its live heap,
// where Go's default, GOGC=100, collects at twice: three.js ×10 (7,600
// modules) collects 3 times instead of 11 and bundles in 1.5× the
// esbuild CLI's time instead of 1.9×, at a peak of 430 MB (the CLI, which
// turns collection off, 510 MB). A limit that follows the live heap never
// makes the collector run again and again to hold what it cannot hold.
//
// GOGC or GOMEMLIMIT in the environment override all of this; the dev
// server, which runs for hours, keeps Go's defaults. relaxGC may be called
// more than once; it sets the tuning up once.
func relaxGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcTuning.Do(func() {
		t := &gcTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		debug.SetGCPercent(-1)
		t.setLimit(softLimitFor(0))
		t.arm()
	})
}

var gcTuning sync.Once

// softLimitFor returns the soft memory limit of a build whose last
// collection found live bytes of live heap; see relaxGC.
func softLimitFor(live int64) int64 {
	return max(defaultMemoryLimit, 3*live)
}

// A gcTuner sets the soft memory limit after each collection, by the live
// heap it found.
type gcTuner struct {
	sample []metrics.Sample
	limit  int64 // the limit set
}

func (t *gcTuner) setLimit(limit int64) {
	if limit != t.limit {
		t.limit = limit
		debug.SetMemoryLimit(limit)
	}
}

// arm makes the end of the next collection call adjust: a cleanup runs
// once the collector has found an object unreachable.
func (t *gcTuner) arm() {
	runtime.AddCleanup(new([64]byte), func(t *gcTuner) { t.adjust() }, t)
}

// adjust sets the limit for the live heap the last collection found, and
// arms itself for the next one.
func (t *gcTuner) adjust() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		t.setLimit(softLimitFor(int64(t.sample[0].Value.Uint64())))
	}
	t.arm()
}
