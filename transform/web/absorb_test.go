package web

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

// runChain runs the chain written as step texts on in, rooted at root.
func runChainText(t *testing.T, root string, texts []string, in ...*transform.Asset) []*transform.Asset {
	t.Helper()
	chain, err := transform.ParseChain(texts)
	if err != nil {
		t.Fatal(err)
	}
	out, err := chain.Run(transform.NewContext(context.Background(), root, transform.Release), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAbsorbMinify: a minify step after bundle gives the bytes of
// bundle:minify=true, source maps included; after typescript it gives
// minified JavaScript whose map describes it; with another target it is
// not fused and still minifies.
func TestAbsorbMinify(t *testing.T) {
	one := runChainText(t, esRoot, []string{"bundle:minify=true,sourcemap=external"}, esLoad(t, esRoot, "app.ts"))
	two := runChainText(t, esRoot, []string{"bundle:sourcemap=external", "minify"}, esLoad(t, esRoot, "app.ts"))
	if got, want := esDump(two), esDump(one); !bytes.Equal(got, want) {
		t.Errorf("bundle | minify differs from bundle:minify=true:\n%s\n---\n%s", got, want)
	}

	ts := runChainText(t, esRoot, []string{"typescript:sourcemap=external", "minify"}, esLoad(t, esRoot, "lib/format.ts"))
	plain := runChainText(t, esRoot, []string{"typescript", "minify:target=es2017"}, esLoad(t, esRoot, "lib/format.ts"))
	if len(ts) != 2 || !strings.HasSuffix(ts[1].Path, ".map") {
		t.Fatalf("typescript | minify gave %d assets", len(ts))
	}
	for _, out := range [][]*transform.Asset{ts, plain} {
		if code := string(out[0].Data); strings.Count(code, "\n") > 2 || strings.Contains(code, "  ") {
			t.Errorf("%s is not minified:\n%s", out[0].Path, code)
		}
	}

	// JavaScript that the first step passes through is still minified.
	js := &transform.Asset{Path: "plain.js", Data: []byte("const   answer = 40 +  2;\nconsole.log( answer )\n")}
	out := runChainText(t, esRoot, []string{"typescript", "minify"}, js)
	if strings.Contains(string(out[0].Data), "  ") {
		t.Errorf("a .js file passed through typescript was not minified: %q", out[0].Data)
	}
}
