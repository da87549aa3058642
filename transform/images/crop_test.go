package images

import (
	"bytes"
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestCrop(t *testing.T) {
	tests := []struct {
		name, step, file string
		width, height    int
		golden           string // "" when the original bytes pass through
	}{
		{"anchor", "crop:width=120,height=80,anchor=bottomright", "photo.jpg", 120, 80, "image/crop-bottomright.png"},
		{"default anchor is center", "crop:width=100,height=100", "alpha.png", 100, 100, "image/crop-center-alpha.png"},
		{"one side", "crop:height=40,anchor=top", "icon.gif", 64, 40, "image/crop-top-icon.png"},
		{"explicit box", "crop:x=10,y=20,width=100,height=50", "photo.jpg", 100, 50, "image/crop-box.png"},
		{"box to the edges", "crop:x=150,y=100", "alpha.png", 50, 50, "image/crop-box-edges.png"},
		{"aspect", "crop:aspect=1:1,anchor=left", "alpha.png", 150, 150, "image/crop-aspect-square.png"},
		{"aspect taller", "crop:aspect=1.91:1", "rotated.jpg", 32, 17, "image/crop-aspect-wide.png"},
		{"box larger than image is clipped", "crop:width=1000,height=100", "alpha.png", 200, 100, "image/crop-clipped.png"},
		{"whole image", "crop:width=640,height=480", "photo.jpg", 640, 480, ""},
		{"whole image by aspect", "crop:aspect=4:3", "photo.jpg", 640, 480, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadImage(t, tt.file)
			out, err := steptest.Run(t, tt.step, in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 {
				t.Fatalf("got %d assets, want 1", len(out))
			}
			a := out[0]
			if a.Path != in.Path || a.Width != tt.width || a.Height != tt.height {
				t.Errorf("got %s %d×%d, want %s %d×%d", a.Path, a.Width, a.Height, in.Path, tt.width, tt.height)
			}
			if tt.golden == "" {
				if !bytes.Equal(a.Data, in.Data) {
					t.Errorf("the original bytes were not passed through")
				}
				return
			}
			checkFormat(t, a)
			checkGoldenImage(t, tt.golden, a.Data)
		})
	}
}

// TestCropPixels checks that a crop of a PNG (lossless) holds exactly the
// source's pixels at the box.
func TestCropPixels(t *testing.T) {
	in := loadImage(t, "alpha.png")
	out, err := steptest.Run(t, "crop:x=30,y=40,width=70,height=60", in)
	if err != nil {
		t.Fatal(err)
	}
	src, got := decodePixels(t, in.Path, in.Data), decodePixels(t, out[0].Path, out[0].Data)
	want := src.SubImage(image.Rect(30, 40, 100, 100)).(*image.NRGBA)
	for y := 0; y < 60; y++ {
		for x := 0; x < 70; x++ {
			if g, w := got.NRGBAAt(x, y), want.NRGBAAt(30+x, 40+y); g != w {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}
}

func TestCropBadOptions(t *testing.T) {
	tests := []struct{ step, want string }{
		{"crop", "crop needs width, height, x and y, or aspect"},
		{"crop:x=1,anchor=top", "x and y or anchor"},
		{"crop:aspect=16:9,width=10", "aspect or a box"},
		{"crop:aspect=16:9,y=0", "aspect or a box"},
		{"crop:aspect=16", `aspect "16"`},
		{"crop:aspect=0:9", `aspect "0:9"`},
		{"crop:aspect=a:b", `aspect "a:b"`},
		{"crop:aspect=Inf:1", `aspect "Inf:1"`},
		{"crop:x=-3", `x "-3"`},
		{"crop:y=ten", `y "ten"`},
		{"crop:width=-1", "width -1"},
		{"crop:width=10,anchor=middle", `"middle" is not one of`},
		{"crop:width=10,quality=0", `quality "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			steptest.CheckBadOption(t, tt.step, tt.want)
		})
	}
}

func TestCropBoxOutside(t *testing.T) {
	tests := []string{
		"crop:x=600,y=0,width=100,height=10",
		"crop:x=0,y=480",
		"crop:x=0,y=0,width=641",
	}
	for _, step := range tests {
		t.Run(step, func(t *testing.T) {
			_, err := steptest.Run(t, step, loadImage(t, "photo.jpg"))
			if !errors.Is(err, transform.ErrBadOption) || !strings.Contains(err.Error(), "crop img/photo.jpg:") || !strings.Contains(err.Error(), "640×480 image") {
				t.Errorf("got %v, want an error naming the file and its size", err)
			}
		})
	}
}
