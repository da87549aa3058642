package main

import (
	"github.com/bakefs/bakefs/embedgen"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
)

const buildManual = `
Usage: bakefs build [-f FILE]

Build runs a project file (default ./bakefs.toml): it matches the source files
to the rules' chains, runs them in parallel with the cache, writes the output
tree and manifest, and, when the file has a [package] table, writes the Go
package that embeds the tree. Nothing that is unchanged is rewritten; a
failed build leaves the previous output intact.

Example bakefs.toml:

  src      = "web"
  out      = "build/assets"
  compress = ["br", "gzip", "zstd"]
  hash     = true

  [package]
  dir  = "internal/assets"
  name = "assets"

  [[rule]]
  match = "js/app.ts"
  steps = ["bundle:format=esm", "minify"]

  [[rule]]
  match = ["**/*.css", "**/*.html", "**/*.svg"]
  steps = ["minify"]

Examples:
  bakefs build
  bakefs build -f examples/minimal/bakefs.toml
`

// runBuild implements bakefs build.
func runBuild(env *environment, args []string) error {
	fs := newFlagSet(env, "build", buildManual)
	file := fs.String("f", project.DefaultFile, "project `file`")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("build: unexpected argument %q", fs.Arg(0))
	}
	p, err := project.Load(*file)
	if err != nil {
		return err
	}
	jobs, err := p.Jobs()
	if err != nil {
		return err
	}
	pipe := &transform.Pipeline{Root: p.Src, Profile: p.Profile}
	if p.Cache != "" {
		pipe.Cache = &transform.Cache{Dir: p.Cache}
	}
	if _, err := runPipeline(env, pipe, jobs, p.Out); err != nil {
		return err
	}
	if p.Package == nil {
		return nil
	}
	return embedgen.Generate(embedgen.Options{Tree: p.Out, Dir: p.Package.Dir, Package: p.Package.Name, ImportPath: p.Package.ImportPath})
}
