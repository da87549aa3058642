// Package refs is the model of the references between the files of an
// output tree: what a reference is (Ref), how to write new URLs into the
// bytes that hold them (Apply), and the registry of the readers that find
// them in a file's bytes (Register, Scan), one per kind of file.
//
// It imports the standard library only, so that the build engine, which
// drives the rewrite pass, links no parser: the readers live in package
// scan, which registers them when it is imported.
package refs

import "bytes"

// A Kind says what a reference is for.
type Kind uint8

const (
	Load     Kind = iota // a file the browser loads: warned about when missing
	Nav                  // a link to navigate (a href): never warned about
	Manifest             // a web app manifest the browser loads
	SRI                  // an integrity value for URL; Start:End is the value
	// ScriptStart is the point where a <script> element with a src
	// starts (Start == End), before which the rewrite pass inserts the
	// elements that the script's bundle needs; URL is the src.
	ScriptStart
)

// A Ref is one reference found in a file.
type Ref struct {
	Start, End int    // the bytes the reference occupies in its text
	URL        string // the URL as the browser reads it (escapes decoded)
	Plain      bool   // text[Start:End] is URL itself, byte for byte
	// Write gives the bytes that stand for a URL, when not Plain.
	Write func(url string) []byte
	Kind  Kind
	// Inner, when not nil, makes the ref a region (an attribute value
	// with character references) whose decoded text is Decoded, holding
	// the refs Inner; the region is written back with Write(new text).
	Inner   []Ref
	Decoded string
}

// Each calls fn on every ref, those inside regions included, with the
// offset in the file where it (or its region) starts.
func Each(refs []Ref, fn func(r *Ref, at int)) {
	for i := range refs {
		if refs[i].Inner != nil {
			for j := range refs[i].Inner {
				fn(&refs[i].Inner[j], refs[i].Start)
			}
			continue
		}
		fn(&refs[i], refs[i].Start)
	}
}

// Apply returns text with each ref for which newURL gives a value replaced
// by it: written in place (the hash digits inserted, the rest of the bytes
// kept) when the ref is Plain, through its Write function otherwise. For
// an SRI ref the value replaces the integrity value, and for a ScriptStart
// ref it is text inserted at that point. It
// returns text itself when nothing changes.
func Apply(text []byte, refs []Ref, newURL func(*Ref) (string, bool)) []byte {
	var out []byte
	last := 0
	for i := range refs {
		r := &refs[i]
		var repl []byte
		if r.Inner != nil {
			dec := []byte(r.Decoded)
			if n := Apply(dec, r.Inner, newURL); !bytes.Equal(n, dec) {
				repl = r.Write(string(n))
			}
		} else if u, ok := newURL(r); ok && u != r.URL {
			if r.Plain || r.Kind == SRI || r.Kind == ScriptStart {
				repl = []byte(u)
			} else {
				repl = r.Write(u)
			}
		}
		if repl == nil {
			continue
		}
		out = append(out, text[last:r.Start]...)
		out = append(out, repl...)
		last = r.End
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}
