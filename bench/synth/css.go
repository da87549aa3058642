package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// genCSS writes a style sheet with comments, long-hand values and media
// queries: what a minifier has work to do on.
func genCSS(r *rand.Rand, i, mean int) []byte {
	var b bytes.Buffer
	size := targetSize(r, mean)
	fmt.Fprintf(&b, "/*\n * Component styles c%04d.\n * %s\n */\n\n", i, sentence(r, 8))
	for n := 0; b.Len() < size; n++ {
		class := fmt.Sprintf(".%s-%s-%d", word(r), word(r), n)
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "%s {\n  color: %s;\n  margin: 0px %dpx 0px %dpx;\n  padding: %.2fem;\n  background-color: rgba(%d, %d, %d, %.3f);\n}\n\n",
				class, hexColor(r), r.IntN(32), r.IntN(32), r.Float64()*3, r.IntN(256), r.IntN(256), r.IntN(256), r.Float64())
		case 1:
			fmt.Fprintf(&b, "%s:hover > .%s,\n%s:focus-within .%s {\n  border: 1px solid %s;\n  box-shadow: 0px 1px %dpx rgba(0, 0, 0, 0.250);\n  transition: opacity 0.%ds ease-in-out;\n}\n\n",
				class, word(r), class, word(r), hexColor(r), r.IntN(12), 1+r.IntN(9))
		case 2:
			fmt.Fprintf(&b, "/* %s */\n@media (min-width: %dpx) {\n  %s {\n    display: flex;\n    flex-direction: %s;\n    width: %d.000%%;\n  }\n}\n\n",
				sentence(r, 5), 480+160*r.IntN(8), class, []string{"row", "column"}[r.IntN(2)], 10+r.IntN(90))
		default:
			fmt.Fprintf(&b, "%s::before {\n  content: \"%s\";\n  font-family: \"Helvetica Neue\", Arial, sans-serif;\n  font-weight: %d;\n  line-height: 1.%d0;\n}\n\n",
				class, word(r), 100*(1+r.IntN(9)), r.IntN(10))
		}
	}
	return b.Bytes()
}
