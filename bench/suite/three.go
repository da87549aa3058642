package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// three measures section i, esbuild's own benchmark: three.js's sources
// copied ten times behind one entry, bundled and minified by the esbuild
// CLI and by bakefs, with the bytes compared and goal 2 checked.
func three(s *suite) {
	s.logf("three.js x10 vs the esbuild CLI")
	s.outf("### i. three.js ×10 (esbuild's benchmark: npm three@%s src/ copied ten times, one entry importing each copy's Three.js)", threeVersion)
	s.out("")
	t := s.path("three10")
	var entry strings.Builder
	for n := 1; n <= 10; n++ {
		s.copyTree(filepath.Join(s.nodeModules(), "three", "src"), filepath.Join(t, fmt.Sprintf("copy%d", n)))
		fmt.Fprintf(&entry, "import * as copy%d from './copy%d/Three.js'; export { copy%d };\n", n, n, n)
	}
	s.writeFile(filepath.Join(t, "entry.js"), entry.String())
	res := s.compare(comparison{
		title:  fmt.Sprintf("entry.js (%d modules, %d B), format=esm, minify", len(s.files(t, withSuffix(".js"))), s.duBytes(t)),
		warmup: 1, rounds: s.rounds,
		cmds: []sidebyside.Command{
			contender("esbuild-cli", fmt.Sprintf("%s %s/entry.js --bundle --splitting --format=esm --target=es2020 --minify --log-level=error --outdir=%s/esbuild", s.esbuildCLI(), t, t), "rm -rf "+t+"/esbuild"),
			contender("bakefs-one-step", fmt.Sprintf("%s transform --no-cache --root %s --out %s/one --step bundle:format=esm,minify=true %s/entry.js", s.bakefs, t, t, t), "rm -rf "+t+"/one"),
		},
	})
	cli, one := t+"/esbuild/entry.js", t+"/one/entry.js"
	same := sameFile(cli, one)
	s.outf("Output: esbuild CLI %d B, bakefs %d B (same bytes: %s).", s.size(cli), s.size(one), yesNo(same))
	s.out("")
	s.profile("bakefs bundle:minify=true of three.js ×10", 1, "transform", "--no-cache", "--root", t, "--out", t+"/prof", "--step", "bundle:format=esm,minify=true", t+"/entry.js")
	b, e := res.Stats("bakefs-one-step"), res.Stats("esbuild-cli")
	s.goal("2. three.js ×10, bakefs / esbuild CLI (goal ≤ 1.1×, same bytes)",
		fmt.Sprintf("%s, peak RSS %s vs %s; same bytes: %s", b.RatioText(), b.RSSText(), e.RSSText(), yesNo(same)), met(b.Ratio <= 1.1 && same))
}

// duBytes is the apparent size of the tree at dir as du -sb counts it:
// every file's and directory's size, dir's own included.
func (s *suite) duBytes(dir string) int64 {
	var n int64
	s.check(filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	}))
	return n
}
