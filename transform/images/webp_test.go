package images

import (
	"bytes"
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"

	"github.com/disintegration/imaging"
)

// codecTest is one image encoded by a chain of steps and checked against
// its source and a golden image.
type codecTest struct {
	name, file string
	steps      []string // run in order on file
	path       string   // of the result
	minPSNR    float64  // against the source's pixels (at the result's size); +Inf asks for equal pixels
	golden     string
}

// runCodecTests runs each test's steps, then checks the result's name,
// size, format, quality against the source and the golden image.
func runCodecTests(t *testing.T, tests []codecTest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := runChain(t, loadImage(t, tt.file), tt.steps...)
			if a.Path != tt.path {
				t.Fatalf("got %s, want %s", a.Path, tt.path)
			}
			checkFormat(t, a)
			got := decodePixels(t, a.Path, a.Data)
			if got.Bounds().Dx() != a.Width || got.Bounds().Dy() != a.Height {
				t.Errorf("asset says %d×%d, image is %v", a.Width, a.Height, got.Bounds().Size())
			}
			// The source at the result's size, as the resize step scales it.
			want := decodePixels(t, tt.file, loadImage(t, tt.file).Data)
			if want.Bounds() != got.Bounds() {
				want = toNRGBA(imaging.Resize(want, got.Bounds().Dx(), got.Bounds().Dy(), imaging.Lanczos))
			}
			if want.Bounds() != got.Bounds() {
				t.Fatalf("result is %v, source %v", got.Bounds().Size(), want.Bounds().Size())
			}
			p := psnr(want, got)
			if p < tt.minPSNR {
				t.Errorf("PSNR against the source is %.1f dB, want at least %.1f", p, tt.minPSNR)
			}
			t.Logf("%d bytes, %.1f dB", len(a.Data), p)
			checkGoldenClose(t, tt.golden, a.Data, 45)
		})
	}
}

// runChain runs steps one after the other on a single asset and returns
// the single result.
func runChain(t *testing.T, a *transform.Asset, steps ...string) *transform.Asset {
	t.Helper()
	for _, s := range steps {
		out, err := steptest.Run(t, s, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 1 {
			t.Fatalf("%s gave %d assets, want 1", s, len(out))
		}
		a = out[0]
	}
	return a
}

func TestWebP(t *testing.T) {
	runCodecTests(t, []codecTest{
		{"jpeg to webp", "photo.jpg", []string{"resize:width=160", "format:to=webp"}, "img/photo.webp", 25, "image/webp-photo.png"}, // 27.3 dB
		{"alpha kept", "alpha.png", []string{"format:to=webp,quality=90"}, "img/alpha.webp", 32, "image/webp-alpha.png"},            // 35.8 dB
		{"lossless", "alpha.png", []string{"format:to=webp,lossless=true"}, "img/alpha.webp", math.Inf(1), "image/webp-alpha-lossless.png"},
		{"resize keeps webp", "small.webp", []string{"resize:width=32,webp-quality=90"}, "img/small.webp", 24, "image/webp-resize.png"}, // 26.4 dB,
		{"webp to png", "small.webp", []string{"format:to=png"}, "img/small.png", math.Inf(1), "image/webp-small-png.png"},
	})
}

func TestWebPQuality(t *testing.T) {
	sizes := map[string]int{}
	for _, q := range []string{"30", "90"} {
		a := runChain(t, loadImage(t, "photo.jpg"), "resize:width=160", "format:to=webp,quality="+q)
		sizes[q] = len(a.Data)
	}
	if sizes["30"] >= sizes["90"] {
		t.Errorf("quality 30 gave %d bytes, quality 90 gave %d", sizes["30"], sizes["90"])
	}
}

// TestEncodeDeterministic checks that an encoder gives the same bytes for
// the same pixels, one encode after another and several at once (each
// encode has its own instance of the compiled module).
func TestEncodeDeterministic(t *testing.T) {
	small := runChain(t, loadImage(t, "photo.jpg"), "resize:width=48")
	for _, step := range []string{"format:to=webp", "format:to=webp,lossless=true", "format:to=avif"} {
		t.Run(step, func(t *testing.T) {
			if strings.Contains(step, "avif") {
				skipAVIFUnderRace(t)
			}
			first := runChain(t, small, step).Data
			s, err := transform.NewStep(step)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			results := make([][]byte, 3)
			for i := range results {
				wg.Go(func() {
					out, err := s.Step.Run(transform.NewContext(context.Background(), "", transform.Release), []*transform.Asset{small})
					if err == nil && len(out) == 1 {
						results[i] = out[0].Data
					}
				})
			}
			wg.Wait()
			for i, r := range results {
				if !bytes.Equal(r, first) {
					t.Errorf("encode %d gave %d bytes differing from the first encode's %d", i+1, len(r), len(first))
				}
			}
		})
	}
}

func TestWasmCodecs(t *testing.T) {
	if !wasmCodecs() {
		t.Fatal("a shared libwebp or libavif is in use; the bytes would depend on the machine")
	}
}

func TestWebPHeaders(t *testing.T) {
	riff := func(chunks ...string) []byte {
		b := []byte("RIFF\x00\x00\x00\x00WEBP")
		for _, c := range chunks {
			b = append(b, c...)
		}
		return b
	}
	tests := []struct {
		name                     string
		data                     []byte
		webp, animated, lossless bool
	}{
		{"lossless file", loadImage(t, "solid.webp").Data, true, false, true},
		{"lossy file", loadImage(t, "small.webp").Data, true, false, false},
		{"animated", riff("VP8X\x0a\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00"), true, true, false},
		{"extended lossless", riff("VP8X\x0a\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00", "ALPH\x01\x00\x00\x00\x00\x00", "VP8L\x00\x00\x00\x00"), true, false, true},
		{"chunk size past the end", riff("XYZW\xff\xff\xff\x7f"), true, false, false},
		{"not webp", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), false, false, false},
		{"short", []byte("RIFF"), false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isWebP(tt.data); got != tt.webp {
				t.Errorf("isWebP = %v", got)
			}
			if got := webpAnimated(tt.data); got != tt.animated {
				t.Errorf("webpAnimated = %v", got)
			}
			if got := webpIsLossless(tt.data); got != tt.lossless {
				t.Errorf("webpIsLossless = %v", got)
			}
		})
	}
}
