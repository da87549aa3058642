package transform

import (
	"fmt"
	iofs "io/fs"
)

// formatOptions are the options of the format step.
type formatOptions struct {
	To         string `opt:"to" values:"jpeg|png|gif" doc:"the format to write (required)"`
	Quality    string `opt:"quality" doc:"JPEG quality from 1 to 100; default 85; only with to=jpeg"`
	Background string `opt:"background" doc:"color, RRGGBB in hex, that transparent pixels are flattened onto; default ffffff; only with to=jpeg"`
}

func init() {
	Register("format", "2", "re-encode images as JPEG, PNG or GIF, renaming the extension", Content, newFormat)
}

// formatStep re-encodes each image asset. An asset already in the target
// format is re-encoded too (its metadata is dropped and the quality option
// applies), and keeps its extension (".jpeg" stays); any other gets the
// target's extension (".jpg", ".png", ".gif").
type formatStep struct {
	to       string
	settings imageSettings
}

var _ Step = (*formatStep)(nil)

func newFormat(o formatOptions) (Step, error) {
	if o.To == "" {
		return nil, fmt.Errorf("%w: format needs to=jpeg, to=png or to=gif", ErrBadOption)
	}
	if o.To != "jpeg" && (o.Quality != "" || o.Background != "") {
		return nil, fmt.Errorf("%w: quality and background apply only with to=jpeg", ErrBadOption)
	}
	s := &formatStep{to: o.To, settings: defaultImageSettings}
	var err error
	if s.settings.quality, err = parseQuality(o.Quality); err != nil {
		return nil, err
	}
	if s.settings.background, err = parseColor(o.Background); err != nil {
		return nil, err
	}
	return s, nil
}

// Run re-encodes every asset; each must be an image.
func (s *formatStep) Run(ctx *Context, in []*Asset) ([]*Asset, error) {
	return EachAsset(func(_ *Context, a *Asset) ([]*Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		data, err := encodeImage(src.img, s.to, src, s.settings)
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
		return []*Asset{out}, nil
	}).Run(ctx, in)
}
