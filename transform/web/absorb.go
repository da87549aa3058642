package web

import (
	"github.com/bakefs/bakefs/transform"
	"github.com/evanw/esbuild/pkg/api"
)

// A minify step right after a step that runs esbuild on JavaScript or CSS
// (bundle, typescript, jsx, tsx) is absorbed by it (transform.Absorber):
// the earlier step minifies in the same esbuild call and marks what it
// wrote, so that the minify step passes it through. "bundle" then "minify"
// gives the bytes of "bundle:minify=true" (its imported files, named by
// esbuild after their bytes, are left as they are too). The minify step
// still minifies everything the earlier step passed through (HTML, SVG,
// JSON, JavaScript that typescript does not read). The two steps must
// agree on the target, and the minify step must have no banner or footer
// of its own, which it adds to what it minified.

// absorbMinify is Absorb for a step s of esbuild's whose JavaScript target
// is target: when next is a minify step with that target and neither
// banner nor footer, it returns a
// copy of s that minify has turned into the step doing both; s itself is
// not changed.
func absorbMinify[S any, P interface {
	*S
	transform.Step
}](s P, next transform.Step, target api.Target, minify func(f P, m *minifyStep)) (transform.Step, bool) {
	m, ok := next.(*minifyStep)
	if !ok || m.js.Target != target || m.js.Banner != "" || m.js.Footer != "" {
		return nil, false
	}
	f := P(new(S))
	*f = *s
	minify(f, m)
	return f, true
}
