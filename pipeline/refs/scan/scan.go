// Package scan reads the references between the files of an output tree
// out of their bytes: url() and @import in CSS, src, href, srcset and the
// like in HTML and Go templates, href in SVG, icons in web app manifests,
// and the sourceMappingURL comment of a script. Each reader is a pure
// function of the bytes, found with tdewolff/parse's lexers, and never
// fails: bytes it cannot read have no references.
//
// Importing the package registers its readers with package refs, where
// the build engine's rewrite pass finds them:
//
//	import _ "github.com/bakefs/bakefs/pipeline/refs/scan"
package scan

import "github.com/bakefs/bakefs/pipeline/refs"

func init() {
	refs.Register(refs.HTML, HTML)
	refs.Register(refs.CSS, CSS)
	refs.Register(refs.SVG, SVG)
	refs.Register(refs.WebManifest, WebManifest)
	refs.Register(refs.SourceMap, SourceMapComment)
}

// CSS returns the references of a style sheet; see scanCSS.
func CSS(data []byte) []refs.Ref { return scanCSS(data, 0) }
