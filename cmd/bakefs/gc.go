package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// defaultMemoryLimit is the least soft memory limit of a one-shot build
// when the user sets neither GOGC nor GOMEMLIMIT.
const defaultMemoryLimit = 192 << 20

// The bounds of the soft limit over the live heap, the step by which the
// factor between them moves, and the collector's shares of the CPU above
// which it rises and below which it falls.
const (
	maxHeapFactor  = 3.0
	minHeapFactor  = 1.25
	heapFactorStep = 1.5
	gcCPUHigh      = 0.10 // above it the limit rises
	gcCPULow       = 0.05 // below it the limit falls
)

// gcShareWindow is the least CPU time, in seconds, over which the
// collector's share is measured: collections that follow each other
// closely are counted together, since one of them alone says little.
const gcShareWindow = 0.25

// gcPollInterval is how often the tuner looks for a finished collection.
const gcPollInterval = 5 * time.Millisecond

// relaxGC sets the collector of a one-shot build to run only when memory
// in use reaches a soft limit (GOGC=off with a GOMEMLIMIT): the larger of
// defaultMemoryLimit and the live heap the last collection found times a
// factor between minHeapFactor and maxHeapFactor, which follows what the
// collections cost, as a JVM sizes its heap for a GC time ratio. The
// factor starts at maxHeapFactor; once the collections since it was last
// weighed span gcShareWindow of CPU time, it rises when the collector took
// more than gcCPUHigh of that CPU, and falls when it took less than
// gcCPULow.
//
// So a build of many small jobs stays under defaultMemoryLimit and
// collects only when it reaches it (bundling a thousand modules spends a
// fifth of its CPU in the collector at Go's default pacing,
// BenchmarkBundleGC); one whose live data is large and allocated fast (a
// bundle of thousands of modules: three.js ×10, 7,600 modules, spends
// 6–32 % in each interval) collects at three times its live heap, where
// Go's default, GOGC=100, collects at twice, as the esbuild CLI's speed
// needs; and one whose live heap is large but mostly idle (the encoders'
// pooled tables of a tree with photos: 150 MiB live, under 2 % of the CPU
// in the collector) collects at 1.25 times it instead of holding three
// times that much memory. A limit that follows the live heap never makes
// the collector run again and again to hold what it cannot hold.
//
// GOGC or GOMEMLIMIT in the environment override all of this; the dev
// server, which runs for hours, keeps Go's defaults. relaxGC may be called
// more than once; it sets the tuning up once.
func relaxGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcTuning.Do(func() {
		t := newGCTuner()
		debug.SetGCPercent(-1)
		t.setLimit(defaultMemoryLimit)
		go t.follow()
	})
}

var gcTuning sync.Once

// softLimitFor returns the soft memory limit for live bytes of live heap
// at factor; see relaxGC.
func softLimitFor(live int64, factor float64) int64 {
	return max(defaultMemoryLimit, int64(factor*float64(live)))
}

// nextHeapFactor returns the factor that follows factor after collections
// that took gcShare of the CPU used over their window.
func nextHeapFactor(factor, gcShare float64) float64 {
	switch {
	case gcShare > gcCPUHigh:
		return min(maxHeapFactor, factor*heapFactorStep)
	case gcShare < gcCPULow:
		return max(minHeapFactor, factor/heapFactorStep)
	}
	return factor
}

// A gcTuner sets the soft memory limit after each collection, by the live
// heap it found and the CPU the collections took.
type gcTuner struct {
	sample  []metrics.Sample // in the order of the gcTuner* indexes
	limit   int64            // the limit set
	factor  float64          // the limit over the live heap; see relaxGC
	cycles  uint64           // collections seen
	gcCPU   float64          // at the window's start: the collector's CPU seconds, its idle-time marking left out
	userCPU float64          // at the window's start: the program's CPU seconds
}

const (
	gcTunerCycles = iota
	gcTunerLive
	gcTunerGCTotal
	gcTunerGCIdle
	gcTunerUser
)

func newGCTuner() *gcTuner {
	return &gcTuner{factor: maxHeapFactor, sample: []metrics.Sample{
		gcTunerCycles:  {Name: "/gc/cycles/total:gc-cycles"},
		gcTunerLive:    {Name: "/gc/heap/live:bytes"},
		gcTunerGCTotal: {Name: "/cpu/classes/gc/total:cpu-seconds"},
		gcTunerGCIdle:  {Name: "/cpu/classes/gc/mark/idle:cpu-seconds"},
		gcTunerUser:    {Name: "/cpu/classes/user:cpu-seconds"},
	}}
}

func (t *gcTuner) setLimit(limit int64) {
	if limit != t.limit {
		t.limit = limit
		debug.SetMemoryLimit(limit)
	}
}

// follow adjusts the limit within gcPollInterval of the end of each
// collection, for the rest of the process. (A cleanup or finalizer would
// run only once the sweeper reached its object, which in a busy build is
// often after the next collection.)
func (t *gcTuner) follow() {
	for range time.Tick(gcPollInterval) {
		metrics.Read(t.sample[:gcTunerCycles+1])
		if t.sample[gcTunerCycles].Value.Uint64() != t.cycles {
			t.adjust()
		}
	}
}

// adjust sets the limit for the live heap the last collection found, after
// weighing the factor when the window has reached gcShareWindow.
func (t *gcTuner) adjust() {
	metrics.Read(t.sample)
	v := func(i int) metrics.Value { return t.sample[i].Value }
	t.cycles = v(gcTunerCycles).Uint64()
	gc := v(gcTunerGCTotal).Float64() - v(gcTunerGCIdle).Float64()
	user := v(gcTunerUser).Float64()
	if used := gc - t.gcCPU + user - t.userCPU; used >= gcShareWindow {
		t.factor = nextHeapFactor(t.factor, (gc-t.gcCPU)/used)
		t.gcCPU, t.userCPU = gc, user
	}
	t.setLimit(softLimitFor(int64(v(gcTunerLive).Uint64()), t.factor))
}
