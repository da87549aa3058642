//go:build race

package hugeheap

// raceEnabled: under the race detector, a heap span costs the detector's
// shadow memory for all of it, which it sets up when the span is
// allocated (seconds for a GiB), so Reserve does nothing there.
const raceEnabled = true
