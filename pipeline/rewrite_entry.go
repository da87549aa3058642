package pipeline

import (
	"html"
	"path"
	"strings"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// This file holds how the rewrite pass treats a page's reference to a
// source that a step turned into JavaScript, as Vite treats index.html: a
// <script type="module" src="/src/index.tsx"> names the output made from
// src/index.tsx (src/index.js, hashed where hashing is on), and the style
// sheets and static chunks of its bundle are linked before the script.

// scriptAliases returns the source paths that name a JavaScript output
// made from them, mapped to that output's file: for each JavaScript output
// whose Source is not its own path, nor the path of another output, nor
// the Source of another JavaScript output (a source with two such outputs
// names neither).
func scriptAliases(outs []*output, files map[string]*refFile) map[string]*refFile {
	aliases := make(map[string]*refFile)
	twice := make(map[string]bool)
	for _, o := range outs {
		if refKindOf(o) != "js" || o.Source == o.Path || o.Source == "" {
			continue
		}
		if _, isOutput := files[o.Source]; isOutput {
			continue
		}
		if _, dup := aliases[o.Source]; dup {
			twice[o.Source] = true
		}
		aliases[o.Source] = files[o.Path]
	}
	for s := range twice {
		delete(aliases, s)
	}
	return aliases
}

// scriptNeeds returns what a page that runs the JavaScript output js
// needs beside it: the style sheets of js and of the chunks it imports
// statically (its CSS first, each once), and those chunks, depth-first in
// the order of Imports. Paths of the graph that are not outputs are left
// out (the manifest's checks report them).
func scriptNeeds(js *output, files map[string]*refFile) (css, chunks []*refFile) {
	seen := map[string]bool{js.Path: true}
	var visit func(o *output)
	visit = func(o *output) {
		for _, c := range o.CSS {
			if f, ok := files[c]; ok && !seen[c] {
				seen[c] = true
				css = append(css, f)
			}
		}
		for _, c := range o.Imports {
			if f, ok := files[c]; ok && !seen[c] {
				seen[c] = true
				chunks = append(chunks, f)
				visit(f.o)
			}
		}
	}
	visit(js)
	return css, chunks
}

// scriptLinks returns the elements to insert before a <script> of the
// page from whose src names the output js (see scriptNeeds): a
// rel=stylesheet link for each style sheet and a rel=modulepreload link
// for each chunk, with the URLs the pass gives them, leaving out the
// files the page refers to itself (linked). u is the script's src as
// written.
func (p *rewritePass) scriptLinks(from *refFile, u string, js *output, linked map[string]bool) string {
	css, chunks := scriptNeeds(js, p.files)
	var b strings.Builder
	for _, l := range [...]struct {
		rel   string
		files []*refFile
	}{{"stylesheet", css}, {"modulepreload", chunks}} {
		for _, f := range l.files {
			if linked[f.o.Path] {
				continue
			}
			b.WriteString(`<link rel="` + l.rel + `" href="` + html.EscapeString(p.urlOf(from, u, f.o)) + `">`)
		}
	}
	return b.String()
}

// urlOf returns the URL by which the page from names the output o, written
// as the reference u is: root-relative under the pass's base when u is,
// relative to the page otherwise; with o's hashed name when it has one.
func (p *rewritePass) urlOf(from *refFile, u string, o *output) string {
	name := o.servedName()
	if strings.HasPrefix(u, "/") {
		return p.base + escapePath(name)
	}
	return escapePath(transform.RelativePath(path.Dir(from.o.Path), name))
}

// renamedURL returns u, which names the source target, rewritten to name
// the output o made from it (see urlOf): only its last segment changes
// when o sits in target's directory, and query and fragment are kept.
func (p *rewritePass) renamedURL(from *refFile, u, target string, o *output) string {
	rest := u[len(urlPath(u)):]
	if path.Dir(target) == path.Dir(o.Path) {
		dir := urlPath(u)[:strings.LastIndexByte(urlPath(u), '/')+1]
		return dir + escapePath(path.Base(o.servedName())) + rest
	}
	return p.urlOf(from, u, o) + rest
}

// servedName returns the name under which o is served: its hashed name
// when it gets one (Hashed and not content-named already), else its path.
func (o *output) servedName() string {
	if o.Hashed && !o.Fingerprinted {
		return bakefs.HashedName(o.Path, o.blob.SHA256)
	}
	return o.Path
}
