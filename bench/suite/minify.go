package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// minify measures section b': bakefs's minify step against Hugo's
// resources.Minify on the same CSS, JSON, SVG and HTML files, each beside
// a run of the same tool that only copies the files, so that the fixed
// costs can be subtracted.
func minify(s *suite) {
	s.logf("minify vs Hugo")
	s.out("### b'. Minify CSS, JSON, SVG and HTML: bakefs transform vs Hugo's resources.Minify", "")
	m := s.path("minify")
	web := filepath.Join(s.synth(), "web")
	var files []string
	for _, d := range []string{"css", "data", "img", "pages"} {
		for _, f := range s.files(filepath.Join(web, d), nil) {
			files = append(files, d+"/"+f)
		}
		s.copyTree(filepath.Join(web, d), filepath.Join(m, "site", "assets", d))
	}
	var total int64
	for _, f := range files {
		total += s.size(filepath.Join(web, f))
	}
	// bakefs: one transform over every file (the minify step, and the same
	// run with no step, which copies: the fixed cost of reading and writing).
	for _, v := range []string{"minify", "copy"} {
		steps := ""
		if v == "minify" {
			steps = "--step minify "
		}
		s.writeFile(filepath.Join(m, "bakefs-"+v+".sh"), fmt.Sprintf("#!/usr/bin/env bash\ncd %s && exec %s transform --no-cache --root . --out %s/bakefs-%s %s%s\n",
			web, s.bakefs, m, v, steps, strings.Join(files, " ")))
	}
	// Hugo: a site whose assets are the same files; the home page runs
	// resources.Minify on each and publishes the result. The "copy" site
	// publishes them unchanged: Hugo's fixed cost.
	config := "baseURL = \"http://localhost/\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\", \"robotsTXT\", \"404\", \"section\", \"page\"]\n"
	s.writeFile(filepath.Join(m, "site", "config.toml"), config)
	s.writeFile(filepath.Join(m, "copy", "config.toml"), config)
	s.check(os.Symlink(filepath.Join(m, "site", "assets"), filepath.Join(m, "copy", "assets")))
	s.writeFile(filepath.Join(m, "site", "layouts", "index.html"), "{{ range resources.Match \"**\" }}{{ with . | resources.Minify }}{{ .RelPermalink }}{{ end }} {{ end }}\n")
	s.writeFile(filepath.Join(m, "copy", "layouts", "index.html"), "{{ range resources.Match \"**\" }}{{ .RelPermalink }} {{ end }}\n")
	hugo := func(site, dest string) string {
		return fmt.Sprintf("hugo --quiet --source %s --destination %s --ignoreCache --noBuildLock --cacheDir %s/cache", site, dest, site)
	}
	res := s.compare(comparison{
		title:  fmt.Sprintf("%d files, %d B", len(files), total),
		warmup: 1, rounds: s.rounds,
		cmds: []sidebyside.Command{
			contender("bakefs-minify", "bash "+m+"/bakefs-minify.sh", "rm -rf "+m+"/bakefs-minify"),
			contender("bakefs-minify-1cpu", "GOMAXPROCS=1 bash "+m+"/bakefs-minify.sh", "rm -rf "+m+"/bakefs-minify"),
			contender("bakefs-copy", "bash "+m+"/bakefs-copy.sh", "rm -rf "+m+"/bakefs-copy"),
			contender("hugo-minify", hugo(m+"/site", m+"/hugo-minify"), fmt.Sprintf("rm -rf %[1]s/hugo-minify %[1]s/site/cache %[1]s/site/resources", m)),
			contender("hugo-copy", hugo(m+"/copy", m+"/hugo-copy"), fmt.Sprintf("rm -rf %[1]s/hugo-copy %[1]s/copy/cache %[1]s/copy/resources", m)),
		},
	})
	// Fixed costs subtracted: minify work alone (medians).
	bakefsWork := res.Stats("bakefs-minify").Median - res.Stats("bakefs-copy").Median
	hugoWork := res.Stats("hugo-minify").Median - res.Stats("hugo-copy").Median
	ratio := "not measurable (a copy run was slower than its minify run: noise)"
	if bakefsWork > 0 && hugoWork > 0 {
		ratio = fmt.Sprintf("%.2f×", float64(hugoWork)/float64(bakefsWork))
	}
	s.outf("Minify work alone (median minus the copy run of the same tool): bakefs %d ms, Hugo %d ms: Hugo/bakefs = %s.", bakefsWork.Milliseconds(), hugoWork.Milliseconds(), ratio)
	s.outf("Output: bakefs %d B, Hugo %d B (bakefs minifies CSS with esbuild, Hugo with tdewolff/minify; HTML, SVG and JSON both with tdewolff/minify, Hugo's an older version).",
		s.treeBytes(m+"/bakefs-minify"), s.treeBytes(m+"/hugo-minify"))
	s.out("")
}
