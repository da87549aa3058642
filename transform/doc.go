// Package transform is the step API of bakefs: what a step is (Step, run
// on Assets with a Context), how steps are registered and found by name
// (Register, Steps, NewStep), the step language that writes them the same
// way on the command line, in a project file and in a Bazel attribute
// (ParseChain: "bundle:format=esm,minify=true", "resize:width=800"), and
// the errors, media types and hashes that steps share.
//
// The steps themselves live in families that register themselves when
// imported: transform/web (esbuild and tdewolff/minify), transform/images
// (imaging, WebP and AVIF) and transform/compress (gzip, brotli, zstd);
// transform/steps imports all three. The hash step, which needs no
// library, is part of this package. Running chains over a source tree,
// with a cache, is the build engine's work (package pipeline).
//
//	import (
//		"github.com/bakefs/bakefs/transform"
//		_ "github.com/bakefs/bakefs/transform/steps"
//	)
//
//	chain, err := transform.ParseChain([]string{"typescript", "minify", "gzip"})
//	…
//	out, err := chain.Run(transform.NewContext(ctx, "web", transform.Release), []*transform.Asset{
//		{Path: "app.ts", Source: "app.ts", Data: src},
//	})
//
// The package imports the standard library and the runtime (package fs)
// only, so that a program which reads chains, such as the project file's
// reader, links no library that makes bytes.
package transform
