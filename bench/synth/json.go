package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// genJSON writes an indented document: an object with a list of records.
func genJSON(r *rand.Rand, i, mean int) []byte {
	var b bytes.Buffer
	size := targetSize(r, mean)
	fmt.Fprintf(&b, "{\n  \"id\": \"j%04d\",\n  \"title\": %q,\n  \"records\": [\n", i, sentence(r, 4))
	for n := 0; ; n++ {
		if n > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    {\n      \"id\": %d,\n      \"name\": \"%s %s\",\n      \"tags\": [\"%s\", \"%s\", \"%s\"],\n      \"score\": %.4f,\n      \"active\": %t,\n      \"color\": %q\n    }",
			n, title(r), title(r), word(r), word(r), word(r), r.Float64()*100, r.IntN(2) == 0, hexColor(r))
		if b.Len() >= size-8 {
			break
		}
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes()
}
