package main

import (
	"fmt"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// bundle measures section b: bundle + minify of one TypeScript entry by
// the esbuild CLI, by bakefs's bundle then minify steps, and by the bundle
// step's minify option.
func bundle(s *suite) {
	s.logf("bundle + minify vs the esbuild CLI")
	s.out("### b. Bundle + minify one TypeScript entry: bakefs transform vs the esbuild CLI", "")
	web := filepath.Join(s.synth(), "web")
	for _, entry := range []string{"all", "entry-00"} {
		out := s.path("bundle", entry)
		src := filepath.Join(web, "ts", entry+".ts")
		s.mkdir(out)
		s.compare(comparison{
			title:  fmt.Sprintf("ts/%s.ts (%d B entry)", entry, s.size(src)),
			warmup: 1, rounds: s.rounds * 2,
			cmds: []sidebyside.Command{
				contender("esbuild-cli", fmt.Sprintf("%s %s --bundle --format=esm --target=es2020 --minify --log-level=warning --outfile=%s/esbuild/%s.js", s.esbuildCLI(), src, out, entry), "rm -rf "+out+"/esbuild"),
				contender("bakefs-bundle+minify", fmt.Sprintf("%s transform --no-cache --root %s --out %s/bakefs --step bundle:format=esm --step minify %s", s.bakefs, web, out, src), "rm -rf "+out+"/bakefs"),
				contender("bakefs-bundle-minify-option", fmt.Sprintf("%s transform --no-cache --root %s --out %s/bakefs-one --step bundle:format=esm,minify=true %s", s.bakefs, web, out, src), "rm -rf "+out+"/bakefs-one"),
			},
		})
		s.outf("Output: esbuild CLI %d B, bakefs bundle+minify %d B, bakefs bundle:minify=true %d B.",
			s.size(filepath.Join(out, "esbuild", entry+".js")), s.size(filepath.Join(out, "bakefs", "ts", entry+".js")), s.size(filepath.Join(out, "bakefs-one", "ts", entry+".js")))
		s.out("")
	}
}
