package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// genSVG writes a drawing as an editor would save it: a comment, metadata,
// and paths with more decimals than anyone needs.
func genSVG(r *rand.Rand, i, mean int) []byte {
	var b bytes.Buffer
	size := targetSize(r, mean)
	w, h := 32+r.IntN(480), 32+r.IntN(480)
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!-- Drawing s%04d: %s -->\n", i, sentence(r, 6))
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", w, h, w, h)
	fmt.Fprintf(&b, "  <metadata>\n    <title>%s</title>\n  </metadata>\n", sentence(r, 3))
	pt := func() string { return fmt.Sprintf("%.6f %.6f", r.Float64()*float64(w), r.Float64()*float64(h)) }
	for n := 0; b.Len() < size-16; n++ {
		fmt.Fprintf(&b, "  <g id=\"%s-%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.3f\">\n", word(r), n, hexColor(r), 0.5+r.Float64()*3)
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "    <circle cx=\"%.4f\" cy=\"%.4f\" r=\"%.4f\" fill=\"%s\" />\n", r.Float64()*float64(w), r.Float64()*float64(h), 1+r.Float64()*20, hexColor(r))
		}
		fmt.Fprintf(&b, "    <path d=\"M %s L %s C %s %s %s Z\" />\n  </g>\n", pt(), pt(), pt(), pt(), pt())
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
