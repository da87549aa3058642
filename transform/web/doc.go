// Package web holds the steps for the text of a web front end, with
// esbuild's Go API and tdewolff/minify:
//
//	typescript, jsx, tsx   transpile one file (esbuild transform)
//	bundle                 bundle an entry point and its imports (esbuild build)
//	minify                 JavaScript and CSS (esbuild), HTML, SVG, JSON, XML (tdewolff)
//
// Importing the package registers them with package transform:
//
//	import _ "github.com/bakefs/bakefs/transform/web"
//
// A minify step right after one of esbuild's steps is absorbed by it
// (transform.Absorber, see absorb.go), so that both run in one esbuild
// pass. esbuild's messages become transform.SourceErrors that name the
// file, line and column; no type of esbuild's leaves the package.
package web
