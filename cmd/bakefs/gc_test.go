package main

import (
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestNextHeapFactor(t *testing.T) {
	f := maxHeapFactor
	for range 10 {
		f = nextHeapFactor(f, 0.01)
	}
	if f != minHeapFactor {
		t.Fatalf("after cheap collections the factor is %v, want %v", f, minHeapFactor)
	}
	if g := nextHeapFactor(f, 0.07); g != f {
		t.Fatalf("a share inside the band moved the factor from %v to %v", f, g)
	}
	for range 10 {
		f = nextHeapFactor(f, 0.3)
	}
	if f != maxHeapFactor {
		t.Fatalf("after costly collections the factor is %v, want %v", f, maxHeapFactor)
	}
}

func TestSoftLimitFor(t *testing.T) {
	if got := softLimitFor(10<<20, maxHeapFactor); got != defaultMemoryLimit {
		t.Errorf("small heap: limit %d, want the default %d", got, defaultMemoryLimit)
	}
	if got, want := softLimitFor(200<<20, 1.25), int64(250<<20); got != want {
		t.Errorf("200 MiB live at 1.25: limit %d, want %d", got, want)
	}
}

// TestGCTunerReadsMetrics checks that the metrics the tuner reads exist
// in this runtime with the kinds it reads them as, and that one
// adjustment sets a limit no lower than the default.
func TestGCTunerReadsMetrics(t *testing.T) {
	tu := newGCTuner()
	metrics.Read(tu.sample)
	want := []metrics.ValueKind{metrics.KindUint64, metrics.KindUint64, metrics.KindFloat64, metrics.KindFloat64, metrics.KindFloat64}
	for i, s := range tu.sample {
		if s.Value.Kind() != want[i] {
			t.Fatalf("metric %s: kind %v, want %v", s.Name, s.Value.Kind(), want[i])
		}
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	tu.adjust()
	if tu.limit < defaultMemoryLimit {
		t.Errorf("limit %d below the default", tu.limit)
	}
}
