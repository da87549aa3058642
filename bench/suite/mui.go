package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// mui measures section t, goal 12: a React 19 + MUI admin app
// (bench/muiapp, seven pages in one bundle) built cold by bakefs and by
// Vite, both minifying and writing Brotli and gzip variants; then the
// bytes of each tool's scripts and the files each page names.
func mui(s *suite) {
	s.logf("React + MUI: vite build vs bakefs build")
	s.outf("### t. A React 19 + MUI app: `vite build` (vite@%s, @vitejs/plugin-react@%s, vite-plugin-compression2@%s) vs `bakefs build`, br and gzip on both sides", viteVersion, pluginReactVersion, compression2Version)
	s.out("")
	app := s.benchApp("mui", "muiapp")
	modules := s.files(filepath.Join(app, "src"), withSuffix(".ts", ".tsx"))
	res := s.compare(comparison{
		title: fmt.Sprintf("index.html + src/main.tsx: React %s, @mui/material %s, @mui/icons-material %s, %d modules of the app",
			s.npmVersion("react"), s.npmVersion("@mui/material"), s.npmVersion("@mui/icons-material"), len(modules)),
		warmup: 1, rounds: s.rounds, dir: app,
		cmds: []sidebyside.Command{s.bakefsColdBuild(app), s.viteColdBuild(app)},
	})
	s.out("| tool | JS files | JS raw | JS brotli | JS gzip | what index.html names |", "|---|---:|---:|---:|---:|---|")
	var missing []string
	for _, t := range []struct{ name, out string }{{"bakefs", filepath.Join(app, "bakefs-out")}, {"vite", filepath.Join(app, "dist")}} {
		scripts := s.distinctFiles(t.out, withSuffix(".js"))
		var raw, br, gz int64
		for _, f := range scripts {
			full := filepath.Join(t.out, f)
			raw, br, gz = raw+s.size(full), br+s.size(full+".br"), gz+s.size(full+".gz")
		}
		page, gone := s.pageFiles(t.out)
		for _, g := range gone {
			missing = append(missing, t.name+": "+g)
		}
		s.outf("| %s | %d | %d B | %d B | %d B | %s |", t.name, len(scripts), raw, br, gz, strings.Join(page, " "))
	}
	s.out("")
	if len(missing) > 0 {
		s.logf("WARNING: index.html names files that are not in the output: %s", strings.Join(missing, ", "))
		s.out("**Warning:** index.html names files that are not in the output: "+strings.Join(missing, ", "), "")
	}
	rv := res.Stats("vite-build")
	s.goal("12. React 19 + MUI app, cold vite build / bakefs build (goal > 1×)",
		fmt.Sprintf("%s, peak RSS %s vs %s", rv.RatioText(), res.Stats("bakefs-build").RSSText(), rv.RSSText()), met(rv.Ratio > 1 && len(missing) == 0))
}

// distinctFiles is files(dir, keep) with every second name of a file
// already listed (a hard link, as bakefs's hashed names are) left out.
func (s *suite) distinctFiles(dir string, keep func(string) bool) []string {
	var list []string
	var seen []os.FileInfo
	for _, f := range s.files(dir, keep) {
		fi, err := os.Stat(filepath.Join(dir, f))
		s.check(err)
		if !slices.ContainsFunc(seen, func(o os.FileInfo) bool { return os.SameFile(o, fi) }) {
			seen = append(seen, fi)
			list = append(list, f)
		}
	}
	return list
}
