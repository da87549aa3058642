// Package embedgen turns a bakefs output tree and its manifest into a Go
// package that embeds the tree's exact bytes with //go:embed and serves them
// through the bakefs runtime (package github.com/bakefs/bakefs/fs).
//
// Usage:
//
//	err := embedgen.Generate(embedgen.Options{
//		Tree:       "dist",            // holds bakefs-manifest.json
//		Dir:        "internal/assets", // the package directory, replaced whole
//		ImportPath: "example.com/app/internal/assets",
//	})
//
// and in the program:
//
//	import "example.com/app/internal/assets"
//
//	http.Handle("/static/", assets.Handler(bakefs.WithPrefix("/static/")))
//	page := template.Must(template.New("page").Funcs(assets.FuncMap("/static/")).Parse(text))
//
// The package directory holds the Go file (GoFile), the data under _data/
// at the paths of the tree, the manifest table (TableFile, unless the
// manifest is compiled into Go values) and the list of files written
// (MarkerFile). Data bytes are never written as Go literals. Generate
// checks every byte against the manifest and every name against the rules
// of //go:embed before it replaces anything, writes the package beside its
// target and renames it into place, and refuses a target directory that
// holds files it did not write. Its output is deterministic.
package embedgen
