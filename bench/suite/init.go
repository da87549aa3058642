package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// firstUseBenchmark is a benchmark beside a copy of the generated package:
// the work the package defers from init to the FS's first use (reading the
// manifest, building the indexes), in a loop.
const firstUseBenchmark = `package assets

import (
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
)

func BenchmarkFirstUse(b *testing.B) {
	for b.Loop() {
		bakefs.NewLazy(dataTree(), loadManifest).Path("x")
	}
}
`

// initCost measures section m, goal 6: the init of the real tree's
// generated package (GODEBUG=inittrace=1 over 21 starts), then the work
// deferred to the FS's first use, in a loop, with its profile.
func initCost(s *suite) {
	dir := s.realBuilt()
	s.logf("generated package init")
	s.out("### m. Init of the generated package of the real tree (GODEBUG=inittrace=1)", "")
	s.writeFile(filepath.Join(dir, "cmd", "initbench", "main.go"), "package main\n\nimport _ \"benchreal/pkg/assets\"\n\nfunc main() {}\n")
	bin := s.path("bin", "initbench")
	s.cmd(dir, []string{"GOFLAGS=-mod=mod"}, "go", "build", "-o", bin, "./cmd/initbench")
	manifestLines := 0
	for _, l := range strings.Split(s.readFile(filepath.Join(dir, "pkg", "assets", "bakefs-manifest.tsv")), "\n") {
		if l != "" {
			manifestLines++
		}
	}
	var traces []string
	var clocks []float64
	var bytes, allocs string
	for range 21 {
		line, clock, b, a := s.initTrace(bin, "benchreal/pkg/assets")
		traces, clocks, bytes, allocs = append(traces, line), append(clocks, clock), b, a
	}
	slices.Sort(clocks)
	median := clocks[(len(clocks)+1)/2-1]
	stats := fmt.Sprintf("median %s ms clock (min %s, max %s) over %d starts, %s bytes, %s allocs",
		num(median), num(clocks[0]), num(clocks[len(clocks)-1]), len(clocks), bytes, allocs)
	s.outf("Package of %d manifest lines; `GODEBUG=inittrace=1` on `import _ \"benchreal/pkg/assets\"`: %s.", manifestLines, stats)
	s.out("")
	s.fenced(strings.Join(traces[:3], "\n"))

	copyDir := filepath.Join(dir, "initprof")
	s.check(os.RemoveAll(copyDir))
	s.copyTree(filepath.Join(dir, "pkg", "assets"), filepath.Join(copyDir, "assets"))
	s.check(os.RemoveAll(filepath.Join(copyDir, "assets", "bakefs_embed_test.go")))
	s.writeFile(filepath.Join(copyDir, "assets", "init_bench_test.go"), firstUseBenchmark)
	profile := s.path("init.pprof")
	out := s.cmd(dir, []string{"GOFLAGS=-mod=mod"}, "go", "test", "-run", "^$", "-bench", "FirstUse", "-benchmem", "-benchtime", "3s",
		"-cpuprofile", profile, "-o", s.path("bin", "initprof.test"), "./initprof/assets")
	result := ""
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 8 && strings.HasPrefix(f[0], "BenchmarkFirstUse") {
			result = strings.Join(f[2:8], " ")
		}
	}
	if result == "" {
		s.fail("go test -bench FirstUse printed no result:\n%s", out)
	}
	s.outf("The work deferred to the FS's first use, in a loop (`go test -bench FirstUse -benchmem` in a copy of the package): %s.", result)
	s.out("")
	s.pprofTop("first use of the generated package's FS (manifest and indexes, in a loop)", profile)
	s.goal("6. generated package init, real tree (goal ≤ 2 ms)", stats, met(median <= 2))
}

// initTrace starts bin with GODEBUG=inittrace=1 and returns the trace line
// of package pkg ("init PKG @0.5 ms, 0.21 ms clock, 4096 bytes, 12
// allocs"), its clock in ms, its bytes and its allocations.
func (s *suite) initTrace(bin, pkg string) (line string, clock float64, bytes, allocs string) {
	c := exec.Command(bin)
	c.Env = append(c.Environ(), "GODEBUG=inittrace=1")
	out, err := c.CombinedOutput()
	if err != nil {
		s.fail("%s: %v\n%s", bin, err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 10 || f[0] != "init" || f[1] != pkg {
			continue
		}
		clock, err := strconv.ParseFloat(f[4], 64)
		s.check(err)
		return l, clock, f[7], f[9]
	}
	s.fail("%s printed no init trace of %s:\n%s", bin, pkg, out)
	return
}

// num prints a number as awk's print does: up to six significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
