package main

import (
	"path/filepath"
	"strconv"
)

// delta runs bench/delta, which builds real release pairs from npm with
// and without [delta], and appends what it prints to the report, then an
// empty line.
func delta(s *suite) {
	s.logf("delta: release pairs from npm")
	s.out("### Delta updates: real release pairs from npm (bench/delta)", "")
	out := s.cmd(s.root, nil, "go", "run", "./bench/delta", "-bakefs", s.bakefs, "-peers", filepath.Join(s.peers, "delta"), "-rounds", strconv.Itoa(s.rounds))
	s.report.WriteString(out)
	s.out("")
}
