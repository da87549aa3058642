package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// warm measures section c: a no-change build of the built synthetic tree
// with hyperfine, then beside rsync and cp of the same sources.
func warm(s *suite) {
	s.logf("warm no-change build")
	s.out("### c. Warm no-change `bakefs build` on 1,000 files (target < 50 ms)", "")
	w := s.warm()
	runs := s.rounds * 6
	export := s.path("warm.json")
	s.cmd(s.root, nil, "hyperfine", "-N", "--style", "basic", "--warmup", "3", "--runs", fmt.Sprint(runs), "--export-json", export,
		s.bakefs+" build -f "+w+"/bakefs.toml")
	var result struct {
		Results []struct {
			Mean, Stddev, Median, Min, Max, User, System float64
			Times                                        []float64
		}
	}
	s.check(json.Unmarshal([]byte(s.readFile(export)), &result))
	if len(result.Results) != 1 {
		s.fail("%s: %d results, want 1", export, len(result.Results))
	}
	r := result.Results[0]
	ms := func(sec float64) float64 { return math.Round(sec*10000) / 10 }
	s.outf("hyperfine, %d runs after 3 warm-up runs: mean %g ms ± %g ms (σ), median %g ms, min %g ms, max %g ms; user %g ms, system %g ms.",
		len(r.Times), ms(r.Mean), ms(r.Stddev), ms(r.Median), ms(r.Min), ms(r.Max), math.Round(r.User*1000), math.Round(r.System*1000))
	s.out("", fmt.Sprintf("Command: `hyperfine -N --warmup 3 --runs %d 'bakefs build -f synth1000/bakefs.toml'`", runs), "")
	s.cmd(s.root, nil, "rsync", "-a", w+"/web/", s.path("warm-rsync")+"/")
	s.compare(comparison{
		title:  "Floor references: copying the same source tree",
		warmup: 2, rounds: s.rounds * 2,
		cmds: []sidebyside.Command{
			contender("bakefs-warm", s.bakefs+" build -f "+w+"/bakefs.toml"),
			contender("rsync-nochange", "rsync -a "+w+"/web/ "+s.path("warm-rsync")+"/"),
			contender("cp-r", "cp -r "+w+"/web "+s.path("warm-cp"), "rm -rf "+s.path("warm-cp")),
		},
	})
}
