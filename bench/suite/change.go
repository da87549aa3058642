package main

import (
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// bumpScript appends to a CSS or TypeScript file a line never seen before,
// so that the cache cannot answer: bump.sh FILE.
const bumpScript = `#!/usr/bin/env bash
set -euo pipefail
n=$(cat "$1.n" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >"$1.n"
case $1 in
*.css) printf '\n.bench-%d { order: %d; }\n' "$n" "$n" >>"$1" ;;
*.ts) printf '\nexport const bench%d = %d;\n' "$n" "$n" >>"$1" ;;
esac
`

// change measures section d: rebuilds of the built synthetic tree after no
// change, one style sheet changed and one TypeScript module changed.
func change(s *suite) {
	s.logf("one file changed")
	s.out("### d. One file changed, 1,000 files", "")
	c := s.warm()
	bump := s.path("bump.sh")
	s.writeFile(bump, bumpScript)
	build := s.bakefs + " build -f " + c + "/bakefs.toml"
	s.compare(comparison{
		title:  "Rebuild after one change (release profile)",
		warmup: 1, rounds: 3,
		cmds: []sidebyside.Command{
			contender("no-change", build),
			contender("css-changed", build, "bash "+bump+" "+c+"/web/css/00/c0000.css"),
			contender("ts-module-changed", build, "bash "+bump+" "+c+"/web/ts/g00/m0000.ts"),
		},
	})
	s.outf("css-changed re-minifies and recompresses one style sheet; ts-module-changed re-runs two bundles (its group's entry and all.ts, %d B minified) with Brotli 11 and gzip 9.",
		s.size(filepath.Join(c, "build", "ts", "all.js")))
	s.out("")
}
