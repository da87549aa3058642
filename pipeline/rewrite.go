package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline/refs"
	"github.com/bakefs/bakefs/transform"
)

// The rewrite pass gives the references between the files of an output
// tree the hashed names of their targets.
//
// It runs in Pipeline.Run after every job's content steps and before the
// finishing steps (compression, hash), over the whole result, when at
// least one output is to have a hashed name; with Pipeline.Strict and no
// hashed name, it only checks the references (see below). Each output
// that has not opted out (Job.KeepRefs) is scanned by the reader of its
// media type that package refs has registered (package refs/scan
// registers these; a missing one is ErrNoReader):
//
//	text/css                    url(), @import, image-set(), sourceMappingURL (refs/scan/css.go)
//	text/html                   src, href, srcset, poster, data, og:image, integrity,
//	                            style, <style> (refs/scan/html.go; Go template actions left alone)
//	image/svg+xml               href, xlink:href, url() in attributes and <style> (refs/scan/svg.go)
//	application/manifest+json   icons[].src, screenshots[].src (refs/scan/webmanifest.go); also a
//	                            .json file that a <link rel="manifest"> names
//	text/javascript             the trailing sourceMappingURL comment (refs/scan/sourcemap.go)
//
// A reference resolves as localTarget says: relative ones against the
// referring file's logical path, root-relative ones against Pipeline.Base.
// One that names the source of a JavaScript output (src/index.tsx, which a
// bundle made src/index.js of) names that output, and a <script> that
// names one gets links to the style sheets and chunks of its bundle
// before it (see rewrite_entry.go); the pass then runs without hashing
// too.
// One that names an output with a hashed name is rewritten to that name,
// query and fragment kept; one that names a page (text/html) is a link to
// navigate and keeps its logical name, as does a reference of a file to
// itself. An integrity attribute beside a reference is set to the target's
// Subresource Integrity value.
//
// A file is rewritten after every file it refers to, so its bytes, and so
// its hashed name, change when one of theirs does; a cycle of references
// (a.css imports b.css imports a.css) is an error naming it. A reference
// that the browser would load (not a link) to a local file that is not an
// output is a warning "file:line:col: warning: …", or an error with
// Pipeline.Strict; positions are in the output's bytes.
//
// With a cache, the pass remembers what it found in each output's bytes
// and what it made of them (see rewriteMemo): it reads and scans only the
// outputs whose bytes are new, and rewrites only those whose bytes or
// whose targets changed. What follows it, the finishing steps, is cached
// by the rewritten bytes (see finish.go), so a file whose references
// changed is compressed again, and nothing else is run again.

// A refFile is an output being rewritten.
type refFile struct {
	o       *output
	kind    string      // the reader of its references (see refKindOf)
	key     string      // its record's key in the memo
	rec     *scanRecord // its references, from the memo or a scan
	data    []byte      // its bytes, once read
	refs    []refs.Ref  // its references, once scanned
	scanned bool
	targets []*refFile // distinct targets, for the order of the pass
	state   uint8      // 0 new, 1 being visited, 2 done
}

// A rewritePass is one run of the pass over an output tree.
type rewritePass struct {
	base   string
	strict bool
	load   func(*output) ([]byte, error) // an output's identity bytes
	// memo, when not nil, answers for the outputs it knows (see
	// rewriteMemo), their blobs being in cache, for the code tool.
	memo  *rewriteMemo
	cache *Cache
	tool  string
	files map[string]*refFile
}

// run runs the pass over outs (sorted by path).
func (p *rewritePass) run(outs []*output) ([]error, error) {
	p.base = normalBase(p.base)
	hashing, pages := false, false
	p.files = make(map[string]*refFile, len(outs))
	for _, o := range outs {
		hashing = hashing || o.Hashed
		pages = pages || isPage(o)
		p.files[o.Path] = &refFile{o: o}
	}
	// A page may name the source of a script (see rewrite_entry.go).
	aliases := scriptAliases(outs, p.files)
	renaming := pages && len(aliases) > 0
	if !hashing && !p.strict && !renaming {
		return nil, nil
	}
	for src, f := range aliases {
		p.files[src] = f
	}
	// Pages first: a <link rel="manifest"> makes a .json file a web app
	// manifest.
	manifests := make(map[string]bool)
	for _, o := range outs {
		if refKindOf(o) == "html" {
			f := p.files[o.Path]
			if err := p.note(f, "html"); err != nil {
				return nil, err
			}
			for _, n := range f.notes() {
				if n.Kind == refs.Manifest {
					manifests[n.Target] = true
				}
			}
		}
	}
	for _, o := range outs {
		kind := refKindOf(o)
		if kind == "json" && manifests[o.Path] {
			kind = "manifest"
		}
		if kind == "html" || kind == "" || kind == "json" {
			continue
		}
		if err := p.note(p.files[o.Path], kind); err != nil {
			return nil, err
		}
	}
	var warnings []error
	for _, o := range outs {
		f := p.files[o.Path]
		seen := make(map[*refFile]bool)
		for _, n := range f.notes() {
			tf, ok := p.files[n.Target]
			switch {
			case !ok && (n.Kind == refs.Load || n.Kind == refs.Manifest):
				if err := p.read(f); err != nil {
					return nil, err
				}
				line, col := lineCol(f.data, n.At)
				warnings = append(warnings, &transform.SourceError{File: o.Path, Line: line, Column: col, Warning: !p.strict,
					Msg: fmt.Sprintf("%q names %s, which is not in the output tree", n.URL, n.Target)})
			case ok && !isPage(tf.o) && !seen[tf]:
				seen[tf] = true
				f.targets = append(f.targets, tf)
			}
			if ok && n.Kind == refs.ScriptStart && !isPage(tf.o) {
				css, chunks := scriptNeeds(tf.o, p.files)
				for _, d := range append(css, chunks...) {
					if !seen[d] {
						seen[d] = true
						f.targets = append(f.targets, d)
					}
				}
			}
		}
	}
	sortErrors(warnings)
	if p.strict && len(warnings) > 0 {
		return nil, errors.Join(warnings...)
	}
	if !hashing && !renaming {
		return warnings, nil // strict alone checks the references
	}
	var order []*refFile
	var visit func(f *refFile, stack []*refFile) error
	visit = func(f *refFile, stack []*refFile) error {
		switch f.state {
		case 2:
			return nil
		case 1:
			return cycleError(f, stack)
		}
		f.state = 1
		for _, t := range f.targets {
			if err := visit(t, append(stack, f)); err != nil {
				return err
			}
		}
		f.state = 2
		order = append(order, f)
		return nil
	}
	for _, o := range outs {
		if err := visit(p.files[o.Path], nil); err != nil {
			return nil, err
		}
	}
	for _, f := range order {
		if err := p.rewrite(f); err != nil {
			return nil, err
		}
	}
	return warnings, nil
}

// note gives f, read by the reader kind, its references: those the memo
// has for its bytes, else those a scan finds, which the memo then keeps.
// An output that keeps its references (Job.KeepRefs) has none.
func (p *rewritePass) note(f *refFile, kind string) error {
	f.kind = kind
	if f.o.keepRefs {
		return nil
	}
	if p.memo != nil {
		f.key = scanKey(p.tool, kind, f.o, p.base)
		if r, ok := p.memo.record(f.key); ok {
			f.rec = r
			return nil
		}
	}
	if err := p.read(f); err != nil {
		return err
	}
	rec := &scanRecord{}
	refs.Each(f.refs, func(r *refs.Ref, at int) {
		if t, local := localTarget(r.URL, f.o.Path, p.base); local && t != f.o.Path {
			rec.Refs = append(rec.Refs, refNote{Target: t, URL: r.URL, Kind: r.Kind, At: at})
		}
	})
	f.rec = rec
	if p.memo != nil {
		p.memo.put(f.key, rec)
	}
	return nil
}

// notes returns f's references to other local files.
func (f *refFile) notes() []refNote {
	if f.rec == nil {
		return nil
	}
	return f.rec.Refs
}

// read reads and scans f, once.
func (p *rewritePass) read(f *refFile) error {
	if f.scanned {
		return nil
	}
	data, err := p.load(f.o)
	if err != nil {
		return fmt.Errorf("%s: %w", f.o.Path, err)
	}
	f.data, f.scanned = data, true
	if f.kind == "" {
		return nil
	}
	read, ok := refs.ReaderOf(f.kind)
	if !ok {
		return fmt.Errorf("%s: %w of %s (import %s)", f.o.Path, ErrNoReader, f.kind, refsScanPackage)
	}
	f.refs = read(data)
	return nil
}

// rewrite gives f's references the hashed names of their targets, which
// are final by then, taking the outcome from the memo when it made it for
// the same targets.
func (p *rewritePass) rewrite(f *refFile) error {
	if len(f.notes()) == 0 {
		return nil
	}
	var targets string
	if p.memo != nil {
		targets = targetsDigest(f.rec.Refs, p.files)
		if ref, ok := p.cache.rewriteResult(f.rec, targets); ok {
			if ref != (blobRef{}) {
				f.o.data, f.o.blob, f.o.key = nil, ref, rewriteMemoKey
				f.o.rewritten = true
			}
			return nil
		}
	}
	if err := p.read(f); err != nil {
		return err
	}
	linked := make(map[string]bool)
	for _, n := range f.notes() {
		if tf, ok := p.files[n.Target]; ok && n.Kind != refs.ScriptStart {
			linked[tf.o.Path] = true
		}
	}
	out := refs.Apply(f.data, f.refs, func(r *refs.Ref) (string, bool) {
		t, local := localTarget(r.URL, f.o.Path, p.base)
		tf, ok := p.files[t]
		if !local || !ok || t == f.o.Path || isPage(tf.o) {
			return "", false
		}
		switch {
		case r.Kind == refs.SRI:
			return tf.o.blob.Integrity, true
		case r.Kind == refs.ScriptStart:
			links := p.scriptLinks(f, r.URL, tf.o, linked)
			return links, links != ""
		case tf.o.Path != t: // a source, named by the output made from it
			return p.renamedURL(f, r.URL, t, tf.o), true
		case !tf.o.Hashed || tf.o.Fingerprinted:
			return "", false
		}
		u, _ := hashedURL(r.URL, t, bakefs.HashedName(t, tf.o.blob.SHA256))
		return u, true
	})
	var result blobRef
	if !bytes.Equal(out, f.data) {
		f.o.data, f.o.blob, f.o.key = out, newBlobRef(out, true), ""
		f.o.rewritten = true
		result = f.o.blob
	}
	if p.memo != nil {
		p.memo.put(f.key, &scanRecord{Refs: f.rec.Refs, Targets: targets, Result: result})
	}
	return nil
}

// normalBase returns the public URL prefix of the tree's root as
// localTarget wants it: "/" for "", with a final "/".
func normalBase(base string) string {
	if !strings.HasPrefix(base, "/") {
		base = "/" + base
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base
}

// refKindOf names the reader of an output's references: "html", "css",
// "svg", "manifest", "js", "json" (a manifest when a page says so), or ""
// for none.
func refKindOf(o *output) string {
	t, _, _ := strings.Cut(o.Type, ";")
	switch strings.TrimSpace(strings.ToLower(t)) {
	case "text/html":
		return "html"
	case "text/css":
		return "css"
	case "image/svg+xml":
		return "svg"
	case "application/manifest+json":
		return "manifest"
	case "text/javascript", "application/javascript":
		return "js"
	case "application/json":
		return "json"
	}
	return ""
}

// isPage reports whether an output is a page, which references name by
// its logical name.
func isPage(o *output) bool { return refKindOf(o) == "html" }

// cycleError names the cycle that f closes on stack.
func cycleError(f *refFile, stack []*refFile) error {
	i := len(stack) - 1
	for i > 0 && stack[i] != f {
		i--
	}
	names := make([]string, 0, len(stack)-i+1)
	for _, s := range stack[i:] {
		names = append(names, s.o.Path)
	}
	names = append(names, f.o.Path)
	return fmt.Errorf("%w: %s", ErrRefCycle, strings.Join(names, " → "))
}

// lineCol returns the 1-based line and byte column of offset at in data.
func lineCol(data []byte, at int) (int, int) {
	at = min(at, len(data))
	before := data[:at]
	return 1 + bytes.Count(before, []byte("\n")), at - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// sortErrors sorts errors by their text.
func sortErrors(errs []error) {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
}
