package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// genHTML writes an indented page with comments, optional tags and quoted
// attributes, that links to style sheets and images of the tree.
func genHTML(r *rand.Rand, i, mean int, p plan) []byte {
	var b bytes.Buffer
	size := targetSize(r, mean)
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n  <head>\n    <meta charset=\"utf-8\">\n    <title>%s</title>\n    <!-- page p%04d -->\n", sentence(r, 4), i)
	if p.css > 0 {
		c := r.IntN(p.css)
		fmt.Fprintf(&b, "    <link rel=\"stylesheet\" type=\"text/css\" href=\"/css/%02d/c%04d.css\">\n", c/100, c)
	}
	b.WriteString("  </head>\n  <body>\n")
	for n := 0; b.Len() < size-32; n++ {
		fmt.Fprintf(&b, "    <section class=\"%s %s-%d\" id=\"%s-%d\">\n      <h2>%s</h2>\n", word(r), word(r), n, word(r), n, sentence(r, 3))
		fmt.Fprintf(&b, "      <p>\n        %s\n        %s\n      </p>\n", sentence(r, 12), sentence(r, 9))
		if p.svg > 0 && r.IntN(2) == 0 {
			s := r.IntN(p.svg)
			fmt.Fprintf(&b, "      <img src=\"/img/%02d/s%04d.svg\" alt=\"%s\" width=\"%d\" height=\"%d\">\n", s/100, s, sentence(r, 2), 16*(1+r.IntN(8)), 16*(1+r.IntN(8)))
		}
		fmt.Fprintf(&b, "      <ul>\n        <li><a href=\"/%s/%d\">%s</a></li>\n        <li><a href=\"/%s/%d\">%s</a></li>\n      </ul>\n    </section>\n",
			word(r), r.IntN(1000), title(r), word(r), r.IntN(1000), title(r))
	}
	b.WriteString("  </body>\n</html>\n")
	return b.Bytes()
}
