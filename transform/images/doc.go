// Package images holds the image steps, with disintegration/imaging and
// the WebP and AVIF codecs of gen2brain (libwebp and libavif compiled to
// WebAssembly, run by wazero, without cgo):
//
//	resize   scale to a width and/or height (fit, anchor, upscale)
//	crop     cut a box or an aspect ratio
//	format   re-encode as png, jpeg, gif, webp or avif
//	srcset   several widths (and formats) of one image
//
// Importing the package registers them with package transform:
//
//	import _ "github.com/bakefs/bakefs/transform/images"
//
// Inputs are untrusted: their size is read with DecodeConfig and checked
// against MaxImagePixels and MaxImageSide before they are decoded, and EXIF orientation is
// applied.
package images
