// Package steps registers every step family with package transform, for
// programs that want all the steps (the bakefs CLI, dev mode): importing
// it is importing transform/web (typescript, jsx, tsx, bundle, minify),
// transform/images (resize, crop, format, srcset; WebP and AVIF) and
// transform/compress (gzip, br, zstd). The hash step is part of
// transform itself.
//
//	import _ "github.com/bakefs/bakefs/transform/steps"
package steps

import (
	_ "github.com/bakefs/bakefs/transform/compress"
	_ "github.com/bakefs/bakefs/transform/images"
	_ "github.com/bakefs/bakefs/transform/web"
)
