package images

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestSrcset(t *testing.T) {
	type want struct {
		path          string
		width, height int
		golden        string // "" when the original bytes pass through
	}
	tests := []struct {
		name, step, file string
		want             []want
	}{
		{"widths", "srcset:widths=160+100", "photo.jpg", []want{
			{"img/photo-100w.jpg", 100, 75, "image/srcset-photo-100w.png"},
			{"img/photo-160w.jpg", 160, 120, "image/srcset-photo-160w.png"},
		}},
		{"skips larger", "srcset:widths=100+1000+2000,keep-original=true", "alpha.png", []want{
			{"img/alpha.png", 200, 150, ""},
			{"img/alpha-100w.png", 100, 75, "image/srcset-alpha-100w.png"},
		}},
		{"original width", "srcset:widths=50+64", "icon.gif", []want{
			{"img/icon-50w.gif", 50, 38, "image/srcset-icon-50w.png"},
			{"img/icon-64w.gif", 64, 48, ""},
		}},
		{"none small enough", "srcset:widths=800+1600", "alpha.png", []want{
			{"img/alpha-200w.png", 200, 150, ""},
		}},
		{"upscale", "srcset:widths=300,upscale=true,filter=linear", "alpha.png", []want{
			{"img/alpha-300w.png", 300, 225, "image/srcset-alpha-300w.png"},
		}},
		{"lossless webp", "srcset:widths=6+12", "solid.webp", []want{
			{"img/solid-6w.webp", 6, 5, "image/srcset-webp-6w.png"},
			{"img/solid-12w.webp", 12, 10, ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadImage(t, tt.file)
			in.Source = "src/" + tt.file
			out, err := steptest.Run(t, tt.step, in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(tt.want) {
				t.Fatalf("got %d assets, want %d", len(out), len(tt.want))
			}
			for i, w := range tt.want {
				a := out[i]
				if a.Path != w.path || a.Width != w.width || a.Height != w.height || a.Source != in.Source {
					t.Errorf("asset %d: got %s %d×%d from %s, want %s %d×%d from %s", i, a.Path, a.Width, a.Height, a.Source, w.path, w.width, w.height, in.Source)
				}
				if w.golden == "" {
					if !bytes.Equal(a.Data, in.Data) {
						t.Errorf("%s: the original bytes were not passed through", a.Path)
					}
					continue
				}
				checkFormat(t, a)
				checkGoldenImage(t, w.golden, a.Data)
			}
		})
	}
}

func TestSrcsetBadOptions(t *testing.T) {
	tests := []struct{ step, want string }{
		{"srcset", "srcset needs widths"},
		{"srcset:widths=0", "width 0"},
		{"srcset:widths=400+400", "width 400 is given twice"},
		{"srcset:widths=400+20000", "width 20000"},
		{"srcset:widths=400+big", `"big" is not a whole number`},
		{"srcset:widths=400,quality=0", `quality "0"`},
		{"srcset:widths=400,keep-original=yes", "not true or false"},
		{"srcset:widths=400,formats=avif+avif", "format avif is given twice"},
		{"srcset:widths=400,formats=avif+heic", `"heic" is not one of jpeg, png, gif, webp, avif`},
		{"srcset:widths=400,avif-speed=11", `avif-speed "11" is not a whole number from 1 to 10`},
		{"srcset:widths=400,webp-quality=0", `webp-quality "0"`},
		{"srcset:widths=400,avif-quality=x", `avif-quality "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			steptest.CheckBadOption(t, tt.step, tt.want)
		})
	}
}

func TestSrcsetCanonical(t *testing.T) {
	a, err := transform.NewStep("srcset:widths=800+400")
	if err != nil {
		t.Fatal(err)
	}
	b, err := transform.NewStep("srcset:widths=800,widths=400")
	if err != nil {
		t.Fatal(err)
	}
	if a.Canonical != b.Canonical {
		t.Errorf("canonical forms differ: %q and %q", a.Canonical, b.Canonical)
	}
	// The options of the shared encoding group are the step's own, and
	// the order of formats, which orders the output, is kept.
	c, err := transform.NewStep("srcset:widths=400,webp-quality=50,formats=webp+jpeg,avif-speed=6")
	if err != nil {
		t.Fatal(err)
	}
	if want := "srcset:avif-speed=6,formats=webp,formats=jpeg,webp-quality=50,widths=400"; c.Canonical != want {
		t.Errorf("canonical form %q, want %q", c.Canonical, want)
	}
}

func TestWidthName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"hero.jpg", "hero-400w.jpg"}, {"img/a.b/hero.min.png", "img/a.b/hero.min-400w.png"}, {"img/noext", "img/noext-400w"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := widthName(tt.in, 400); got != tt.want {
				t.Errorf("widthName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSrcsetErrors(t *testing.T) {
	_, err := steptest.Run(t, "srcset:widths=400", loadImage(t, "bomb.png"))
	if !errors.Is(err, transform.ErrTooLarge) || !strings.Contains(err.Error(), "img/bomb.png") {
		t.Errorf("got %v, want ErrTooLarge naming img/bomb.png", err)
	}
}

// TestSrcsetFormats checks that formats gives one image per width and
// format, by width then in the order given, each in the format its name
// says, the source's own format at its own width passing through.
func TestSrcsetFormats(t *testing.T) {
	skipAVIFUnderRace(t)
	in := loadImage(t, "small.webp")
	in.Source = "src/small.webp"
	out, err := steptest.Run(t, "srcset:widths=32+64,formats=avif+webp+jpeg,quality=70", in)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		path          string
		typ           string
		width, height int
	}{
		{"img/small-32w.avif", "image/avif", 32, 24},
		{"img/small-32w.webp", "image/webp", 32, 24},
		{"img/small-32w.jpg", "image/jpeg", 32, 24},
		{"img/small-64w.avif", "image/avif", 64, 48},
		{"img/small-64w.webp", "image/webp", 64, 48},
		{"img/small-64w.jpg", "image/jpeg", 64, 48},
	}
	if len(out) != len(want) {
		t.Fatalf("got %d assets, want %d", len(out), len(want))
	}
	source := decodePixels(t, in.Path, in.Data)
	for i, w := range want {
		a := out[i]
		if a.Path != w.path || a.MediaTypeOf() != w.typ || a.Width != w.width || a.Height != w.height || a.Source != in.Source {
			t.Errorf("asset %d: got %s %s %d×%d from %s, want %s %s %d×%d from %s",
				i, a.Path, a.MediaTypeOf(), a.Width, a.Height, a.Source, w.path, w.typ, w.width, w.height, in.Source)
			continue
		}
		checkFormat(t, a)
		got := decodePixels(t, a.Path, a.Data)
		if got.Bounds().Dx() != w.width || got.Bounds().Dy() != w.height {
			t.Errorf("%s: image is %v", a.Path, got.Bounds().Size())
		}
		if w.width == 64 {
			if p := psnr(source, got); p < 28 {
				t.Errorf("%s: PSNR against the source is %.1f dB, want at least 28", a.Path, p)
			}
		}
	}
	if !bytes.Equal(out[4].Data, in.Data) {
		t.Errorf("%s: the original bytes were not passed through", out[4].Path)
	}
}
