package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// profile runs bakefs with args runs times with BAKEFS_CPUPROFILE and
// BAKEFS_MEMPROFILE set and appends the top lines of the merged CPU
// profile and of the allocations (alloc_space) to the report, so that a
// goal not met comes with where the time and memory go.
func (s *suite) profile(title string, runs int, args ...string) {
	dir, err := os.MkdirTemp(s.work, "prof.")
	s.check(err)
	var cpu, mem []string
	for i := range runs {
		c := filepath.Join(dir, fmt.Sprintf("cpu%d.pprof", i))
		m := filepath.Join(dir, fmt.Sprintf("mem%d.pprof", i))
		s.cmd(s.root, []string{"BAKEFS_CPUPROFILE=" + c, "BAKEFS_MEMPROFILE=" + m}, s.bakefs, args...)
		cpu, mem = append(cpu, c), append(mem, m)
	}
	s.pprofTop(fmt.Sprintf("%s: CPU, %d run(s)", title, runs), cpu...)
	s.pprofTop(fmt.Sprintf("%s: allocations (alloc_space), %d run(s)", title, runs), append([]string{"-sample_index=alloc_space"}, mem...)...)
}

// pprofTop appends the top 12 lines of go tool pprof -top of the profiles
// (pprof flags first) to the report, in a fenced block.
func (s *suite) pprofTop(title string, args ...string) {
	out := s.cmd(s.root, nil, "go", append([]string{"tool", "pprof", "-top", "-nodecount=12"}, args...)...)
	if i := strings.Index(out, "Showing nodes"); i >= 0 {
		out = out[i:]
	}
	s.outf("Profile, %s (`go tool pprof -top`):", title)
	s.out("")
	s.fenced(out)
}
