package main

import (
	"fmt"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// rxjs measures section h: bundle + minify of rxjs's TypeScript sources by
// the esbuild CLI and by bakefs in one step and in two, with the bytes of
// each output compared and goal 1 checked.
func rxjs(s *suite) {
	s.logf("rxjs: bundle + minify of a real TypeScript library vs the esbuild CLI")
	src := filepath.Join(s.nodeModules(), "rxjs", "src")
	s.outf("### h. Bundle + minify rxjs (real TypeScript, npm rxjs@%s src/, %d modules) vs the esbuild CLI", rxjsVersion, len(s.files(src, withSuffix(".ts"))))
	s.out("")
	h := s.path("rxjs")
	s.copyTree(src, filepath.Join(h, "src"))
	entry := h + "/src/index.ts"
	res := s.compare(comparison{
		title:  "src/index.ts, format=esm, target=es2020, minify",
		warmup: 1, rounds: s.rounds * 2,
		cmds: []sidebyside.Command{
			contender("esbuild-cli", fmt.Sprintf("%s %s --bundle --splitting --format=esm --target=es2020 --minify --log-level=warning --outdir=%s/esbuild", s.esbuildCLI(), entry, h), "rm -rf "+h+"/esbuild"),
			contender("bakefs-one-step", fmt.Sprintf("%s transform --no-cache --root %s/src --out %s/one --step bundle:format=esm,minify=true %s", s.bakefs, h, h, entry), "rm -rf "+h+"/one"),
			contender("bakefs-bundle+minify", fmt.Sprintf("%s transform --no-cache --root %s/src --out %s/two --step bundle:format=esm --step minify %s", s.bakefs, h, h, entry), "rm -rf "+h+"/two"),
		},
	})
	cli, one, two := h+"/esbuild/index.js", h+"/one/index.js", h+"/two/index.js"
	same1, same2 := sameFile(cli, one), sameFile(one, two)
	s.outf("Output: esbuild CLI %d B, bakefs bundle:minify=true %d B (same bytes as the CLI: %s), bakefs bundle then minify %d B (same bytes as the one-step form: %s).",
		s.size(cli), s.size(one), yesNo(same1), s.size(two), yesNo(same2))
	s.out("")
	s.profile("bakefs bundle:minify=true of rxjs", 5, "transform", "--no-cache", "--root", h+"/src", "--out", h+"/prof", "--step", "bundle:format=esm,minify=true", entry)
	r1, r2 := res.Stats("bakefs-one-step"), res.Stats("bakefs-bundle+minify")
	s.goal("1. rxjs bundle:minify=true / esbuild CLI (goal ≤ 1.05×)", r1.RatioText()+"; same bytes: "+yesNo(same1), met(r1.Ratio <= 1.05 && same1))
	s.goal("1. rxjs bundle then minify / esbuild CLI (same bytes and time as one step)", r2.RatioText()+"; same bytes as one step: "+yesNo(same2), met(r2.Ratio <= r1.Ratio*1.05 && same2))
}
