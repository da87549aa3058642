package transform

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/disintegration/imaging"
)

// srcsetOptions are the options of the srcset step.
type srcsetOptions struct {
	Widths       []int  `opt:"widths" doc:"the widths to make, in pixels (required), such as 400+800+1200"`
	Upscale      bool   `opt:"upscale" doc:"also make widths larger than the original, enlarging it; default false, skip them"`
	KeepOriginal bool   `opt:"keep-original" doc:"also pass the original through unchanged; default false, drop it"`
	Filter       string `opt:"filter" values:"lanczos|catmullrom|linear|box|nearest" doc:"resampling filter; default lanczos"`
	Quality      string `opt:"quality" doc:"JPEG quality from 1 to 100; default 85"`
}

func init() {
	Register("srcset", "1", "make one image per width (hero-400w.jpg, hero-800w.jpg…) for <img srcset>", Content, newSrcset)
}

// srcsetStep makes, from each image asset "dir/name.ext", one asset
// "dir/name-<W>w.ext" per width W, ascending, each keeping the aspect
// ratio and having Source set to the original's source. Widths larger than
// the original are skipped unless upscale is set; if that skips them all,
// one asset at the original width is made, so the set is never empty. A
// width equal to the original's carries the original bytes. With
// keep-original the original comes first, unchanged.
type srcsetStep struct {
	widths       []int // ascending, distinct
	upscale      bool
	keepOriginal bool
	filter       imaging.ResampleFilter
	settings     imageSettings
}

var _ Step = (*srcsetStep)(nil)

func newSrcset(o srcsetOptions) (Step, error) {
	if len(o.Widths) == 0 {
		return nil, fmt.Errorf("%w: srcset needs widths, such as widths=400+800", ErrBadOption)
	}
	widths := slices.Clone(o.Widths)
	slices.Sort(widths)
	for i, w := range widths {
		if w < 1 || w > MaxImageSide {
			return nil, fmt.Errorf("%w: width %d is not from 1 to %d", ErrBadOption, w, MaxImageSide)
		}
		if i > 0 && widths[i-1] == w {
			return nil, fmt.Errorf("%w: width %d is given twice", ErrBadOption, w)
		}
	}
	s := &srcsetStep{widths: widths, upscale: o.Upscale, keepOriginal: o.KeepOriginal, filter: filters[o.Filter], settings: defaultImageSettings}
	var err error
	if s.settings.quality, err = parseQuality(o.Quality); err != nil {
		return nil, err
	}
	return s, nil
}

// Run makes the widths of every asset; each must be an image.
func (s *srcsetStep) Run(ctx *Context, in []*Asset) ([]*Asset, error) {
	return EachAsset(func(ctx *Context, a *Asset) ([]*Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		orig := passImage(a, src)
		var out []*Asset
		if s.keepOriginal {
			out = append(out, orig)
		}
		srcW, srcH := orig.Width, orig.Height
		widths := s.widths
		if !s.upscale {
			widths = slices.DeleteFunc(slices.Clone(widths), func(w int) bool { return w > srcW })
			if len(widths) == 0 {
				widths = []int{srcW}
			}
		}
		source := a.Source
		if source == "" {
			source = a.Path
		}
		for _, w := range widths {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var v *Asset
			if w == srcW {
				v = orig.Clone()
			} else {
				h := max(1, int(math.Round(float64(srcH)*float64(w)/float64(srcW))))
				if err := checkOutputSize(a, w, h); err != nil {
					return nil, err
				}
				if v, err = imageResult(a, imaging.Resize(src.img, w, h, s.filter), src, s.settings); err != nil {
					return nil, err
				}
			}
			v.Path = widthName(v.Path, w)
			v.Source = source
			v.Encodings = nil
			out = append(out, v)
		}
		return out, nil
	}).Run(ctx, in)
}

// widthName inserts "-<w>w" before the extension of p.
func widthName(p string, w int) string {
	base := path.Base(p)
	stem, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem, ext = base[:i], base[i:]
	}
	return p[:len(p)-len(base)] + stem + "-" + strconv.Itoa(w) + "w" + ext
}
