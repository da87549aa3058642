package web

import (
	"strings"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	in := `{ // c
  "a": "// not a comment", /* block */ "b": [1, 2,],
}`
	if got := string(stripJSONC([]byte(in))); strings.Contains(got, "c\n") || !strings.Contains(got, `"// not a comment"`) || strings.Contains(got, "2,]") {
		t.Errorf("stripJSONC = %q", got)
	}
}
