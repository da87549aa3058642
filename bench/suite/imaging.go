package main

import (
	"fmt"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// imaging measures section q: bench/imgresize (disintegration/imaging
// called directly) against bakefs's resize step on the example's photo,
// with the bytes compared (a peer, no goal).
func imaging(s *suite) {
	s.logf("resize: imaging called directly vs bakefs's resize step")
	s.out("### q. Resize to 960 px wide + JPEG 85: disintegration/imaging called directly vs `bakefs transform --step resize`", "")
	q := s.path("imaging")
	s.mkdir(q)
	resize := s.tool("imgresize")
	// Relative to the checkout, where the commands run.
	img := "examples/webapp/web/static/img/lake.jpg"
	name := filepath.Base(img)
	res := s.compare(comparison{
		title:  fmt.Sprintf("%s (%d B) to 960 px, Lanczos, JPEG quality 85", name, s.size(filepath.Join(s.root, img))),
		warmup: 1, rounds: s.rounds * 2,
		cmds: []sidebyside.Command{
			contender("imaging", fmt.Sprintf("%s -width 960 -quality 85 -o %s/imaging.jpg %s", resize, q, img)),
			contender("bakefs-resize", fmt.Sprintf("%s transform --no-cache --root %s --out %s/bakefs --step resize:width=960 %s", s.bakefs, filepath.Dir(img), q, img), "rm -rf "+q+"/bakefs"),
		},
	})
	direct, step := filepath.Join(q, "imaging.jpg"), filepath.Join(q, "bakefs", name)
	same := sameFile(direct, step)
	s.outf("Output: imaging %d B, bakefs %d B (same bytes: %s).", s.size(direct), s.size(step), yesNo(same))
	s.out("")
	s.goal("10. resize + JPEG, bakefs / imaging direct (a peer, no goal)", res.Stats("bakefs-resize").RatioText()+"; same bytes: "+yesNo(same), "—")
}
