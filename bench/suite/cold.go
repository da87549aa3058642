package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// cold measures section a: cold and warm builds of the synthetic tree and,
// when it exists, of a copy of examples/webapp.
func cold(s *suite) {
	s.logf("cold builds")
	s.out("### a. Cold pipeline: `bakefs build` with an empty cache", "")
	s.outf("Synthetic tree: %s", s.synthInfo())
	s.out("")
	dir := s.path("cold")
	s.copyTree(s.synth(), dir)
	project := filepath.Join(dir, "bakefs.toml")
	cmds := []sidebyside.Command{
		contender("synth1000-cold", s.bakefs+" build -f "+project, "rm -rf "+dir+"/build "+dir+"/.bakefs-cache"),
		contender("synth1000-warm", s.bakefs+" build -f "+project),
	}
	example := filepath.Join(s.root, "examples/webapp")
	if _, err := os.Stat(filepath.Join(example, "bakefs.toml")); err == nil {
		// A copy, so that the checkout's build, cache and package stay as
		// they are; the copy keeps the example's relative paths.
		webapp := s.path("webapp")
		s.copyTree(example, webapp)
		project := filepath.Join(webapp, "bakefs.toml")
		cmds = append(cmds,
			contender("webapp-cold", s.bakefs+" build -f "+project, "rm -rf "+strings.Join(s.generatedDirs(webapp, project), " ")),
			contender("webapp-warm", s.bakefs+" build -f "+project))
	} else {
		s.out("examples/webapp/bakefs.toml does not exist yet: only the synthetic tree is measured.", "")
	}
	s.compare(comparison{title: "Cold and warm builds (release profile: br 11, gzip 9)", rounds: 3, cmds: cmds})
}

var (
	projectOut   = regexp.MustCompile(`(?m)^out *= *"([^"]*)"`)
	projectCache = regexp.MustCompile(`(?m)^cache *= *"([^"]*)"`)
	projectPkg   = regexp.MustCompile(`(?s)\[package\].*?\ndir *= *"([^"]*)"`)
)

// generatedDirs are the directories a build of the project in dir writes:
// its output, its cache (.bakefs-cache when it names none) and its
// package's directory, if it has one.
func (s *suite) generatedDirs(dir, project string) []string {
	text := s.readFile(project)
	m := projectOut.FindStringSubmatch(text)
	if m == nil || m[1] == "" {
		s.fail("%s names no out directory", project)
	}
	dirs := []string{filepath.Join(dir, m[1]), filepath.Join(dir, ".bakefs-cache")}
	if c := projectCache.FindStringSubmatch(text); c != nil && c[1] != "" {
		dirs[1] = filepath.Join(dir, c[1])
	}
	if p := projectPkg.FindStringSubmatch(text); p != nil {
		dirs = append(dirs, filepath.Join(dir, p[1]))
	}
	return dirs
}
