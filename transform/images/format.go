package images

import (
	"fmt"
	iofs "io/fs"

	"github.com/bakefs/bakefs/transform"
)

// formatOptions are the options of the format step.
type formatOptions struct {
	To         string `opt:"to" values:"jpeg|png|gif|webp|avif" doc:"the format to write (required)"`
	Quality    string `opt:"quality" doc:"quality from 1 to 100 of to=jpeg (default 85), to=webp (default 75; the effort with lossless) or to=avif (default 60; 100 is lossless)"`
	Lossless   bool   `opt:"lossless" doc:"write WebP losslessly; default false, lossless only for a lossless WebP source; only with to=webp"`
	Speed      string `opt:"speed" doc:"AVIF encoder speed from 1 (slowest, smallest) to 10; default 8; only with to=avif"`
	Background string `opt:"background" doc:"color, RRGGBB in hex, that transparent pixels are flattened onto; default ffffff; only with to=jpeg"`
}

func init() {
	transform.Register("format", "2", "re-encode images as JPEG, PNG, GIF, WebP or AVIF, renaming the extension", transform.Content, newFormat)
}

// formatStep re-encodes each image asset. An asset already in the target
// format is re-encoded too (its metadata is dropped and the quality option
// applies), and keeps its extension (".jpeg" stays); any other gets the
// target's extension (".jpg", ".png", ".gif", ".webp", ".avif").
type formatStep struct {
	to       string
	settings imageSettings
}

var _ transform.Step = (*formatStep)(nil)

func newFormat(o formatOptions) (transform.Step, error) {
	switch {
	case o.To == "":
		return nil, fmt.Errorf("%w: format needs to=%s", transform.ErrBadOption, formatValues)
	case o.Quality != "" && o.To != "jpeg" && o.To != "webp" && o.To != "avif":
		return nil, fmt.Errorf("%w: quality applies only with to=jpeg, to=webp or to=avif", transform.ErrBadOption)
	case o.Background != "" && o.To != "jpeg":
		return nil, fmt.Errorf("%w: background applies only with to=jpeg", transform.ErrBadOption)
	case o.Lossless && o.To != "webp":
		return nil, fmt.Errorf("%w: lossless applies only with to=webp", transform.ErrBadOption)
	case o.Speed != "" && o.To != "avif":
		return nil, fmt.Errorf("%w: speed applies only with to=avif", transform.ErrBadOption)
	}
	s := &formatStep{to: o.To, settings: defaultImageSettings}
	var err error
	switch o.To {
	case "jpeg":
		s.settings.quality, err = parseRange("quality", o.Quality, DefaultJPEGQuality, 1, 100)
	case "webp":
		s.settings.webpQuality, err = parseRange("quality", o.Quality, DefaultWebPQuality, 1, 100)
	case "avif":
		s.settings.avifQuality, err = parseRange("quality", o.Quality, DefaultAVIFQuality, 1, 100)
	}
	if err != nil {
		return nil, err
	}
	s.settings.webpLossless = o.Lossless
	if s.settings.avifSpeed, err = parseRange("speed", o.Speed, DefaultAVIFSpeed, 1, 10); err != nil {
		return nil, err
	}
	if s.settings.background, err = parseColor(o.Background); err != nil {
		return nil, err
	}
	return s, nil
}

// Run re-encodes every asset; each must be an image.
func (s *formatStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	if len(in) > 0 {
		warmEncoders(s.to)
	}
	return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		data, err := encodeImage(ctx, src.img, s.to, src, s.settings)
		if err != nil {
			return nil, &iofs.PathError{Op: "encode", Path: a.Path, Err: err}
		}
		out := a.Clone()
		if imageFormats[a.MediaTypeOf()] != s.to {
			out.Path, out.Type = replaceExt(a.Path, formatExt[s.to]), ""
		}
		if out.Source == "" {
			out.Source = a.Path
		}
		out.Data = data
		out.Width, out.Height = src.img.Bounds().Dx(), src.img.Bounds().Dy()
		out.Encodings = nil
		return []*transform.Asset{out}, nil
	}).Run(ctx, in)
}
