package images

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/bakefs/bakefs/transform"

	"github.com/bakefs/bakefs/internal/golden"
)

// skipAVIFUnderRace skips a test that encodes AVIF under the race
// detector (see raceEnabled), counting the golden files it would read as
// read.
func skipAVIFUnderRace(t *testing.T, goldens ...string) {
	if raceEnabled {
		golden.Skip(t, "AVIF encodes are left out under the race detector", goldens...)
	}
}

func TestAVIF(t *testing.T) {
	tests := []codecTest{
		{"jpeg to avif", "photo.jpg", []string{"resize:width=96", "format:to=avif"}, "img/photo.avif", 28, "image/avif-photo.png"},                  // 30.6 dB
		{"alpha kept", "alpha.png", []string{"resize:width=64", "format:to=avif,quality=80,speed=9"}, "img/alpha.avif", 40, "image/avif-alpha.png"}, // 44.1 dB
		{"resize keeps avif", "small.avif", []string{"resize:width=32,avif-quality=80"}, "img/small.avif", 25, "image/avif-resize.png"},             // 27.6 dB
		{"avif to png", "small.avif", []string{"format:to=png"}, "img/small.png", math.Inf(1), "image/avif-small-png.png"},
	}
	var goldens []string
	for _, tt := range tests {
		goldens = append(goldens, tt.golden)
	}
	skipAVIFUnderRace(t, goldens...)
	runCodecTests(t, tests)
}

func TestAVIFQuality(t *testing.T) {
	skipAVIFUnderRace(t)
	small := runChain(t, loadImage(t, "photo.jpg"), "resize:width=64")
	sizes := map[string]int{}
	for _, q := range []string{"30", "90"} {
		sizes[q] = len(runChain(t, small, "format:to=avif,quality="+q).Data)
	}
	if sizes["30"] >= sizes["90"] {
		t.Errorf("quality 30 gave %d bytes, quality 90 gave %d", sizes["30"], sizes["90"])
	}
}

func TestAVIFHeaders(t *testing.T) {
	ftyp := func(major string, compatible ...string) []byte {
		n := 16 + 4*len(compatible)
		b := []byte{0, 0, 0, byte(n)}
		b = append(b, "ftyp"+major+"\x00\x00\x00\x00"...)
		for _, c := range compatible {
			b = append(b, c...)
		}
		return b
	}
	tests := []struct {
		name           string
		data           []byte
		avif, sequence bool
	}{
		{"file", loadImage(t, "small.avif").Data, true, false},
		{"major brand", ftyp("avif", "mif1"), true, false},
		{"compatible brand", ftyp("mif1", "miaf", "avif"), true, false},
		{"sequence", ftyp("avis", "msf1"), true, true},
		{"heic", ftyp("heic", "mif1"), false, false},
		{"box past the end", append([]byte{0, 0, 1, 0}, ftyp("avif")[4:]...), false, false},
		{"png", loadImage(t, "alpha.png").Data, false, false},
		{"short", []byte("\x00\x00\x00\x10ftyp"), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isAVIF(tt.data); got != tt.avif {
				t.Errorf("isAVIF = %v", got)
			}
			if got := avifSequence(tt.data); got != tt.sequence {
				t.Errorf("avifSequence = %v", got)
			}
		})
	}
}

// TestEncodeInterrupted checks that a cancelled build does not wait for an
// AVIF encode to end (the design allows a second).
func TestEncodeInterrupted(t *testing.T) {
	skipAVIFUnderRace(t)
	s, err := transform.NewStep("format:to=avif")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan time.Time, 1)
	time.AfterFunc(20*time.Millisecond, func() {
		cancelled <- time.Now()
		cancel()
	})
	_, err = s.Step.Run(transform.NewContext(ctx, "", transform.Release), []*transform.Asset{loadImage(t, "photo.jpg")})
	returned := time.Now()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := returned.Sub(<-cancelled); d > time.Second {
		t.Errorf("returned %v after the cancellation", d)
	}
}
