// Genimages renders the example's images: a photo-like landscape
// (web/static/img/lake.jpg, 2400×1600), the logo (web/static/img/logo.png),
// the favicon (web/static/favicon.png) and the page's background tile
// (web/static/css/art/crumb.png). The output is deterministic: the same bytes on
// every machine, so the committed files can be checked against it.
//
// Usage, from the repository root:
//
//	go run ./examples/webapp/tools/genimages -dir examples/webapp/web
package main

import (
	"flag"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("genimages: ")
	dir := flag.String("dir", "examples/webapp/web", "web source `dir` to write into")
	flag.Parse()
	write := func(name string, encode func(f *os.File) error) {
		file := filepath.Join(*dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			log.Fatal(err)
		}
		f, err := os.Create(file)
		if err != nil {
			log.Fatal(err)
		}
		if err := encode(f); err != nil {
			log.Fatalf("%s: %v", file, err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
	for _, im := range images {
		write(im.name, func(f *os.File) error { return im.encode(f, im.render()) })
	}
}

// An output is one image file: its path under the web directory, how to
// draw it and how to encode it.
type output struct {
	name   string
	render func() image.Image
	encode func(w io.Writer, m image.Image) error
}

var pngEncoder = &png.Encoder{CompressionLevel: png.BestCompression}

var images = []output{
	{"static/img/lake.jpg", func() image.Image { return landscape(2400, 1600) }, func(w io.Writer, m image.Image) error {
		return jpeg.Encode(w, m, &jpeg.Options{Quality: 82})
	}},
	{"static/img/logo.png", func() image.Image { return logo(256) }, pngEncoder.Encode},
	{"static/favicon.png", func() image.Image { return logo(64) }, pngEncoder.Encode},
	{"static/css/art/crumb.png", func() image.Image { return crumb(128) }, pngEncoder.Encode},
}

// hash2 is a deterministic integer hash of a lattice point, in [0, 1).
func hash2(x, y int, seed uint32) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263 + seed*2246822519
	h = (h ^ (h >> 13)) * 1274126177
	h ^= h >> 16
	return float64(h&0xffffff) / float64(1<<24)
}

// noise is smooth value noise.
func noise(x, y float64, seed uint32) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	sx, sy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	ix, iy := int(x0), int(y0)
	a, b := hash2(ix, iy, seed), hash2(ix+1, iy, seed)
	c, d := hash2(ix, iy+1, seed), hash2(ix+1, iy+1, seed)
	return lerp(lerp(a, b, sx), lerp(c, d, sx), sy)
}

// fbm sums octaves of noise, in about [0, 1).
func fbm(x, y float64, octaves int, seed uint32) float64 {
	sum, amp, norm := 0.0, 0.5, 0.0
	for i := 0; i < octaves; i++ {
		sum += amp * noise(x, y, seed+uint32(i)*17)
		norm += amp
		x, y, amp = x*2.03, y*2.03, amp*0.5
	}
	return sum / norm
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

type rgb struct{ r, g, b float64 }

func mix(a, b rgb, t float64) rgb {
	t = math.Max(0, math.Min(1, t))
	return rgb{lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t)}
}

func (c rgb) scale(k float64) rgb { return rgb{c.r * k, c.g * k, c.b * k} }

func clamp8(v float64) uint8 {
	return uint8(math.Max(0, math.Min(255, math.Round(v))))
}

// landscape renders a lake at sunset: sky, sun, three ranges of mountains,
// the water reflecting them with ripples, a shore with pines, film grain.
func landscape(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	W, H := float64(w), float64(h)
	horizon := 0.60 * H
	sunX, sunY, sunR := 0.68*W, 0.39*H, 0.04*W

	zenith, glow, haze := rgb{38, 62, 122}, rgb{247, 170, 96}, rgb{252, 214, 160}
	sky := func(x, y float64) rgb {
		t := y / horizon
		c := mix(zenith, glow, math.Pow(t, 1.6))
		c = mix(c, haze, math.Pow(t, 6))
		d := math.Hypot(x-sunX, y-sunY)
		c = mix(c, rgb{255, 236, 200}, 0.55*math.Exp(-d/(0.12*W)))
		if d < sunR {
			c = mix(c, rgb{255, 248, 226}, 0.95)
		}
		// thin clouds
		cl := fbm(x/W*6, y/H*22, 5, 7)
		if y < 0.45*H {
			c = mix(c, rgb{255, 196, 170}, math.Max(0, cl-0.55)*1.6*(1-y/(0.45*H)))
		}
		return c
	}
	// Ridge heights (pixels above the horizon) for three ranges, far to near.
	ranges := []struct {
		base, amp, freq float64
		col             rgb
		seed            uint32
	}{
		{0.16 * H, 0.10 * H, 2.2, rgb{150, 120, 150}, 11},
		{0.09 * H, 0.08 * H, 3.5, rgb{92, 72, 108}, 23},
		{0.035 * H, 0.05 * H, 6, rgb{46, 40, 62}, 37},
	}
	ridge := func(i int, x float64) float64 {
		r := ranges[i]
		return r.base + r.amp*(fbm(x/W*r.freq, float64(i)*3.1, 6, r.seed)-0.35)*2
	}
	// scene returns the colour above the water at (x, y), y < horizon.
	scene := func(x, y float64) rgb {
		c := sky(x, y)
		for i := range ranges {
			top := horizon - ridge(i, x)
			if y >= top {
				depth := (y - top) / (horizon - top + 1)
				col := ranges[i].col.scale(0.85 + 0.3*fbm(x/W*40, y/H*40, 3, ranges[i].seed+5))
				c = mix(col, ranges[i].col.scale(0.7), depth*0.6)
				// evening light on the far slopes
				c = mix(c, glow, 0.18*float64(2-i)/2*(1-depth))
			}
		}
		return c
	}
	shoreAt := func(x float64) float64 {
		return 0.86*H + 0.05*H*(fbm(x/W*3, 0.5, 5, 51)-0.5)*2 - 0.10*H*math.Max(0, 1-x/(0.35*W))
	}
	for py := 0; py < h; py++ {
		y := float64(py) + 0.5
		for px := 0; px < w; px++ {
			x := float64(px) + 0.5
			var c rgb
			switch {
			case y < horizon:
				c = scene(x, y)
			case y < shoreAt(x):
				// reflection: mirror about the horizon, ripples grow nearer
				d := y - horizon
				ripple := math.Sin(d*0.35+fbm(x/W*8, d/H*60, 3, 61)*9) * (1 + d*0.02)
				my := horizon - d*0.95 - 1
				c = scene(math.Min(W-1, math.Max(0, x+ripple*2.5)), math.Max(0, my))
				c = mix(c.scale(0.78), rgb{30, 52, 80}, math.Min(0.55, d/(0.4*H)))
				// glitter below the sun
				spread := 0.03 * W * (1 + d/H*4)
				near := math.Exp(-math.Pow((x-sunX)/spread, 2))
				if hash2(px/9, py/2, 71) > 1-0.22*near {
					c = mix(c, rgb{255, 226, 178}, 0.55*near)
				}
			default:
				n := fbm(x/W*30, y/H*30, 4, 81)
				c = mix(rgb{34, 30, 24}, rgb{70, 58, 40}, n)
			}
			img.SetRGBA(px, py, color.RGBA{clamp8(c.r), clamp8(c.g), clamp8(c.b), 255})
		}
	}
	// pines on the left shore, silhouettes against the water and mountains
	for i := 0; i < 14; i++ {
		tx := (0.02 + 0.3*hash2(i, 1, 91)) * W
		base := shoreAt(tx) + 0.01*H
		th := (0.12 + 0.16*hash2(i, 2, 91)) * H * math.Max(0.4, 1-tx/(0.4*W))
		tw := th * 0.28
		for py := int(base - th); py < int(base); py++ {
			y := float64(py)
			f := (y - (base - th)) / th // 0 at the tip
			half := tw / 2 * f * (0.8 + 0.25*math.Sin(f*38))
			for px := int(tx - half); px <= int(tx+half); px++ {
				if px >= 0 && px < w && py >= 0 {
					shade := 14 + 10*hash2(px/4, py/4, 93)
					img.SetRGBA(px, py, color.RGBA{clamp8(shade), clamp8(shade + 12), clamp8(shade + 4), 255})
				}
			}
		}
	}
	// film grain
	for py := 0; py < h; py++ {
		for px := 0; px < w; px++ {
			g := (hash2(px, py, 101) - 0.5) * 6
			c := img.RGBAAt(px, py)
			img.SetRGBA(px, py, color.RGBA{clamp8(float64(c.R) + g), clamp8(float64(c.G) + g), clamp8(float64(c.B) + g), 255})
		}
	}
	return img
}

// logo renders the bakefs mark at size×size: a loaf on a round plate, with
// anti-aliased edges and a transparent background.
func logo(size int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	S := float64(size)
	const ss = 4 // supersamples per axis
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / S
					y := (float64(py) + (float64(sy)+0.5)/ss) / S
					c, alpha := logoAt(x, y)
					r, g, b, a = r+c.r*alpha, g+c.g*alpha, b+c.b*alpha, a+alpha
				}
			}
			n := float64(ss * ss)
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{clamp8(r / a), clamp8(g / a), clamp8(b / a), clamp8(a / n * 255)})
		}
	}
	return img
}

// logoAt returns the colour and coverage at (x, y) in the unit square.
func logoAt(x, y float64) (rgb, float64) {
	dx, dy := x-0.5, y-0.5
	if math.Hypot(dx, dy) > 0.48 {
		return rgb{}, 0
	}
	plate := rgb{38, 62, 122}
	// loaf: an ellipse cut flat at the bottom
	lx, ly := (x-0.5)/0.34, (y-0.56)/0.24
	if lx*lx+ly*ly <= 1 && y < 0.68 {
		crust := mix(rgb{232, 158, 72}, rgb{176, 98, 38}, (y-0.32)/0.36)
		// three scores across the top
		for _, sx := range []float64{0.38, 0.5, 0.62} {
			if math.Abs((x-sx)-(y-0.44)*0.5) < 0.018 && y < 0.56 && y > 0.36 {
				return rgb{252, 222, 160}, 1
			}
		}
		return crust, 1
	}
	if y >= 0.68 && y < 0.73 && math.Abs(dx) < 0.36 {
		return rgb{247, 214, 160}, 1 // the board
	}
	return plate, 1
}

// crumb renders a size×size tile of faint speckles on transparent pixels,
// seamless when repeated: the page background shows through.
func crumb(size int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			v := hash2(px, py, 111)
			if v > 0.985 {
				img.SetNRGBA(px, py, color.NRGBA{176, 98, 42, clamp8((v - 0.985) / 0.015 * 40)})
			}
		}
	}
	return img
}
