package synth

// projectFile is the bakefs.toml of a tree: every entry point bundled and
// minified, every other file minified, Brotli and gzip variants, hashed
// names. The modules under ts/g*/ are no rule's: the bundles read them.
func projectFile() []byte {
	return []byte(`# Synthetic tree for the bakefs benchmarks (written by bench/gen).
src   = "web"
out   = "build"
cache = ".bakefs-cache"
compress = ["br", "gzip"]
hash  = true

[[rule]]
match = "ts/*.ts"
steps = ["bundle:format=esm", "minify"]

[[rule]]
match = ["**/*.css", "**/*.json", "**/*.svg", "**/*.html"]
steps = ["minify"]
`)
}
