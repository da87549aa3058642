package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// nochange measures section l: a no-change build of the built real tree
// and of the built synthetic tree with a [package], each against rsync -a
// of its unchanged source tree (goal 5).
func nochange(s *suite) {
	realTree := s.realBuilt()
	pkg := s.pkg()
	if _, err := os.Stat(filepath.Join(pkg, "build")); err != nil {
		s.bakefsRun("build", "-f", pkg+"/bakefs.toml")
	}
	s.logf("no-change builds vs rsync")
	s.out("### l. No-change build with a [package] vs `rsync -a` of the unchanged source tree", "")
	rsyncReal, rsyncPkg := s.path("rsync-real")+"/", s.path("rsync-pkg")+"/"
	s.cmd(s.root, nil, "rsync", "-a", realTree+"/web/", rsyncReal)
	s.cmd(s.root, nil, "rsync", "-a", pkg+"/web/", rsyncPkg)
	measure := func(title, project, copy string) *sidebyside.Results {
		return s.compare(comparison{
			title:  title,
			warmup: 2, rounds: s.rounds * 2,
			cmds: []sidebyside.Command{
				contender("rsync", "rsync -a "+project+"/web/ "+copy),
				contender("bakefs-nochange", s.bakefs+" build -f "+project+"/bakefs.toml"),
			},
		})
	}
	resReal := measure("Real mixed tree, "+s.realInfo(), realTree, rsyncReal)
	resPkg := measure("bench/gen 1,000 files with a [package]", pkg, rsyncPkg)
	s.profile("no-change build of the real tree + [package]", 40, "build", "-f", realTree+"/bakefs.toml")
	s.profile("no-change build of bench/gen 1,000 + [package]", 40, "build", "-f", pkg+"/bakefs.toml")
	for _, t := range []struct {
		what string
		res  *sidebyside.Results
	}{{"real tree", resReal}, {"bench/gen 1,000", resPkg}} {
		b, r := t.res.Stats("bakefs-nochange"), t.res.Stats("rsync")
		s.goal(fmt.Sprintf("5. no-change build / rsync -a, %s + [package] (goal ≤ 1.2×)", t.what),
			fmt.Sprintf("%s (%s vs %s)", b.RatioText(), b.MedianText(), r.MedianText()), met(b.Ratio <= 1.2))
	}
}
