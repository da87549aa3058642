package images

import (
	"bytes"
	"image"

	"github.com/gen2brain/avif"
)

// AVIF images: decoded and encoded by libavif with libaom (see
// wasmcodec.go). The encoder writes 8-bit 4:2:0 with the color quality
// also used for the alpha channel, and no metadata. The decoder applies no
// irot/imir transform, so an AVIF that stores its rotation in the container
// comes out as stored.

// Defaults of the AVIF options.
const (
	// DefaultAVIFQuality is the AVIF quality (1–100, where 100 is
	// lossless) used when a step's option does not give one; it is
	// avifenc's default.
	DefaultAVIFQuality = 60
	// DefaultAVIFSpeed is the encoder speed (1, slowest and smallest, to
	// 10) used when a step's option does not give one. avifenc's default
	// is 6; 8 encodes about three times faster here for files within a few
	// percent of the size (bench/README.md).
	DefaultAVIFSpeed = 8
)

// avifBrands returns the major and compatible brands of the ftyp box that
// starts an ISO BMFF file, or nil if data does not start with one.
func avifBrands(data []byte) []string {
	if len(data) < 16 || string(data[4:8]) != "ftyp" {
		return nil
	}
	size := int(data[0])<<24 | int(data[1])<<16 | int(data[2])<<8 | int(data[3])
	if size < 16 || size > len(data) || size%4 != 0 {
		return nil
	}
	brands := []string{string(data[8:12])} // then the minor version
	for i := 16; i+4 <= size; i += 4 {
		brands = append(brands, string(data[i:i+4]))
	}
	return brands
}

// isAVIF reports whether data is an AVIF file: an ISO BMFF file with the
// brand "avif" (a still image) or "avis" (an image sequence).
func isAVIF(data []byte) bool {
	for _, b := range avifBrands(data) {
		if b == "avif" || b == "avis" {
			return true
		}
	}
	return false
}

// avifSequence reports whether an AVIF file is an image sequence (brand
// "avis"), which the image steps refuse as they refuse animated GIFs.
func avifSequence(data []byte) bool {
	for _, b := range avifBrands(data) {
		if b == "avis" {
			return true
		}
	}
	return false
}

// decodeAVIFConfig reads the size of an AVIF image by parsing its boxes,
// without decoding pixels.
func decodeAVIFConfig(data []byte) (image.Config, error) {
	wazeroReady()
	return avif.DecodeConfig(bytes.NewReader(data))
}

// decodeAVIF decodes an AVIF image (its primary image).
func decodeAVIF(data []byte) (image.Image, error) {
	wazeroReady()
	return avif.Decode(bytes.NewReader(data))
}

// encodeAVIF writes img as AVIF at quality q (1–100) and encoder speed
// (1–10).
func encodeAVIF(img image.Image, q, speed int) ([]byte, error) {
	wazeroReady()
	var buf bytes.Buffer
	err := avif.Encode(&buf, img, avif.Options{
		Quality:           q,
		QualityAlpha:      q,
		Speed:             speed,
		ChromaSubsampling: image.YCbCrSubsampleRatio420,
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
