package fs

import (
	"fmt"
	iofs "io/fs"
	"slices"
	"strings"
)

// The module graph of a bundle with code splitting is recorded on its
// JavaScript entries (Entry.Imports, DynamicImports and CSS). A page that
// runs one as a module script fetches the chunks it imports statically one
// after another as it discovers them, unless it announces them all at once
// with modulepreload; the chunks it loads with import() it fetches later,
// and checks their integrity only through an import map.

// jsTypes are the essences of the JavaScript MIME types (WHATWG MIME
// Sniffing, "JavaScript MIME type"), the types a browser runs as scripts.
var jsTypes = []string{
	"application/ecmascript", "application/javascript", "application/x-ecmascript", "application/x-javascript",
	"text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
	"text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript", "text/livescript",
	"text/x-ecmascript", "text/x-javascript",
}

// isJavaScript reports whether the media type t is a JavaScript MIME type.
func isJavaScript(t string) bool { return slices.Contains(jsTypes, mediaType(t)) }

// isCSS reports whether the media type t is text/css.
func isCSS(t string) bool { return mediaType(t) == "text/css" }

// validateModules checks the module graph of m, whose paths are known to
// be valid, unique and sorted: the rules of Manifest.
func (m *Manifest) validateModules() error {
	for i := range m.Files {
		e := &m.Files[i]
		if len(e.Imports)+len(e.DynamicImports)+len(e.CSS) == 0 {
			continue
		}
		if !isJavaScript(e.Type) {
			return fmt.Errorf("%w: %s: has imports or css but is %s, not JavaScript", ErrManifest, e.Path, e.Type)
		}
		for _, l := range [...]struct {
			key   string
			paths []string
			css   bool
		}{{"imports", e.Imports, false}, {"dynamicImports", e.DynamicImports, false}, {"css", e.CSS, true}} {
			for j, p := range l.paths {
				if j > 0 && l.paths[j-1] >= p {
					return fmt.Errorf("%w: %s: %s not sorted or duplicated", ErrManifest, e.Path, l.key)
				}
				if p == e.Path {
					return fmt.Errorf("%w: %s: %s itself", ErrManifest, e.Path, l.key)
				}
				d, ok := m.Lookup(p)
				switch {
				case !ok:
					return fmt.Errorf("%w: %s: %s %q is not the path of an entry", ErrManifest, e.Path, l.key, p)
				case l.css && !isCSS(d.Type):
					return fmt.Errorf("%w: %s: %s %q is %s, not CSS", ErrManifest, e.Path, l.key, p, d.Type)
				case !l.css && !isJavaScript(d.Type):
					return fmt.Errorf("%w: %s: %s %q is %s, not JavaScript", ErrManifest, e.Path, l.key, p, d.Type)
				}
			}
		}
	}
	return nil
}

// A module is a JavaScript file of an FS with what a page that runs it
// needs.
type module struct {
	entry  *Entry
	chunks []*Entry // its static-import closure, depth-first, without entry
	css    []*Entry // the style sheets of entry and chunks, in that order, each once
}

// jsEntry returns the entry of the JavaScript file name of f. Errors name
// op and name, and wrap fs.ErrNotExist or ErrNotModule.
func (f *FS) jsEntry(op, name string) (*Entry, error) {
	e, ok := f.entry(name)
	if !ok {
		return nil, fmt.Errorf("bakefs: %s %q: %w", op, name, iofs.ErrNotExist)
	}
	if !isJavaScript(e.Type) {
		return nil, fmt.Errorf("bakefs: %s %q: type %s: %w", op, name, e.Type, ErrNotModule)
	}
	return e, nil
}

// dep returns the entry of p, a path of the module graph, when f shows it:
// inside f and allowed by its hooks.
func (f *FS) dep(p string) (*Entry, bool) {
	n, ok := f.tree().names[p]
	if _, in := f.rel(p); !ok || !in || f.h != nil && f.visible(p) != nil {
		return nil, false
	}
	return &n.entry, true
}

// graph returns the JavaScript file name of f and the chunks it reaches
// through Imports, and through DynamicImports too when dynamic is set:
// depth-first, in the order of the lists (Imports before
// DynamicImports), each once at its first visit, without the entry.
// Errors are those of jsEntry, and fs.ErrNotExist for a chunk that f does
// not show.
func (f *FS) graph(op, name string, dynamic bool) (*Entry, []*Entry, error) {
	root, err := f.jsEntry(op, name)
	if err != nil {
		return nil, nil, err
	}
	type edge struct{ from, to string }
	var stack []edge
	push := func(e *Entry) {
		if dynamic {
			for _, p := range slices.Backward(e.DynamicImports) {
				stack = append(stack, edge{e.Path, p})
			}
		}
		for _, p := range slices.Backward(e.Imports) {
			stack = append(stack, edge{e.Path, p})
		}
	}
	push(root)
	seen := map[string]bool{root.Path: true}
	var chunks []*Entry
	for len(stack) > 0 {
		ed := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[ed.to] {
			continue
		}
		seen[ed.to] = true
		e, ok := f.dep(ed.to)
		if !ok {
			return nil, nil, fmt.Errorf("bakefs: %s %q: %s imports %s, which is not a file of the FS: %w", op, name, ed.from, ed.to, iofs.ErrNotExist)
		}
		chunks = append(chunks, e)
		push(e)
	}
	return root, chunks, nil
}

// module returns the JavaScript file name of f with its static closure
// and style sheets. Errors are those of graph.
func (f *FS) module(op, name string) (module, error) {
	root, chunks, err := f.graph(op, name, false)
	if err != nil {
		return module{}, err
	}
	m := module{entry: root, chunks: chunks}
	seen := map[string]bool{}
	for _, e := range append([]*Entry{root}, chunks...) {
		for _, p := range e.CSS {
			if seen[p] {
				continue
			}
			seen[p] = true
			c, ok := f.dep(p)
			if !ok {
				return module{}, fmt.Errorf("bakefs: %s %q: %s needs %s, which is not a file of the FS: %w", op, name, e.Path, p, iofs.ErrNotExist)
			}
			m.css = append(m.css, c)
		}
	}
	return m, nil
}

// names returns the paths of entries relative to f.
func (f *FS) names(entries []*Entry) []string {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i], _ = f.rel(e.Path)
	}
	return names
}

// ModulePreloads returns the chunks that the JavaScript file name imports
// statically, directly or through one another: those a page that runs it
// as a module script preloads (FuncMap's module). name is relative to f,
// as for Open. The chunks are logical paths relative to f, in depth-first
// order of Imports, each once where it is first reached; name itself is
// left out, also when an import cycle leads back to it.
//
// The error wraps fs.ErrNotExist when name or one of the chunks is not a
// file of f (Hooks.Allow hides it, or it lies outside a Sub), and
// ErrNotModule when the Type of name is not a JavaScript MIME type; it
// names the method and name.
func (f *FS) ModulePreloads(name string) ([]string, error) {
	_, chunks, err := f.graph("ModulePreloads", name, false)
	if err != nil {
		return nil, err
	}
	return f.names(chunks), nil
}

// ModuleCSS returns the style sheets that the JavaScript file name and the
// chunks of ModulePreloads need (Entry.CSS): those of name, then those of
// each chunk in the order of ModulePreloads, each once, as logical paths
// relative to f. Errors are those of ModulePreloads, also for a style
// sheet.
func (f *FS) ModuleCSS(name string) ([]string, error) {
	m, err := f.module("ModuleCSS", name)
	if err != nil {
		return nil, err
	}
	return f.names(m.css), nil
}

// PreloadLinkHeader returns a Link header value (RFC 8288) that announces
// what a page running the JavaScript file name needs: name and each chunk
// of ModulePreloads as modulepreload, then each style sheet of ModuleCSS as
// preload for a style, comma-separated, with URLs as FuncMap(prefix)'s
// asset gives them:
//
//	</static/js/app.3f2a1b9c0d.js>; rel=modulepreload, </static/js/chunk-5XJ3KQ2M.js>; rel=modulepreload, </static/css/app.9e8d7c6b5a.css>; rel=preload; as=style
//
// A handler sends it on the page's response, or before it in a 103 Early
// Hints response, which lets the browser fetch while the page is made:
//
//	w.Header().Add("Link", v)
//	w.WriteHeader(http.StatusEarlyHints)
//	// … then the page, with status 200
//
// The header has no integrity parameter: a browser does not check the
// Subresource Integrity of what it preloads from it, as it does for the
// elements of FuncMap's module. Errors are those of ModuleCSS.
func (f *FS) PreloadLinkHeader(prefix, name string) (string, error) {
	m, err := f.module("PreloadLinkHeader", name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	link := func(e *Entry, params string) {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		rel, _ := f.rel(e.Path)
		b.WriteString("<" + f.url(prefix, rel) + ">; " + params)
	}
	link(m.entry, "rel=modulepreload")
	for _, e := range m.chunks {
		link(e, "rel=modulepreload")
	}
	for _, e := range m.css {
		link(e, "rel=preload; as=style")
	}
	return b.String(), nil
}
