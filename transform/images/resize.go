package images

import (
	"fmt"
	"image"
	"math"

	"github.com/bakefs/bakefs/transform"

	"github.com/disintegration/imaging"
)

// resizeOptions are the options of the resize step.
type resizeOptions struct {
	Width   int    `opt:"width" doc:"width of the box in pixels; 0 follows the height, keeping the aspect ratio"`
	Height  int    `opt:"height" doc:"height of the box in pixels; 0 follows the width, keeping the aspect ratio"`
	Fit     string `opt:"fit" values:"contain|cover|fill" doc:"contain (default): fit inside the box keeping the aspect ratio; cover: fill the box, cropping at anchor; fill: stretch to the box"`
	Anchor  string `opt:"anchor" values:"center|top|bottom|left|right|topleft|topright|bottomleft|bottomright" doc:"what fit=cover keeps when it crops; default center"`
	Filter  string `opt:"filter" values:"lanczos|catmullrom|linear|box|nearest" doc:"resampling filter; default lanczos"`
	Upscale bool   `opt:"upscale" doc:"enlarge images smaller than the box; default false, never enlarge"`
	encodeOptions
}

func init() {
	transform.Register("resize", "2", "scale images to a width, a height or a box", transform.Content, newResize)
}

// resizeStep scales each image asset; see resizeStep.box for the sizes.
type resizeStep struct {
	width, height int
	fit           string
	anchor        imaging.Anchor
	filter        imaging.ResampleFilter
	upscale       bool
	settings      imageSettings
}

var _ transform.Step = (*resizeStep)(nil)

func newResize(o resizeOptions) (transform.Step, error) {
	if err := checkSide("width", o.Width); err != nil {
		return nil, err
	}
	if err := checkSide("height", o.Height); err != nil {
		return nil, err
	}
	if o.Width == 0 && o.Height == 0 {
		return nil, fmt.Errorf("%w: resize needs a width, a height or both", transform.ErrBadOption)
	}
	if o.Fit == "" {
		o.Fit = "contain"
	}
	if o.Fit != "contain" && (o.Width == 0 || o.Height == 0) {
		return nil, fmt.Errorf("%w: fit=%s needs both width and height", transform.ErrBadOption, o.Fit)
	}
	if o.Anchor != "" && o.Fit != "cover" {
		return nil, fmt.Errorf("%w: anchor applies only with fit=cover", transform.ErrBadOption)
	}
	s, err := o.settings()
	if err != nil {
		return nil, err
	}
	return &resizeStep{
		width: o.Width, height: o.Height, fit: o.Fit,
		anchor: anchors[o.Anchor], filter: filters[o.Filter],
		upscale: o.Upscale, settings: s,
	}, nil
}

// Run resizes every asset; each must be an image.
func (s *resizeStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		b := src.img.Bounds()
		w, h := s.box(b.Dx(), b.Dy())
		if w == b.Dx() && h == b.Dy() {
			return []*transform.Asset{passImage(a, src)}, nil
		}
		if err := checkOutputSize(a, w, h); err != nil {
			return nil, err
		}
		var dst image.Image
		if s.fit == "cover" {
			dst = imaging.Fill(src.img, w, h, s.anchor, s.filter)
		} else {
			dst = imaging.Resize(src.img, w, h, s.filter)
		}
		out, err := imageResult(ctx, a, dst, src, s.settings)
		if err != nil {
			return nil, err
		}
		return []*transform.Asset{out}, nil
	}).Run(ctx, in)
}

// box returns the output size for a source of srcW×srcH pixels.
//
// contain scales by the smaller of width/srcW and height/srcH (a missing
// side does not limit), so the image fits inside the box. cover gives
// exactly width×height, scaling by the larger ratio and cropping the
// overflow at the anchor; fill gives exactly width×height, stretching.
//
// Without upscale no side is enlarged: contain stops at scale 1; cover and
// fill shrink the box, keeping its aspect ratio, until it fits inside the
// source, so cover crops without scaling and fill only squeezes.
func (s *resizeStep) box(srcW, srcH int) (w, h int) {
	fw, fh := float64(s.width)/float64(srcW), float64(s.height)/float64(srcH)
	if s.fit == "contain" {
		scale := math.Inf(1)
		if s.width > 0 {
			scale = fw
		}
		if s.height > 0 {
			scale = min(scale, fh)
		}
		if !s.upscale {
			scale = min(scale, 1)
		}
		return scaleSide(srcW, scale, s.width), scaleSide(srcH, scale, s.height)
	}
	w, h = s.width, s.height
	if k := max(fw, fh); k > 1 && !s.upscale {
		w = min(srcW, max(1, int(math.Round(float64(w)/k))))
		h = min(srcH, max(1, int(math.Round(float64(h)/k))))
	}
	return w, h
}

// scaleSide scales a side, giving exactly want when the scale came from
// that side, so that rounding cannot miss the asked size by one.
func scaleSide(side int, scale float64, want int) int {
	if want > 0 && scale == float64(want)/float64(side) {
		return want
	}
	return max(1, int(math.Round(float64(side)*scale)))
}
