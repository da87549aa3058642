package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	iofs "io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/disintegration/imaging"
)

// The image steps (resize, crop, format, srcset) share the decoding and
// encoding rules of this file.
//
// Input: JPEG, PNG, GIF, WebP and AVIF (still images only), and BMP and
// TIFF. Before any pixel is decoded, the header is read (image.DecodeConfig,
// or the WebP and AVIF readers of webp.go and avif.go) and an image over
// MaxImagePixels or MaxImageSide is refused with an error wrapping
// ErrTooLarge, so that a small file claiming a huge size cannot exhaust
// memory. A JPEG's EXIF orientation is applied on decoding, since the
// output carries no metadata.
//
// Output: JPEG, PNG, GIF, WebP or AVIF, chosen by the asset's media type
// (or the format and srcset steps' options); an image of another type
// (BMP, TIFF) that a step has to re-encode is written as PNG and its
// extension becomes ".png". Encoding uses fixed settings and writes no
// metadata, so the same pixels give the same bytes:
//   - JPEG: baseline, 4:2:0, quality DefaultJPEGQuality unless a step's
//     quality option says otherwise; transparent pixels are flattened onto
//     a background (white unless the format step's background option says
//     otherwise).
//   - PNG: best compression; 8-bit RGB when every pixel is opaque, RGBA
//     otherwise.
//   - GIF: 256 colors with Floyd–Steinberg dithering onto the source's own
//     palette when the source was paletted, else onto the Plan 9 palette
//     whose last entry is replaced by transparency when the image has any;
//     pixels under half opacity become transparent, the others opaque.
//   - WebP: lossy at DefaultWebPQuality unless an option says otherwise,
//     lossless when asked or when the source is a lossless WebP; libwebp
//     method 4; alpha is kept.
//   - AVIF: 8-bit 4:2:0 at DefaultAVIFQuality and DefaultAVIFSpeed unless
//     an option says otherwise; alpha is kept.
//
// An image step that would leave an image unchanged (already small enough,
// a crop box covering the whole image) passes the original bytes through
// rather than re-encoding them, so no quality is lost. Every image asset an
// image step returns has Width and Height set to its displayed size.

// Size bounds of images that the image steps decode.
const (
	// MaxImagePixels is the largest width×height accepted: 50 megapixels,
	// about 200 MB once decoded to 8-bit RGBA.
	MaxImagePixels = 50_000_000
	// MaxImageSide is the largest width or height accepted, in pixels.
	MaxImageSide = 16384
)

// DefaultJPEGQuality is the JPEG quality (1–100) used when a step's quality
// option is not given.
const DefaultJPEGQuality = 85

// ErrBadImage reports a file that image steps cannot decode: malformed,
// truncated, or not an image at all.
var ErrBadImage = errors.New("images: malformed image")

// imageFormats are the formats that image steps can write, by media type.
var imageFormats = map[string]string{
	"image/jpeg": "jpeg",
	"image/png":  "png",
	"image/gif":  "gif",
	"image/webp": "webp",
	"image/avif": "avif",
}

// formatExt is the extension given to a file renamed to a format.
var formatExt = map[string]string{"jpeg": ".jpg", "png": ".png", "gif": ".gif", "webp": ".webp", "avif": ".avif"}

// formatValues is the values tag of options that name an output format.
const formatValues = "jpeg|png|gif|webp|avif"

// readableFormats names the formats that image steps decode, for the error
// about an unknown one.
const readableFormats = "JPEG, PNG, GIF, WebP, AVIF, BMP or TIFF"

// anchors maps the anchor option's words to imaging's anchors.
var anchors = map[string]imaging.Anchor{
	"":            imaging.Center,
	"center":      imaging.Center,
	"top":         imaging.Top,
	"bottom":      imaging.Bottom,
	"left":        imaging.Left,
	"right":       imaging.Right,
	"topleft":     imaging.TopLeft,
	"topright":    imaging.TopRight,
	"bottomleft":  imaging.BottomLeft,
	"bottomright": imaging.BottomRight,
}

// filters maps the filter option's words to imaging's resampling filters.
var filters = map[string]imaging.ResampleFilter{
	"":           imaging.Lanczos,
	"lanczos":    imaging.Lanczos,
	"catmullrom": imaging.CatmullRom,
	"linear":     imaging.Linear,
	"box":        imaging.Box,
	"nearest":    imaging.NearestNeighbor,
}

// A decodedImage is an asset's pixels with what encoding needs to know of
// the original.
type decodedImage struct {
	img     image.Image
	format  string        // as registered with package image: "jpeg", "png", …
	palette color.Palette // the source palette, when it was paletted
	// lossless is set for a lossless WebP, which a WebP output keeps so.
	lossless bool
}

// checkImage reads the header of a's image and enforces the size bounds.
// Errors are *fs.PathError with Op "decode" wrapping ErrBadImage or
// ErrTooLarge.
func checkImage(a *transform.Asset) (image.Config, string, error) {
	fail := func(err error) (image.Config, string, error) {
		return image.Config{}, "", &iofs.PathError{Op: "decode", Path: a.Path, Err: err}
	}
	if t := a.MediaTypeOf(); t == "image/svg+xml" {
		return fail(fmt.Errorf("%w: SVG is a vector format; image steps take raster images", ErrBadImage))
	}
	cfg, format, err := decodeConfig(a.Data)
	switch {
	case errors.Is(err, image.ErrFormat):
		return fail(fmt.Errorf("%w: not a %s file", ErrBadImage, readableFormats))
	case err != nil:
		return fail(fmt.Errorf("%w: %v", ErrBadImage, err))
	case cfg.Width <= 0 || cfg.Height <= 0:
		return fail(fmt.Errorf("%w: %s of %d×%d pixels has no pixels", ErrBadImage, format, cfg.Width, cfg.Height))
	case cfg.Width > MaxImageSide || cfg.Height > MaxImageSide || int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels:
		return fail(fmt.Errorf("%w: %s of %d×%d pixels is over the limit of %d pixels and %d per side",
			transform.ErrTooLarge, format, cfg.Width, cfg.Height, MaxImagePixels, MaxImageSide))
	}
	switch {
	case format == "gif":
		if n := gifFrames(a.Data); n > 1 {
			return fail(fmt.Errorf("%w: animated GIF of %d frames; image steps take still images", errors.ErrUnsupported, n))
		}
	case format == "webp" && webpAnimated(a.Data):
		return fail(fmt.Errorf("%w: animated WebP; image steps take still images", errors.ErrUnsupported))
	case format == "avif" && avifSequence(a.Data):
		return fail(fmt.Errorf("%w: AVIF image sequence; image steps take still images", errors.ErrUnsupported))
	}
	return cfg, format, nil
}

// decodeConfig reads the size and format of an image from its header.
// WebP and AVIF go to their own readers (webp.go, avif.go) by their
// signature, so that which decoder package image.DecodeConfig would pick
// for them never depends on registration order; the others go through
// image.DecodeConfig.
func decodeConfig(data []byte) (image.Config, string, error) {
	switch {
	case isWebP(data):
		cfg, err := decodeWebPConfig(data)
		return cfg, "webp", err
	case isAVIF(data):
		cfg, err := decodeAVIFConfig(data)
		return cfg, "avif", err
	}
	return image.DecodeConfig(bytes.NewReader(data))
}

// decodeImage checks a's image with checkImage, then decodes it and
// applies its EXIF orientation. Errors are *fs.PathError with Op "decode".
func decodeImage(a *transform.Asset) (_ *decodedImage, err error) {
	_, format, err := checkImage(a)
	if err != nil {
		return nil, err
	}
	defer func() {
		// A decoder that panics on hostile input must not take the whole
		// build down with an unnamed file.
		if p := recover(); p != nil {
			err = &iofs.PathError{Op: "decode", Path: a.Path, Err: fmt.Errorf("%w: %s decoder failed: %v", ErrBadImage, format, p)}
		}
	}()
	var img image.Image
	switch format {
	case "webp":
		img, err = decodeWebP(a.Data)
	case "avif":
		img, err = decodeAVIF(a.Data)
	default:
		img, err = imaging.Decode(bytes.NewReader(a.Data), imaging.AutoOrientation(true))
	}
	if err != nil {
		return nil, &iofs.PathError{Op: "decode", Path: a.Path, Err: fmt.Errorf("%w: %v", ErrBadImage, err)}
	}
	d := &decodedImage{img: img, format: format, lossless: format == "webp" && webpIsLossless(a.Data)}
	if p, ok := img.(*image.Paletted); ok {
		d.palette = p.Palette
	}
	return d, nil
}

// gifFrames counts the image descriptors of a GIF by walking its blocks,
// without decoding any pixels. It stops at the trailer, the end of data or
// the first malformed block (the decoder reports that one).
func gifFrames(data []byte) int {
	const header = 13 // signature, version and logical screen descriptor
	if len(data) < header {
		return 0
	}
	i := header
	if flags := data[10]; flags&0x80 != 0 {
		i += 3 << (flags&7 + 1)
	}
	// skipSubBlocks moves past a run of sub-blocks ending in a zero length.
	skipSubBlocks := func() bool {
		for i < len(data) {
			n := int(data[i])
			i += 1 + n
			if n == 0 {
				return true
			}
		}
		return false
	}
	frames := 0
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: introducer, label, sub-blocks
			i += 2
			if !skipSubBlocks() {
				return frames
			}
		case 0x2c: // image descriptor, optional local color table, LZW data
			frames++
			if i+10 > len(data) {
				return frames
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			i++ // LZW minimum code size
			if !skipSubBlocks() {
				return frames
			}
		default: // the trailer, or something the decoder will reject
			return frames
		}
	}
	return frames
}

// imageSettings are the encoding settings of an image step.
type imageSettings struct {
	quality      int         // JPEG quality 1–100
	background   color.NRGBA // JPEG background for transparent pixels
	webpQuality  int         // WebP quality 1–100
	webpLossless bool        // WebP lossless, webpQuality then being the effort
	avifQuality  int         // AVIF quality 1–100
	avifSpeed    int         // AVIF encoder speed 1–10
}

// defaultImageSettings are the settings when no option changes them.
var defaultImageSettings = imageSettings{
	quality:     DefaultJPEGQuality,
	background:  color.NRGBA{0xff, 0xff, 0xff, 0xff},
	webpQuality: DefaultWebPQuality,
	avifQuality: DefaultAVIFQuality,
	avifSpeed:   DefaultAVIFSpeed,
}

// encodeOptions are the encoding options of the image steps that write an
// image in its own format, whichever that is (resize, crop, srcset). An
// option for a format the step does not write is accepted and unused, so
// that one rule can serve sources of several formats.
type encodeOptions struct {
	Quality      string `opt:"quality" doc:"JPEG quality from 1 to 100; default 85"`
	WebPQuality  string `opt:"webp-quality" doc:"WebP quality from 1 to 100; default 75"`
	WebPLossless bool   `opt:"webp-lossless" doc:"write WebP losslessly, webp-quality then being the effort; default false, lossless only for a lossless WebP source"`
	AVIFQuality  string `opt:"avif-quality" doc:"AVIF quality from 1 to 100, 100 being lossless; default 60"`
	AVIFSpeed    string `opt:"avif-speed" doc:"AVIF encoder speed from 1 (slowest, smallest) to 10; default 8"`
}

// settings returns the encoding settings that o gives. Errors wrap
// ErrBadOption.
func (o encodeOptions) settings() (imageSettings, error) {
	s := defaultImageSettings
	var err error
	if s.quality, err = parseRange("quality", o.Quality, DefaultJPEGQuality, 1, 100); err != nil {
		return s, err
	}
	if s.webpQuality, err = parseRange("webp-quality", o.WebPQuality, DefaultWebPQuality, 1, 100); err != nil {
		return s, err
	}
	s.webpLossless = o.WebPLossless
	if s.avifQuality, err = parseRange("avif-quality", o.AVIFQuality, DefaultAVIFQuality, 1, 100); err != nil {
		return s, err
	}
	if s.avifSpeed, err = parseRange("avif-speed", o.AVIFSpeed, DefaultAVIFSpeed, 1, 10); err != nil {
		return s, err
	}
	return s, nil
}

// outputFormat returns the format an image step writes for a, keeping a's
// own format when it can be written, and the path the result gets.
func outputFormat(a *transform.Asset) (format, name string) {
	if f, ok := imageFormats[a.MediaTypeOf()]; ok {
		return f, a.Path
	}
	return "png", replaceExt(a.Path, formatExt["png"])
}

// replaceExt replaces the extension of a slash-separated path (or appends
// one if there is none).
func replaceExt(p, ext string) string {
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return p[:len(p)-len(base)+i] + ext
	}
	return p + ext
}

// encodeImage writes img in format ("jpeg", "png", "gif", "webp" or
// "avif") with fixed settings. src is the decoded original, whose palette
// a GIF reuses. A WebP or AVIF encode returns ctx's error as soon as ctx
// is done (see wasmEncode).
func encodeImage(ctx context.Context, img image.Image, format string, src *decodedImage, s imageSettings) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpeg":
		err = jpeg.Encode(&buf, flatten(img, s.background), &jpeg.Options{Quality: s.quality})
	case "png":
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		err = enc.Encode(&buf, eightBit(img))
	case "gif":
		err = gif.Encode(&buf, quantize(img, src), &gif.Options{NumColors: 256})
	case "webp":
		lossless := s.webpLossless || src != nil && src.lossless
		data, err := wasmEncode(ctx, func() ([]byte, error) { return encodeWebP(img, s.webpQuality, lossless) })
		if err != nil {
			return nil, fmt.Errorf("encode webp: %w", err)
		}
		return data, nil
	case "avif":
		data, err := wasmEncode(ctx, func() ([]byte, error) { return encodeAVIF(img, s.avifQuality, s.avifSpeed) })
		if err != nil {
			return nil, fmt.Errorf("encode avif: %w", err)
		}
		return data, nil
	default:
		return nil, fmt.Errorf("%w: cannot write image format %q", transform.ErrBadOption, format)
	}
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// eightBit returns img in a color model that image/png writes with 8-bit
// channels when img's own model has 8-bit samples that png would widen to
// 16 bits (YCbCr and CMYK, as JPEGs decode): the samples are converted to
// RGBA once, as a viewer would. Other images are returned as they are, so
// 16-bit sources keep their precision.
func eightBit(img image.Image) image.Image {
	switch img.ColorModel() {
	case color.YCbCrModel, color.NYCbCrAModel, color.CMYKModel:
	default:
		return img
	}
	b := img.Bounds()
	dst := image.NewNRGBA(b)
	draw.Draw(dst, b, img, b.Min, draw.Src)
	return dst
}

// flatten draws img over an opaque background, as JPEG has no alpha.
// Opaque pixels come out unchanged.
func flatten(img image.Image, bg color.NRGBA) *image.RGBA {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Over)
	return dst
}

// quantize reduces img to a palette for GIF output (see the rules at the
// top of this file). GIF transparency is all or nothing, so when img has
// any, pixels under half opacity become the transparent entry and the rest
// are dithered as opaque onto the palette's opaque entries; dithering the
// alpha itself would speckle every soft edge.
func quantize(img image.Image, src *decodedImage) *image.Paletted {
	b := img.Bounds()
	r := image.Rect(0, 0, b.Dx(), b.Dy())
	alpha := hasAlpha(img)
	pal := palette.Plan9
	switch {
	case src != nil && len(src.palette) > 0:
		pal = src.palette
	case alpha:
		pal = append(append(color.Palette(nil), palette.Plan9[:255]...), color.NRGBA{})
	}
	transparent, opaque := -1, color.Palette(nil)
	var index []uint8 // of each opaque entry in pal
	for i, c := range pal {
		switch _, _, _, a := c.RGBA(); {
		case a == 0 && transparent < 0:
			transparent = i
		case a == 0xffff:
			opaque, index = append(opaque, c), append(index, uint8(i))
		}
	}
	if !alpha || transparent < 0 || len(opaque) == 0 {
		dst := image.NewPaletted(r, pal)
		draw.FloydSteinberg.Draw(dst, r, img, b.Min)
		return dst
	}
	solid := image.NewNRGBA(r)
	draw.Draw(solid, r, img, b.Min, draw.Src)
	first := color.NRGBAModel.Convert(opaque[0]).(color.NRGBA)
	hidden := make([]bool, r.Dx()*r.Dy())
	for i := range hidden {
		p := solid.Pix[4*i : 4*i+4 : 4*i+4]
		if p[3] < 0x80 {
			// A hidden pixel takes an exact palette color, so that it
			// passes no error of its own to its neighbors.
			hidden[i] = true
			p[0], p[1], p[2] = first.R, first.G, first.B
		}
		p[3] = 0xff
	}
	dst := image.NewPaletted(r, opaque)
	draw.FloydSteinberg.Draw(dst, r, solid, image.Point{})
	for i, v := range dst.Pix {
		if hidden[i] {
			dst.Pix[i] = uint8(transparent)
		} else {
			dst.Pix[i] = index[v]
		}
	}
	dst.Palette = pal
	return dst
}

// hasAlpha reports whether any pixel of img is not fully opaque.
func hasAlpha(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return true
			}
		}
	}
	return false
}

// imageResult returns a copy of a holding img encoded in a's output format
// (see outputFormat), with its size set and no stale encodings.
func imageResult(ctx context.Context, a *transform.Asset, img image.Image, src *decodedImage, s imageSettings) (*transform.Asset, error) {
	format, name := outputFormat(a)
	data, err := encodeImage(ctx, img, format, src, s)
	if err != nil {
		return nil, &iofs.PathError{Op: "encode", Path: a.Path, Err: err}
	}
	out := a.Clone()
	if name != a.Path {
		out.Path, out.Type = name, ""
	}
	if out.Source == "" {
		out.Source = a.Path
	}
	out.Data = data
	out.Width, out.Height = img.Bounds().Dx(), img.Bounds().Dy()
	out.Encodings = nil
	return out, nil
}

// passImage returns a copy of a with its bytes unchanged and its size set.
func passImage(a *transform.Asset, src *decodedImage) *transform.Asset {
	out := a.Clone()
	out.Width, out.Height = src.img.Bounds().Dx(), src.img.Bounds().Dy()
	return out
}

// parseQuality parses a JPEG quality option: "" is DefaultJPEGQuality, else
// a whole number from 1 to 100. (The option is a string so that quality=0
// is an error rather than the default.)
func parseQuality(s string) (int, error) {
	return parseRange("quality", s, DefaultJPEGQuality, 1, 100)
}

// parseRange parses the option name: "" is def, else a whole number from lo
// to hi. Errors wrap ErrBadOption.
func parseRange(name, s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%w: %s %q is not a whole number from %d to %d", transform.ErrBadOption, name, s, lo, hi)
	}
	return v, nil
}

// parseColor parses a background option: "" is white, else RRGGBB in hex
// (an optional leading "#" is accepted).
func parseColor(s string) (color.NRGBA, error) {
	if s == "" {
		return defaultImageSettings.background, nil
	}
	h := strings.TrimPrefix(s, "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil || len(h) != 6 {
		return color.NRGBA{}, fmt.Errorf("%w: background %q is not a color written RRGGBB in hex", transform.ErrBadOption, s)
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}, nil
}

// checkSide rejects a negative size option or one over MaxImageSide.
func checkSide(name string, v int) error {
	if v < 0 || v > MaxImageSide {
		return fmt.Errorf("%w: %s %d is not from 0 to %d", transform.ErrBadOption, name, v, MaxImageSide)
	}
	return nil
}

// checkOutputSize refuses to make an image over the size bounds, which
// upscaling a very narrow or very flat image could otherwise do. The error
// is a *fs.PathError with Op "resize" wrapping ErrTooLarge.
func checkOutputSize(a *transform.Asset, w, h int) error {
	if w > MaxImageSide || h > MaxImageSide || int64(w)*int64(h) > MaxImagePixels {
		return &iofs.PathError{Op: "resize", Path: a.Path, Err: fmt.Errorf("%w: the result would be %d×%d pixels, over the limit of %d pixels and %d per side",
			transform.ErrTooLarge, w, h, MaxImagePixels, MaxImageSide)}
	}
	return nil
}
