package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// trees remembers the shared trees a suite has made; each is made on the
// first section that needs it and used in place after. Built trees are
// never copied: cache entries name the files a bundle read by absolute
// path, so a copy would check the original's imports.
type trees struct {
	synth, synthInfo string
	warm             string
	real, realInfo   string
	realPhotos       string
	pkg              string
}

// synth is bench/gen's tree of 1,000 files, generated once and copied by
// the sections that change it.
func (s *suite) synth() string {
	if s.trees.synth == "" {
		dir := s.path("synth1000")
		s.trees.synthInfo = strings.TrimSpace(s.cmd(s.root, nil, s.tool("gen"), "-out", dir, "-files", "1000"))
		s.logf("synthetic tree: %s", s.trees.synthInfo)
		s.trees.synth = dir
	}
	return s.trees.synth
}

// synthInfo is bench/gen's one-line account of the synthetic tree.
func (s *suite) synthInfo() string {
	s.synth()
	return s.trees.synthInfo
}

// warm is a copy of the synthetic tree built once (release profile).
func (s *suite) warm() string {
	if s.trees.warm == "" {
		dir := s.path("synth1000-warm")
		s.logf("building the synthetic tree once (cold, release profile)")
		s.copyTree(s.synth(), dir)
		s.bakefsRun("build", "-f", filepath.Join(dir, "bakefs.toml"))
		s.trees.warm = dir
	}
	return s.trees.warm
}

// realTreeProject is the real tree's project file.
const realTreeProject = `# The real mixed tree of bench/suite (sections j, l, m, n).
src   = "web"
out   = "build"
cache = ".bakefs-cache"
compress = ["br", "gzip", "zstd"]

[package]
dir    = "pkg/assets"
name   = "assets"
import = "benchreal/pkg/assets"

[[rule]]
match = ["**/*.html", "**/*.css", "**/*.svg", "**/*.js"]
steps = ["minify"]

[[rule]]
match = "**"
steps = []
`

// real is the real mixed tree (sections j, l, m, n): Sphinx's own HTML
// manual (Debian sphinx-doc, 310 files: HTML, text sources, PNG, JS,
// CSS), three.js builds, Bootstrap's and Bulma's CSS and JS, Bootstrap
// Icons' font and CSS and its first 840 SVG icons by name, and four Lato
// TrueType fonts (Debian fonts-lato): 1,201 files, about 25 MB. It lives in
// a module of its own so that its [package] can be imported (section m).
func (s *suite) real() string {
	if s.trees.real != "" {
		return s.trees.real
	}
	s.logf("assembling the real mixed tree")
	dir := s.path("real")
	w := filepath.Join(dir, "web")
	nm := s.nodeModules()
	s.mkdir(filepath.Join(w, "vendor", "three"), filepath.Join(w, "vendor", "bootstrap"), filepath.Join(w, "vendor", "bulma"),
		filepath.Join(w, "icons"), filepath.Join(w, "fonts", "lato"), filepath.Join(w, "docs"))
	s.bash(dir, fmt.Sprintf(`set -e
cp -rL /usr/share/doc/sphinx-doc/html/. web/docs/
cp %[1]s/three/build/*.js web/vendor/three/
cp %[1]s/bootstrap/dist/css/*.css %[1]s/bootstrap/dist/js/*.js web/vendor/bootstrap/
cp %[1]s/bulma/css/*.css web/vendor/bulma/
cp %[1]s/bootstrap-icons/font/bootstrap-icons*.css %[1]s/bootstrap-icons/font/fonts/* web/fonts/
cp /usr/share/fonts/truetype/lato/Lato-{Regular,Bold,Italic,BoldItalic}.ttf web/fonts/lato/`, nm))
	icons, err := os.ReadDir(filepath.Join(nm, "bootstrap-icons", "icons"))
	s.check(err)
	// The first 840 names in byte order (ReadDir sorts them so).
	for _, e := range icons[:min(840, len(icons))] {
		s.cmd(dir, nil, "cp", filepath.Join(nm, "bootstrap-icons", "icons", e.Name()), filepath.Join(w, "icons"))
	}
	s.runtimeModule("benchreal", dir)
	s.writeFile(filepath.Join(dir, "bakefs.toml"), realTreeProject)
	s.trees.realInfo = s.treeInfo(w)
	s.trees.real = dir
	return dir
}

// realInfo says what the real tree holds.
func (s *suite) realInfo() string {
	s.real()
	return s.trees.realInfo
}

// realBuilt is the real tree, built once (cold, release profile).
func (s *suite) realBuilt() string {
	dir := s.real()
	if _, err := os.Stat(filepath.Join(dir, "build")); err != nil {
		s.logf("building the real tree once (cold, release profile)")
		s.bakefsRun("build", "-f", filepath.Join(dir, "bakefs.toml"))
	}
	return dir
}

// treeInfo is "N files, B B (html 310, svg 840, …)": the file count, the
// total size and the eight most common extensions.
func (s *suite) treeInfo(dir string) string {
	files := s.files(dir, nil)
	count := make(map[string]int)
	for _, f := range files {
		if ext := filepath.Ext(f); len(ext) > 1 {
			count[ext[1:]]++
		}
	}
	exts := make([]string, 0, len(count))
	for e := range count {
		exts = append(exts, e)
	}
	slices.SortFunc(exts, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, e := range exts[:min(8, len(exts))] {
		parts = append(parts, fmt.Sprintf("%s %d", e, count[e]))
	}
	return fmt.Sprintf("%d files, %d B (%s)", len(files), s.sizeUnder(dir, nil), strings.Join(parts, ", "))
}

// photosRule makes each photo a srcset of AVIF, WebP and JPEG.
const photosRule = "[[rule]]\nmatch = \"photos/*.jpg\"\nsteps = [\"srcset:widths=480+960,formats=avif+webp+jpeg,quality=80\"]\n\n"

// realPhotos is the real tree with photos (section j): the example's
// landscape and the photographs in disintegration/imaging's test data,
// each made into a srcset of AVIF, WebP and JPEG.
func (s *suite) realPhotos() string {
	if s.trees.realPhotos != "" {
		return s.trees.realPhotos
	}
	real := s.real()
	dir := s.path("realphotos")
	s.copyTree(filepath.Join(real, "web"), filepath.Join(dir, "web"))
	photos := filepath.Join(dir, "web", "photos")
	s.mkdir(photos)
	imaging := strings.TrimSpace(s.cmd(s.root, nil, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/disintegration/imaging"))
	for _, p := range []string{filepath.Join(s.root, "examples/webapp/web/static/img/lake.jpg"),
		filepath.Join(imaging, "testdata/branches.jpg"), filepath.Join(imaging, "testdata/out_example.jpg")} {
		dst := filepath.Join(photos, filepath.Base(p))
		s.writeFile(dst, s.readFile(p))
	}
	s.runtimeModule("benchrealphotos", dir)
	// The real tree's project file with the photos' rule before its own
	// (the first rule that matches a file makes it).
	project := strings.Replace(realTreeProject, "benchreal/pkg", "benchrealphotos/pkg", 1)
	i := strings.Index(project, "[[rule]]\n")
	s.writeFile(filepath.Join(dir, "bakefs.toml"), project[:i]+photosRule+project[i:])
	s.trees.realPhotos = dir
	return dir
}

// pkg is a copy of the synthetic tree with a [package] (sections k, l).
func (s *suite) pkg() string {
	if s.trees.pkg == "" {
		dir := s.path("synth1000-pkg")
		s.copyTree(s.synth(), dir)
		project := filepath.Join(dir, "bakefs.toml")
		s.writeFile(project, s.readFile(project)+"\n[package]\ndir = \"pkg/assets\"\nname = \"assets\"\n")
		s.trees.pkg = dir
	}
	return s.trees.pkg
}
