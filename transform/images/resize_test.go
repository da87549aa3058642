package images

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestResize(t *testing.T) {
	tests := []struct {
		name, step, file string
		path             string // of the result
		width, height    int
		golden           string // "" when the original bytes pass through
	}{
		{"width", "resize:width=200", "photo.jpg", "img/photo.jpg", 200, 150, "image/resize-width.png"},
		{"height", "resize:height=60,filter=catmullrom", "alpha.png", "img/alpha.png", 80, 60, "image/resize-height-alpha.png"},
		{"contain", "resize:width=100,height=100", "photo.jpg", "img/photo.jpg", 100, 75, "image/resize-contain.png"},
		{"cover", "resize:width=100,height=100,fit=cover,anchor=top", "photo.jpg", "img/photo.jpg", 100, 100, "image/resize-cover-top.png"},
		{"fill", "resize:width=100,height=100,fit=fill,filter=linear", "photo.jpg", "img/photo.jpg", 100, 100, "image/resize-fill.png"},
		{"gif keeps palette", "resize:width=32,filter=nearest", "icon.gif", "img/icon.gif", 32, 24, "image/resize-icon.png"},
		{"orientation", "resize:height=24,filter=box", "rotated.jpg", "img/rotated.jpg", 16, 24, "image/resize-rotated.png"},
		{"lossless webp stays lossless webp", "resize:width=6", "solid.webp", "img/solid.webp", 6, 5, "image/resize-webp.png"},
		{"upscale", "resize:width=300,upscale=true", "alpha.png", "img/alpha.png", 300, 225, "image/resize-upscale.png"},
		{"cover without upscale crops", "resize:width=300,height=300,fit=cover", "alpha.png", "img/alpha.png", 150, 150, "image/resize-cover-noupscale.png"},
		{"fill without upscale squeezes", "resize:width=400,height=150,fit=fill", "alpha.png", "img/alpha.png", 200, 75, "image/resize-fill-noupscale.png"},
		{"never enlarges", "resize:width=1000", "photo.jpg", "img/photo.jpg", 640, 480, ""},
		{"same size", "resize:width=640,height=480,fit=cover", "photo.jpg", "img/photo.jpg", 640, 480, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadImage(t, tt.file)
			in.Encodings = []transform.Encoding{{Name: "gzip", Data: []byte("stale")}}
			out, err := steptest.Run(t, tt.step, in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 {
				t.Fatalf("got %d assets, want 1", len(out))
			}
			a := out[0]
			if a.Path != tt.path || a.Width != tt.width || a.Height != tt.height {
				t.Errorf("got %s %d×%d, want %s %d×%d", a.Path, a.Width, a.Height, tt.path, tt.width, tt.height)
			}
			if a.Source != in.Source {
				t.Errorf("Source = %q, want %q", a.Source, in.Source)
			}
			if in.Width != 0 || len(in.Encodings) != 1 {
				t.Errorf("the input asset was modified")
			}
			if tt.golden == "" {
				if !bytes.Equal(a.Data, in.Data) {
					t.Errorf("the original bytes were not passed through")
				}
				return
			}
			if len(a.Encodings) != 0 {
				t.Errorf("stale encodings kept: %v", a.Encodings)
			}
			got := decodePixels(t, a.Path, a.Data)
			if got.Bounds().Dx() != tt.width || got.Bounds().Dy() != tt.height {
				t.Errorf("encoded image is %v, asset says %d×%d", got.Bounds().Size(), a.Width, a.Height)
			}
			if wantType := transform.MediaType(a.Path); !strings.HasPrefix(wantType, "image/") || a.MediaTypeOf() != wantType {
				t.Errorf("media type %q does not match path %s", a.MediaTypeOf(), a.Path)
			}
			checkFormat(t, a)
			checkGoldenImage(t, tt.golden, a.Data)
		})
	}
}

// checkFormat checks that an image asset's bytes are in the format its
// media type says.
func checkFormat(t *testing.T, a *transform.Asset) {
	t.Helper()
	_, format, err := checkImage(a)
	if err != nil {
		t.Fatal(err)
	}
	if want := imageFormats[a.MediaTypeOf()]; format != want {
		t.Errorf("%s holds %s bytes, want %s", a.Path, format, want)
	}
}

func TestResizeQuality(t *testing.T) {
	sizes := map[string]int{}
	for _, q := range []string{"40", "95"} {
		out, err := steptest.Run(t, "resize:width=320,quality="+q, loadImage(t, "photo.jpg"))
		if err != nil {
			t.Fatal(err)
		}
		sizes[q] = len(out[0].Data)
	}
	if sizes["40"] >= sizes["95"] {
		t.Errorf("quality 40 gave %d bytes, quality 95 gave %d", sizes["40"], sizes["95"])
	}
}

func TestResizeBadOptions(t *testing.T) {
	tests := []struct{ step, want string }{
		{"resize", "needs a width, a height or both"},
		{"resize:width=-1", "width -1"},
		{"resize:width=20000", "width 20000"},
		{"resize:width=10,fit=bogus", `"bogus" is not one of contain, cover, fill`},
		{"resize:width=10,fit=cover", "fit=cover needs both"},
		{"resize:width=10,anchor=top", "anchor applies only with fit=cover"},
		{"resize:width=10,filter=cubic", `"cubic" is not one of`},
		{"resize:width=10,quality=0", `quality "0"`},
		{"resize:width=10,quality=101", `quality "101"`},
		{"resize:width=10,upscale=maybe", "not true or false"},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			steptest.CheckBadOption(t, tt.step, tt.want)
		})
	}
}

func TestResizeErrors(t *testing.T) {
	tests := []struct {
		name, step string
		in         *transform.Asset
		is         error
		want       string
	}{
		{"bomb", "resize:width=10", loadImage(t, "bomb.png"), transform.ErrTooLarge, "img/bomb.png"},
		{"not an image", "resize:width=10", &transform.Asset{Path: "a.txt", Data: []byte("text")}, ErrBadImage, "a.txt"},
		{"result too large", "resize:width=16000,height=16000,fit=fill,upscale=true", loadImage(t, "icon.gif"), transform.ErrTooLarge, "16000×16000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := steptest.Run(t, tt.step, tt.in)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %v containing %q", err, tt.is, tt.want)
			}
		})
	}
}

func TestResizeBox(t *testing.T) {
	tests := []struct {
		opts       resizeOptions
		srcW, srcH int
		w, h       int
	}{
		{resizeOptions{Width: 100}, 640, 480, 100, 75},
		{resizeOptions{Height: 100}, 640, 480, 133, 100},
		{resizeOptions{Width: 100, Height: 100}, 480, 640, 75, 100},
		{resizeOptions{Width: 333}, 1000, 1, 333, 1},
		{resizeOptions{Width: 2000}, 640, 480, 640, 480},
		{resizeOptions{Width: 2000, Upscale: true}, 640, 480, 2000, 1500},
		{resizeOptions{Width: 100, Height: 50, Fit: "cover"}, 640, 480, 100, 50},
		{resizeOptions{Width: 1000, Height: 500, Fit: "cover"}, 640, 480, 640, 320},
		{resizeOptions{Width: 1000, Height: 500, Fit: "fill"}, 640, 480, 640, 320},
		{resizeOptions{Width: 1000, Height: 500, Fit: "fill", Upscale: true}, 640, 480, 1000, 500},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.opts), func(t *testing.T) {
			s, err := newResize(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if w, h := s.(*resizeStep).box(tt.srcW, tt.srcH); w != tt.w || h != tt.h {
				t.Errorf("box(%d, %d) = %d×%d, want %d×%d", tt.srcW, tt.srcH, w, h, tt.w, tt.h)
			}
		})
	}
}
