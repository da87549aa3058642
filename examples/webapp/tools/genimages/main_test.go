package main

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedImages renders every image again and compares it, pixel by
// pixel after decoding, with the committed file: the committed images are
// what this program makes.
func TestCommittedImages(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a 2400×1600 landscape")
	}
	for _, im := range images {
		t.Run(im.name, func(t *testing.T) {
			committed, err := os.ReadFile(filepath.Join("..", "..", "web", filepath.FromSlash(im.name)))
			if err != nil {
				t.Fatal(err)
			}
			var fresh bytes.Buffer
			if err := im.encode(&fresh, im.render()); err != nil {
				t.Fatal(err)
			}
			a, _, err := image.Decode(bytes.NewReader(committed))
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := image.Decode(&fresh)
			if err != nil {
				t.Fatal(err)
			}
			if a.Bounds() != b.Bounds() {
				t.Fatalf("committed %v, rendered %v", a.Bounds(), b.Bounds())
			}
			r := a.Bounds()
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if ca, cb := a.At(x, y), b.At(x, y); ca != cb {
						t.Fatalf("pixel (%d,%d): committed %v, rendered %v; run go run ./examples/webapp/tools/genimages", x, y, ca, cb)
					}
				}
			}
		})
	}
}
