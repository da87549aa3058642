// Package consistency holds the end-to-end tests of "exact bytes, always":
// an incremental build gives the bytes a clean build gives, whatever was
// edited; a build that fails, is killed or is interrupted leaves the
// previous output tree and Go package whole; and the cache never turns a
// damaged or stale entry into an output.
//
// The tests drive the bakefs binary as a subprocess, built once per test
// process from the repository's sources, on projects they write into
// temporary directories. Run them with
//
//	go test ./tests/consistency/
//
// The random edit sequences and kill delays come from seeds that every run
// logs; BAKEFS_SEED=N (or -consistency.seed=N) replays one. BAKEFS_EDITS=N
// sets the number of edits per sequence. BAKEFS_LATENCY=1 enables
// TestInterruptLatency, which reports the median time from SIGINT to exit
// (go test -v -run TestInterruptLatency ./tests/consistency/).
package consistency
