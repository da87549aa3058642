// Package bench holds the in-process benchmarks of the bakefs pipeline on
// synthetic trees (see bench/synth), run with
//
//	go test -run '^$' -bench . -benchtime 20x ./bench/
//
// The side-by-side comparisons with other tools, reported as ratios, are
// bench/suite, which bench/run.sh runs once it has installed the peers
// (make bench); bench/README.md explains both and keeps the latest figures.
package bench
