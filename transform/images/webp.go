package images

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/draw"

	"github.com/gen2brain/webp"
	xwebp "golang.org/x/image/webp"
)

// WebP images: decoded by golang.org/x/image/webp (pure Go, still images,
// lossy and lossless), encoded by libwebp (see wasmcodec.go) with method 4,
// the cwebp default, and no metadata. A lossless WebP source that a step
// re-encodes as WebP stays lossless.

// DefaultWebPQuality is the WebP quality (1–100) used when a step's option
// does not give one; it is cwebp's default.
const DefaultWebPQuality = 75

// webpMethod is libwebp's effort, 0 (fast) to 6 (slow, smaller): 4, as
// cwebp.
const webpMethod = 4

// isWebP reports whether data starts like a WebP file: a RIFF container of
// form type "WEBP".
func isWebP(data []byte) bool {
	return len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP"
}

// webpAnimated reports whether a WebP file has an extended header (VP8X)
// whose animation flag is set.
func webpAnimated(data []byte) bool {
	const vp8x = 12 // the first chunk, after "RIFF", the size and "WEBP"
	return len(data) >= vp8x+9 && string(data[vp8x:vp8x+4]) == "VP8X" && data[vp8x+8]&0x02 != 0
}

// webpIsLossless reports whether a WebP file holds a lossless (VP8L)
// bitstream: its first chunk is VP8L, or an extended header (VP8X) is
// followed, among its chunks, by a VP8L one.
func webpIsLossless(data []byte) bool {
	for i := 12; i+8 <= len(data); {
		id, size := string(data[i:i+4]), int(binary.LittleEndian.Uint32(data[i+4:i+8]))
		switch id {
		case "VP8L":
			return true
		case "VP8 ":
			return false
		}
		if size < 0 || size > len(data) {
			return false
		}
		i += 8 + size + size&1 // chunks are padded to an even length
	}
	return false
}

// decodeWebPConfig reads the size of a WebP image from its header.
func decodeWebPConfig(data []byte) (image.Config, error) {
	return xwebp.DecodeConfig(bytes.NewReader(data))
}

// decodeWebP decodes a still WebP image.
func decodeWebP(data []byte) (image.Image, error) {
	return xwebp.Decode(bytes.NewReader(data))
}

// encodeWebP writes img as WebP: lossy at quality q (1–100), or lossless,
// where q sets the effort (100 gives the smallest file).
func encodeWebP(img image.Image, q int, lossless bool) ([]byte, error) {
	wazeroReady()
	var buf bytes.Buffer
	err := webp.Encode(&buf, toNRGBA(img), webp.Options{Quality: q, Lossless: lossless, Method: webpMethod})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// toNRGBA returns img as non-premultiplied 8-bit RGBA at the origin, the
// layout that the WebAssembly encoders copy. (The WebP library would pass
// an *image.RGBA's premultiplied samples as they are, darkening every
// half-transparent pixel.)
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	if n, ok := img.(*image.NRGBA); ok && b.Min == (image.Point{}) {
		return n
	}
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	return dst
}
