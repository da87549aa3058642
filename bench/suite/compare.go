package main

import (
	"os"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// A comparison is one side-by-side table of the report: the commands run
// in alternation, the first one the reference of the ratios.
type comparison struct {
	title          string
	warmup, rounds int
	dir            string   // working directory ("": the checkout)
	env            []string // added to every command's environment
	cmds           []sidebyside.Command
}

// contender is a command of a comparison: a bash command line, with
// commands run untimed before each of its runs.
func contender(name, cmd string, prepare ...string) sidebyside.Command {
	return sidebyside.Command{Name: name, Cmd: cmd, Prepare: prepare}
}

// compare measures c, appends its table to the report and returns the
// results, whose Stats give the cells of the goals.
func (s *suite) compare(c comparison) *sidebyside.Results {
	dir := c.dir
	if dir == "" {
		dir = s.root
	}
	res, err := sidebyside.Measure(c.cmds, sidebyside.Options{Warmup: c.warmup, Rounds: c.rounds, Dir: dir, Env: c.env, Log: os.Stderr})
	if err != nil {
		s.fail("%s: %v", c.title, err)
	}
	s.out(res.Markdown(c.title))
	return res
}
