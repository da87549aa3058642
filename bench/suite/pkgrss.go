package main

import "fmt"

// pkgrss measures section k: the peak RSS of a cold release build of the
// synthetic tree with a [package], with GOGC=400 beside it (goal 4).
func pkgrss(s *suite) {
	tree := s.pkg()
	s.logf("synthetic 1,000 files with a [package]: cold build peak RSS")
	s.out("### k. Cold release build of bench/gen 1,000 files with a [package]", "")
	def, gogc := s.compareGOGC(`Cold build, [package] dir = "pkg/assets"`, tree, "cold release build of bench/gen 1,000 + [package]")
	s.goal("4. bench/gen 1,000 + [package] cold build: peak RSS (goal ≤ 256 MiB)",
		fmt.Sprintf("%s (GOGC=400: %s, time %s of the default)", def.RSSText(), gogc.RSSText(), gogc.RatioText()), met(rssMiB(def) <= 256))
}
