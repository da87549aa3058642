package main

import (
	"os"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// The web apps of sections p, r and t build with a bakefs.toml that writes
// bakefs-out and .bakefs-cache, and with a vite.config.mjs that writes dist.

// benchApp copies the app bench/NAME into $WORK/SECTION/app, links the npm
// peers' node_modules into it and returns its path.
func (s *suite) benchApp(section, name string) string {
	app := s.path(section, "app")
	s.copyTree(filepath.Join(s.root, "bench", name), app)
	s.linkNodeModules(app)
	return app
}

// linkNodeModules links the npm peers' node_modules into app.
func (s *suite) linkNodeModules(app string) {
	s.check(os.Symlink(s.nodeModules(), filepath.Join(app, "node_modules")))
}

// bakefsColdBuild is `bakefs build` of app's bakefs.toml with its output
// and cache removed before each run.
func (s *suite) bakefsColdBuild(app string) sidebyside.Command {
	return contender("bakefs-build", s.bakefs+" build -f "+app+"/bakefs.toml", "rm -rf "+app+"/bakefs-out "+app+"/.bakefs-cache")
}

// viteColdBuild is `vite build` of app's vite.config.mjs with dist removed
// before each run.
func (s *suite) viteColdBuild(app string) sidebyside.Command {
	return contender("vite-build", s.npmBin("vite")+" build", "rm -rf "+app+"/dist")
}
