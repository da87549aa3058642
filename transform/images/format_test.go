package images

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, step, file string
		path             string
		golden           string
	}{
		{"png to jpeg flattens on white", "format:to=jpeg", "alpha.png", "img/alpha.jpg", "image/format-alpha-jpeg.png"},
		{"background", "format:to=jpeg,background=102030,quality=60", "alpha.png", "img/alpha.jpg", "image/format-alpha-jpeg-dark.png"},
		{"jpeg to png", "format:to=png", "rotated.jpg", "img/rotated.png", "image/format-rotated-png.png"},
		{"jpeg to gif", "format:to=gif", "rotated.jpg", "img/rotated.gif", "image/format-rotated-gif.png"},
		{"png with alpha to gif", "format:to=gif", "alpha.png", "img/alpha.gif", "image/format-alpha-gif.png"},
		{"gif to png", "format:to=png", "icon.gif", "img/icon.png", "image/format-icon-png.png"},
		{"webp to png", "format:to=png", "solid.webp", "img/solid.png", "image/format-webp-png.png"},
		{"same format keeps its name", "format:to=jpeg,quality=50", "rotated.jpg", "img/rotated.jpg", "image/format-rotated-jpeg.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadImage(t, tt.file)
			out, err := steptest.Run(t, tt.step, in)
			if err != nil {
				t.Fatal(err)
			}
			a := out[0]
			if len(out) != 1 || a.Path != tt.path || a.Source != in.Path {
				t.Fatalf("got %d assets, first %s from %s; want %s from %s", len(out), a.Path, a.Source, tt.path, in.Path)
			}
			img := decodePixels(t, a.Path, a.Data)
			if a.Width != img.Bounds().Dx() || a.Height != img.Bounds().Dy() || a.Width == 0 {
				t.Errorf("asset says %d×%d, image is %v", a.Width, a.Height, img.Bounds().Size())
			}
			checkFormat(t, a)
			checkGoldenImage(t, tt.golden, a.Data)
		})
	}
}

// TestFormatGIFTransparency checks that transparent pixels stay
// transparent in a GIF and opaque ones opaque.
func TestFormatGIFTransparency(t *testing.T) {
	for _, file := range []string{"alpha.png", "icon.gif"} {
		t.Run(file, func(t *testing.T) {
			out, err := steptest.Run(t, "format:to=gif", loadImage(t, file))
			if err != nil {
				t.Fatal(err)
			}
			img := decodePixels(t, file, out[0].Data)
			if a := img.NRGBAAt(img.Bounds().Dx()/2, img.Bounds().Dy()/2).A; file == "alpha.png" && a != 0 {
				t.Errorf("center alpha = %d, want 0", a)
			}
			if a := img.NRGBAAt(0, 0).A; file == "icon.gif" && a != 0 {
				t.Errorf("corner alpha = %d, want 0", a)
			}
			if a := img.NRGBAAt(10, 10).A; a != 255 {
				t.Errorf("alpha at (10,10) = %d, want 255", a)
			}
		})
	}
}

func TestFormatBadOptions(t *testing.T) {
	tests := []struct{ step, want string }{
		{"format", "format needs to=jpeg"},
		{"format:to=tiff", `"tiff" is not one of jpeg, png, gif, webp, avif`},
		{"format:to=png,lossless=true", "only with to=webp"},
		{"format:to=webp,speed=5", "only with to=avif"},
		{"format:to=avif,speed=0", `speed "0" is not a whole number from 1 to 10`},
		{"format:to=webp,quality=101", `quality "101"`},
		{"format:to=bmp", `"bmp" is not one of`},
		{"format:to=jpeg,quality=0", `quality "0"`},
		{"format:to=jpeg,quality=abc", `quality "abc"`},
		{"format:to=png,quality=80", "only with to=jpeg"},
		{"format:to=gif,background=ffffff", "only with to=jpeg"},
		{"format:to=jpeg,background=white", `background "white"`},
		{"format:to=jpeg,background=fff", `background "fff"`},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			steptest.CheckBadOption(t, tt.step, tt.want)
		})
	}
}

func TestFormatErrors(t *testing.T) {
	_, err := steptest.Run(t, "format:to=png", loadImage(t, "corrupt.png"))
	if !errors.Is(err, ErrBadImage) || !strings.Contains(err.Error(), "img/corrupt.png") {
		t.Errorf("got %v, want ErrBadImage naming img/corrupt.png", err)
	}
	if _, err := encodeImage(context.Background(), nil, "tiff", nil, defaultImageSettings); !errors.Is(err, transform.ErrBadOption) {
		t.Errorf("encoding tiff: got %v, want ErrBadOption", err)
	}
}

// TestFormatPNGBitDepth checks that a PNG made from 8-bit sources (a JPEG,
// a GIF, an 8-bit PNG) has channels of 8 bits at most (a palette may take
// fewer), not 16-bit ones, and the pixels of the decoded source.
func TestFormatPNGBitDepth(t *testing.T) {
	for _, file := range []string{"photo.jpg", "rotated.jpg", "icon.gif", "alpha.png"} {
		t.Run(file, func(t *testing.T) {
			in := loadImage(t, file)
			out, err := steptest.Run(t, "format:to=png", in)
			if err != nil {
				t.Fatal(err)
			}
			data := out[0].Data
			// IHDR: 8-byte signature, length, "IHDR", width, height, then
			// the bit depth.
			if len(data) < 25 || string(data[12:16]) != "IHDR" {
				t.Fatalf("not a PNG: % x", data[:min(len(data), 25)])
			}
			if depth := data[24]; depth > 8 {
				t.Errorf("bit depth %d, want 8 at most", depth)
			}
			src, err := decodeImage(in)
			if err != nil {
				t.Fatal(err)
			}
			var enc bytes.Buffer
			if err := png.Encode(&enc, src.img); err != nil {
				t.Fatal(err)
			}
			want := decodePixels(t, file, enc.Bytes())
			got := decodePixels(t, out[0].Path, data)
			if got.Bounds() != want.Bounds() || !bytes.Equal(got.Pix, want.Pix) {
				t.Error("pixels differ from the decoded source")
			}
		})
	}
}
