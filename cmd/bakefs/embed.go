package main

import "github.com/bakefs/bakefs/embedgen"

const embedManual = `
Usage: bakefs embed --tree DIR --out PKGDIR --package NAME [--import-path PATH]

Embed writes a Go package that embeds an output tree (from bakefs transform
or build) with //go:embed and serves it through the bakefs runtime: an
io/fs.FS with build-time hashes, hashed names and an HTTP handler for the
precompressed variants. The package directory belongs to bakefs: it is
replaced as a whole, and a directory holding other files is refused.

Example:
  bakefs embed --tree build/assets --out internal/assets --package assets --import-path example.com/app/internal/assets
`

// runEmbed implements bakefs embed.
func runEmbed(env *environment, args []string) error {
	fs := newFlagSet(env, "embed", embedManual)
	tree := fs.String("tree", "", "output tree `dir` holding bakefs-manifest.json (required)")
	out := fs.String("out", "", "package `dir` to write (required)")
	pkg := fs.String("package", "", "Go package `name` (required)")
	importPath := fs.String("import-path", "", "import `path` of the package, for its doc comment")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *tree == "" || *out == "" || *pkg == "" {
		return usageError("embed: --tree, --out and --package are required")
	}
	if fs.NArg() > 0 {
		return usageError("embed: unexpected argument %q", fs.Arg(0))
	}
	return embedgen.Generate(embedgen.Options{Tree: *tree, Dir: *out, Package: *pkg, ImportPath: *importPath})
}
