package images

import (
	"fmt"
	"image"
	iofs "io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/disintegration/imaging"
)

// cropOptions are the options of the crop step. A crop never scales; it
// cuts a box out of the image in one of three ways:
//
//	crop:width=400,height=300,anchor=top   a 400×300 box placed by anchor
//	crop:x=10,y=20,width=400,height=300    an explicit box
//	crop:aspect=16:9,anchor=center         the largest 16:9 box, placed by anchor
//
// Placed by anchor, a side of 0 is the whole side and a box larger than the
// image is clipped to it. An explicit box must lie inside the image; a side
// of 0 there reaches the right or bottom edge.
type cropOptions struct {
	Width  int    `opt:"width" doc:"width of the box in pixels; 0 is the whole width (or up to the right edge from x)"`
	Height int    `opt:"height" doc:"height of the box in pixels; 0 is the whole height (or down to the bottom edge from y)"`
	X      string `opt:"x" doc:"left edge of an explicit box in pixels; giving x or y places the box instead of anchor"`
	Y      string `opt:"y" doc:"top edge of an explicit box in pixels; giving x or y places the box instead of anchor"`
	Aspect string `opt:"aspect" doc:"cut the largest box of this aspect ratio, written W:H (16:9, 1.91:1), instead of width and height"`
	Anchor string `opt:"anchor" values:"center|top|bottom|left|right|topleft|topright|bottomleft|bottomright" doc:"where a box without x and y sits; default center"`
	encodeOptions
}

func init() {
	transform.Register("crop", "2", "cut a box out of images, without scaling", transform.Content, newCrop)
}

// cropStep cuts a box out of each image asset.
type cropStep struct {
	width, height int
	explicit      bool // the box is at x, y rather than placed by anchor
	x, y          int
	aspect        float64 // width/height of the box, or 0
	anchor        imaging.Anchor
	settings      imageSettings
}

var _ transform.Step = (*cropStep)(nil)

func newCrop(o cropOptions) (transform.Step, error) {
	s := &cropStep{width: o.Width, height: o.Height, anchor: anchors[o.Anchor], settings: defaultImageSettings}
	if err := checkSide("width", o.Width); err != nil {
		return nil, err
	}
	if err := checkSide("height", o.Height); err != nil {
		return nil, err
	}
	var err error
	if s.x, err = parseEdge("x", o.X); err != nil {
		return nil, err
	}
	if s.y, err = parseEdge("y", o.Y); err != nil {
		return nil, err
	}
	s.explicit = o.X != "" || o.Y != ""
	switch {
	case s.explicit && o.Anchor != "":
		return nil, fmt.Errorf("%w: crop takes x and y or anchor, not both", transform.ErrBadOption)
	case o.Aspect != "" && (s.explicit || o.Width != 0 || o.Height != 0):
		return nil, fmt.Errorf("%w: crop takes aspect or a box (width, height, x, y), not both", transform.ErrBadOption)
	case o.Aspect == "" && !s.explicit && o.Width == 0 && o.Height == 0:
		return nil, fmt.Errorf("%w: crop needs width, height, x and y, or aspect", transform.ErrBadOption)
	}
	if o.Aspect != "" {
		if s.aspect, err = parseAspect(o.Aspect); err != nil {
			return nil, err
		}
	}
	if s.settings, err = o.settings(); err != nil {
		return nil, err
	}
	return s, nil
}

// Run crops every asset; each must be an image.
func (s *cropStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		b := src.img.Bounds()
		rect, err := s.rect(b.Dx(), b.Dy())
		if err != nil {
			return nil, &iofs.PathError{Op: "crop", Path: a.Path, Err: err}
		}
		if rect == image.Rect(0, 0, b.Dx(), b.Dy()) {
			return []*transform.Asset{passImage(a, src)}, nil
		}
		dst := imaging.Crop(src.img, rect.Add(b.Min))
		out, err := imageResult(ctx, a, dst, src, s.settings)
		if err != nil {
			return nil, err
		}
		return []*transform.Asset{out}, nil
	}).Run(ctx, in)
}

// rect returns the box to keep, relative to the top-left corner of an
// image of w×h pixels.
func (s *cropStep) rect(w, h int) (image.Rectangle, error) {
	if s.explicit {
		bw, bh := s.width, s.height
		if bw == 0 {
			bw = w - s.x
		}
		if bh == 0 {
			bh = h - s.y
		}
		r := image.Rect(s.x, s.y, s.x+bw, s.y+bh)
		if bw <= 0 || bh <= 0 || !r.In(image.Rect(0, 0, w, h)) {
			return image.Rectangle{}, fmt.Errorf("%w: box x=%d,y=%d,width=%d,height=%d does not lie inside the %d×%d image",
				transform.ErrBadOption, s.x, s.y, s.width, s.height, w, h)
		}
		return r, nil
	}
	bw, bh := w, h
	switch {
	case s.aspect > 0 && float64(w)/float64(h) > s.aspect:
		bw = min(w, max(1, int(math.Round(float64(h)*s.aspect))))
	case s.aspect > 0:
		bh = min(h, max(1, int(math.Round(float64(w)/s.aspect))))
	default:
		if s.width > 0 {
			bw = min(w, s.width)
		}
		if s.height > 0 {
			bh = min(h, s.height)
		}
	}
	return anchorRect(w, h, bw, bh, s.anchor), nil
}

// anchorRect places a bw×bh box inside a w×h image at the anchor, as
// imaging.CropAnchor does.
func anchorRect(w, h, bw, bh int, anchor imaging.Anchor) image.Rectangle {
	var x, y int
	switch anchor {
	case imaging.TopLeft, imaging.Left, imaging.BottomLeft:
		x = 0
	case imaging.TopRight, imaging.Right, imaging.BottomRight:
		x = w - bw
	default:
		x = (w - bw) / 2
	}
	switch anchor {
	case imaging.TopLeft, imaging.Top, imaging.TopRight:
		y = 0
	case imaging.BottomLeft, imaging.Bottom, imaging.BottomRight:
		y = h - bh
	default:
		y = (h - bh) / 2
	}
	return image.Rect(x, y, x+bw, y+bh)
}

// parseEdge parses the x or y option: "" is 0, else a whole number from 0
// to MaxImageSide.
func parseEdge(name, v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > MaxImageSide {
		return 0, fmt.Errorf("%w: %s %q is not a whole number from 0 to %d", transform.ErrBadOption, name, v, MaxImageSide)
	}
	return n, nil
}

// parseAspect parses "W:H" with positive numbers into W/H.
func parseAspect(v string) (float64, error) {
	ws, hs, ok := strings.Cut(v, ":")
	w, errW := strconv.ParseFloat(ws, 64)
	h, errH := strconv.ParseFloat(hs, 64)
	if !ok || errW != nil || errH != nil || !(w > 0 && h > 0) || math.IsInf(w/h, 0) || w/h == 0 {
		return 0, fmt.Errorf("%w: aspect %q is not W:H with two positive numbers, such as 16:9", transform.ErrBadOption, v)
	}
	return w / h, nil
}
