package images

import (
	"fmt"
	"image"
	iofs "io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/bakefs/bakefs/transform"

	"github.com/disintegration/imaging"
)

// srcsetOptions are the options of the srcset step.
type srcsetOptions struct {
	Widths       []int    `opt:"widths" doc:"the widths to make, in pixels (required), such as 400+800+1200"`
	Formats      []string `opt:"formats" values:"jpeg|png|gif|webp|avif" doc:"the formats to write each width in, such as avif+webp+jpeg; default the source's own (PNG for BMP and TIFF)"`
	Upscale      bool     `opt:"upscale" doc:"also make widths larger than the original, enlarging it; default false, skip them"`
	KeepOriginal bool     `opt:"keep-original" doc:"also pass the original through unchanged; default false, drop it"`
	Filter       string   `opt:"filter" values:"lanczos|catmullrom|linear|box|nearest" doc:"resampling filter; default lanczos"`
	encodeOptions
}

func init() {
	transform.Register("srcset", "2", "make one image per width and format (hero-400w.avif, hero-400w.jpg…) for <img srcset> and <picture>", transform.Content, newSrcset)
}

// srcsetStep makes, from each image asset "dir/name.ext", one asset
// "dir/name-<W>w.<ext>" per width W and format, by ascending width and, for
// each width, in the order of the formats option; each keeps the aspect
// ratio and has Source set to the original's source, which is how the
// runtime's srcset and picture template functions find them. A format other
// than the source's own gets that format's extension (".avif", ".webp",
// ".jpg", ".png", ".gif"); without the formats option each width is written
// in the source's own format (PNG for BMP and TIFF). Widths larger than the
// original are skipped unless upscale is set; if that skips them all, the
// original width is made, so the set is never empty. A width equal to the
// original's, in the source's own format, carries the original bytes. With
// keep-original the original comes first, unchanged.
type srcsetStep struct {
	widths       []int    // ascending, distinct
	formats      []string // distinct; nil for the source's own
	upscale      bool
	keepOriginal bool
	filter       imaging.ResampleFilter
	settings     imageSettings
}

var _ transform.Step = (*srcsetStep)(nil)

func newSrcset(o srcsetOptions) (transform.Step, error) {
	if len(o.Widths) == 0 {
		return nil, fmt.Errorf("%w: srcset needs widths, such as widths=400+800", transform.ErrBadOption)
	}
	widths := slices.Clone(o.Widths)
	slices.Sort(widths)
	for i, w := range widths {
		if w < 1 || w > MaxImageSide {
			return nil, fmt.Errorf("%w: width %d is not from 1 to %d", transform.ErrBadOption, w, MaxImageSide)
		}
		if i > 0 && widths[i-1] == w {
			return nil, fmt.Errorf("%w: width %d is given twice", transform.ErrBadOption, w)
		}
	}
	for i, f := range o.Formats {
		if slices.Contains(o.Formats[:i], f) {
			return nil, fmt.Errorf("%w: format %s is given twice", transform.ErrBadOption, f)
		}
	}
	s := &srcsetStep{widths: widths, formats: o.Formats, upscale: o.Upscale, keepOriginal: o.KeepOriginal, filter: filters[o.Filter]}
	var err error
	if s.settings, err = o.settings(); err != nil {
		return nil, err
	}
	return s, nil
}

// Run makes the widths and formats of every asset; each must be an image.
func (s *srcsetStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	if len(in) > 0 {
		warmEncoders(s.formats...)
	}
	return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
		src, err := decodeImage(a)
		if err != nil {
			return nil, err
		}
		orig := passImage(a, src)
		var out []*transform.Asset
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
		own := imageFormats[a.MediaTypeOf()] // "" for BMP and TIFF
		formats := s.formats
		if formats == nil {
			formats = []string{own}
		}
		for _, w := range widths {
			h := max(1, int(math.Round(float64(srcH)*float64(w)/float64(srcW))))
			if w == srcW {
				h = srcH
			} else if err := checkOutputSize(a, w, h); err != nil {
				return nil, err
			}
			var img image.Image // at width w, made once for all formats
			for _, f := range formats {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				var v *transform.Asset
				switch {
				case w == srcW && f == own:
					v = orig.Clone()
				default:
					if img == nil {
						img = src.img
						if w != srcW {
							img = imaging.Resize(src.img, w, h, s.filter)
						}
					}
					format, name := f, a.Path
					switch {
					case f == "":
						format, name = outputFormat(a)
					case f != own:
						name = replaceExt(a.Path, formatExt[f])
					}
					data, err := encodeImage(ctx, img, format, src, s.settings)
					if err != nil {
						return nil, &iofs.PathError{Op: "encode", Path: a.Path, Err: err}
					}
					v = a.Clone()
					if name != a.Path {
						v.Path, v.Type = name, ""
					}
					v.Data = data
					v.Width, v.Height = w, h
				}
				v.Path = widthName(v.Path, w)
				v.Source = source
				v.Encodings = nil
				out = append(out, v)
			}
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
