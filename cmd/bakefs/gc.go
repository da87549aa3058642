package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// defaultMemoryLimit is the soft memory limit of a one-shot build when the
// user sets neither GOGC nor GOMEMLIMIT.
const defaultMemoryLimit = 192 << 20

// relaxGC sets the collector of a one-shot build to run only when it must.
// While the live heap is under three quarters of defaultMemoryLimit, nothing
// collects by heap growth (GOGC=off) and the limit is soft: the collector
// runs when memory in use reaches it. Bundling a thousand modules spends
// about a fifth of its CPU in the collector at Go's default setting
// (BenchmarkBundleGC); this way it spends that only when memory is short,
// and the peak of a build whose live data is small stays bounded (where
// GOGC=400 let a large build grow past 1 GB).
//
// A build whose live data outgrows three quarters of the limit (a bundle of thousands
// of modules) would make the collector run again and again to hold a
// limit it cannot hold, up to half of the CPU; from the first collection
// that finds it so, the build is given Go's default pacing instead
// (GOGC=100, no limit), which needs about twice the live heap. When the
// live heap falls under three quarters of the limit again, the limit comes back.
//
// GOGC or GOMEMLIMIT in the environment override all of this; the dev
// server, which runs for hours, keeps Go's defaults. relaxGC may be called
// more than once; it sets the tuning up once.
func relaxGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcTuning.Do(func() {
		t := &gcTuner{limit: defaultMemoryLimit, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		t.set(false)
		t.arm()
	})
}

var gcTuning sync.Once

// A gcTuner switches the collector between a soft memory limit and Go's
// default pacing after each collection, by the live heap it found.
type gcTuner struct {
	limit  int64
	sample []metrics.Sample
	paced  bool // on Go's default pacing
}

// set puts the collector on the soft limit (paced false) or on Go's
// default pacing (paced true).
func (t *gcTuner) set(paced bool) {
	t.paced = paced
	if paced {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(t.limit)
	debug.SetGCPercent(-1)
}

// arm makes the end of the next collection call adjust: a cleanup runs
// once the collector has found an object unreachable.
func (t *gcTuner) arm() {
	runtime.AddCleanup(new([64]byte), func(t *gcTuner) { t.adjust() }, t)
}

// adjust chooses the setting for the live heap the last collection
// found, and arms itself for the next one.
func (t *gcTuner) adjust() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live := int64(t.sample[0].Value.Uint64())
		if paced := live > t.limit/4*3; paced != t.paced {
			t.set(paced)
		}
	}
	t.arm()
}
