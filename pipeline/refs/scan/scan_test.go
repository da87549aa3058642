package scan

import (
	"testing"

	"github.com/bakefs/bakefs/pipeline/refs"
)

// FuzzReaders holds every registered reader to the contract of refs.Ref
// on any bytes: it does not panic, its refs lie within the bytes, in
// order and apart, a plain ref's bytes are its URL, and writing every URL
// back unchanged gives the same bytes.
func FuzzReaders(f *testing.F) {
	for _, seed := range []string{
		`a{background:url(img/a.png)} @import "b.css"; /*# sourceMappingURL=a.css.map */`,
		`<link rel=stylesheet href="css/a.css" integrity="sha384-x"><img srcset="a.png 1x, b.png 2x" style="background:url('c.png')">`,
		`<svg><use href="#a"/><image xlink:href="i.png"/><style>r{fill:url(p.svg#g)}</style></svg>`,
		`{"icons":[{"src":"icon\u002epng"}],"screenshots":[{"src":"s.png"}]}`,
		"x()\n//# sourceMappingURL=app.js.map\n",
		`<a href="{{.URL}}">x</a><img src="a&amp;b.png">`,
	} {
		f.Add([]byte(seed))
	}
	kinds := refs.Kinds()
	if len(kinds) != 5 {
		f.Fatalf("registered readers %q, want 5", kinds)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range kinds {
			read, _ := refs.ReaderOf(kind)
			in := append([]byte(nil), data...)
			found := read(in)
			if string(in) != string(data) {
				t.Fatalf("%s: the reader changed its input", kind)
			}
			checkRefs(t, kind, string(data), found)
			same := refs.Apply(data, found, func(r *refs.Ref) (string, bool) { return r.URL, true })
			if string(same) != string(data) {
				t.Fatalf("%s: writing every URL back unchanged changed the bytes:\n%q\n%q", kind, data, same)
			}
		}
	})
}

// checkRefs checks that found lie within text, in order and apart, and
// that plain ones are their URL byte for byte.
func checkRefs(t *testing.T, kind, text string, found []refs.Ref) {
	t.Helper()
	last := 0
	for _, r := range found {
		if r.Start < last || r.End < r.Start || r.End > len(text) {
			t.Fatalf("%s: ref %d:%d out of order or bounds (after %d, of %d) in %q", kind, r.Start, r.End, last, len(text), text)
		}
		last = r.End
		if r.Inner != nil {
			checkRefs(t, kind, r.Decoded, r.Inner)
			continue
		}
		if r.Plain && text[r.Start:r.End] != r.URL {
			t.Fatalf("%s: plain ref %q holds %q", kind, r.URL, text[r.Start:r.End])
		}
		if !r.Plain && r.Kind != refs.SRI && r.Write == nil {
			t.Fatalf("%s: ref %q is neither plain nor writable", kind, r.URL)
		}
	}
}
