package images

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	iofs "io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"

	"github.com/bakefs/bakefs/internal/golden"
)

// Golden files live under testdata/golden (see internal/golden).
func TestMain(m *testing.M) { golden.Main(m) }

// The images under testdata/images are made by testImages below, so that
// anyone can see how they were built; TestImageTestdata checks the files
// match it, and `go test ./transform -update` rewrites them.
//
//	photo.jpg      640×480 photo-like gradient with shapes, JPEG quality 90
//	alpha.png      200×150 RGBA with a soft alpha ramp and a hole
//	icon.gif       64×48 paletted, with a transparent index
//	anim.gif       two frames of 8×8: refused as animated
//	rotated.jpg    48×32 stored, EXIF orientation 6 (displayed 32×48)
//	solid.webp     12×10 lossless WebP of one color, written bit by bit
//	truncated.jpg  photo.jpg cut after its headers
//	corrupt.png    a PNG signature followed by junk
//	bomb.png       header only, claiming 100000×100000 pixels
//	wide.png       header only, claiming 30000×10 pixels (under the pixel
//	               limit, over the side limit)
func testImages(t testing.TB) map[string][]byte {
	photo := encodeTest(t, "jpeg", photoImage(640, 480))
	return map[string][]byte{
		"photo.jpg":     photo,
		"alpha.png":     encodeTest(t, "png", alphaImage(200, 150)),
		"icon.gif":      encodeTest(t, "gif", iconImage()),
		"anim.gif":      animatedGIF(t),
		"rotated.jpg":   withOrientation(encodeTest(t, "jpeg", quadrants(48, 32)), 6),
		"solid.webp":    solidWebP(12, 10, color.NRGBA{0x20, 0x80, 0xc0, 0xff}),
		"truncated.jpg": photo[:len(photo)/3],
		"corrupt.png":   append([]byte("\x89PNG\r\n\x1a\n"), "this is not a chunk, only junk bytes"...),
		"bomb.png":      pngHeader(100000, 100000),
		"wide.png":      pngHeader(30000, 10),
	}
}

func TestImageTestdata(t *testing.T) {
	dir := filepath.Join("testdata", "images")
	for name, want := range testImages(t) {
		file := filepath.Join(dir, name)
		if golden.Updating() {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test ./transform -update makes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what testImages makes (go test ./transform -update rewrites it)", file)
		}
	}
}

// photoImage is a smooth gradient with hard-edged shapes and a little
// deterministic noise, using integer arithmetic only.
func photoImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(2463534242)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			seed ^= seed << 13
			seed ^= seed >> 17
			seed ^= seed << 5
			noise := int(seed%9) - 4
			r := x*255/(w-1) + noise
			g := y*255/(h-1) + noise
			b := (x*x+2*y*y)/(w*3)%256 + noise
			if dx, dy := x-w/3, y-h/2; dx*dx+dy*dy < (h/5)*(h/5) {
				r, g, b = 230+noise, 200+noise, 40+noise
			}
			if x > w*2/3 && x < w*5/6 && y > h/6 && y < h/3 {
				r, g, b = 20, 40, 160
			}
			img.SetRGBA(x, y, color.RGBA{clamp8(r), clamp8(g), clamp8(b), 0xff})
		}
	}
	return img
}

// alphaImage fades from opaque on the left to transparent on the right,
// with a fully transparent disc in the middle.
func alphaImage(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := 255 - x*255/(w-1)
			if dx, dy := x-w/2, y-h/2; dx*dx+dy*dy < (h/4)*(h/4) {
				a = 0
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(y * 255 / (h - 1)), 90, 200, uint8(a)})
		}
	}
	return img
}

// iconImage is a paletted image with a transparent border.
func iconImage() *image.Paletted {
	pal := color.Palette{color.NRGBA{}, color.NRGBA{200, 30, 30, 255}, color.NRGBA{30, 160, 60, 255}, color.NRGBA{250, 250, 250, 255}}
	img := image.NewPaletted(image.Rect(0, 0, 64, 48), pal)
	for y := 4; y < 44; y++ {
		for x := 4; x < 60; x++ {
			img.SetColorIndex(x, y, uint8(1+(x/8+y/8)%3))
		}
	}
	return img
}

// quadrants is red top-left, green top-right, blue bottom-left, white
// bottom-right.
func quadrants(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{255, 255, 255, 255}
			switch {
			case x < w/2 && y < h/2:
				c = color.RGBA{255, 0, 0, 255}
			case y < h/2:
				c = color.RGBA{0, 255, 0, 255}
			case x < w/2:
				c = color.RGBA{0, 0, 255, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func animatedGIF(t testing.TB) []byte {
	pal := color.Palette{color.Black, color.White}
	a, b := image.NewPaletted(image.Rect(0, 0, 8, 8), pal), image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
	b.SetColorIndex(3, 3, 1)
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{a, b}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeTest(t testing.TB, format string, img image.Image) []byte {
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpeg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	case "png":
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withOrientation inserts an EXIF APP1 segment holding only the
// orientation tag right after a JPEG's SOI marker.
func withOrientation(jpg []byte, orientation uint16) []byte {
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")  // big-endian TIFF header, IFD at 8
	tiff = binary.BigEndian.AppendUint16(tiff, 1) // one entry
	tiff = binary.BigEndian.AppendUint16(tiff, 0x0112)
	tiff = binary.BigEndian.AppendUint16(tiff, 3) // SHORT
	tiff = binary.BigEndian.AppendUint32(tiff, 1) // count
	tiff = binary.BigEndian.AppendUint16(tiff, orientation)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0) // padding, next IFD 0
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xff, 0xe1}
	seg = binary.BigEndian.AppendUint16(seg, uint16(2+len(payload)))
	seg = append(seg, payload...)
	return slices.Concat(jpg[:2], seg, jpg[2:])
}

// pngHeader is a PNG signature, an 8-bit RGBA IHDR with a correct CRC
// claiming w×h pixels, and IEND: enough for image.DecodeConfig.
func pngHeader(w, h uint32) []byte {
	chunk := func(typ string, data []byte) []byte {
		c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		c = append(c, typ...)
		c = append(c, data...)
		return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // depth 8, RGBA, deflate, no filter, no interlace
	return slices.Concat([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr), chunk("IEND", nil))
}

// solidWebP writes a lossless (VP8L) WebP of one color: no transforms, no
// color cache, and five prefix codes of one symbol each, so that every
// pixel takes zero bits.
func solidWebP(w, h int, c color.NRGBA) []byte {
	var bits bitWriter
	bits.write(0x2f, 8) // VP8L signature
	bits.write(uint32(w-1), 14)
	bits.write(uint32(h-1), 14)
	bits.write(0, 1) // alpha is not used
	bits.write(0, 3) // version 0
	bits.write(0, 1) // no transform
	bits.write(0, 1) // no color cache
	bits.write(0, 1) // no meta prefix codes
	for _, sym := range []uint8{c.G, c.R, c.B, c.A, 0} {
		bits.write(1, 1) // simple code
		bits.write(0, 1) // one symbol
		bits.write(1, 1) // of 8 bits
		bits.write(uint32(sym), 8)
	}
	data := bits.bytes()
	if len(data)%2 == 1 {
		data = append(data, 0)
	}
	riff := []byte("RIFF")
	riff = binary.LittleEndian.AppendUint32(riff, uint32(4+8+len(data)))
	riff = append(riff, "WEBPVP8L"...)
	riff = binary.LittleEndian.AppendUint32(riff, uint32(len(data)))
	return append(riff, data...)
}

// bitWriter packs bits least significant first, as VP8L reads them.
type bitWriter struct {
	buf  []byte
	n    uint // bits used in the last byte
	open bool
}

func (b *bitWriter) write(v uint32, n int) {
	for i := 0; i < n; i++ {
		if !b.open || b.n == 8 {
			b.buf, b.n, b.open = append(b.buf, 0), 0, true
		}
		b.buf[len(b.buf)-1] |= byte(v>>i&1) << b.n
		b.n++
	}
}

func (b *bitWriter) bytes() []byte { return b.buf }

func clamp8(v int) uint8 { return uint8(max(0, min(255, v))) }

// loadImage returns testdata/images/name as an asset at "img/"+name.
func loadImage(t testing.TB, name string) *transform.Asset {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "images", name))
	if err != nil {
		t.Fatal(err)
	}
	return &transform.Asset{Path: "img/" + name, Source: "img/" + name, Data: data}
}

// decodePixels decodes an encoded image to NRGBA.
func decodePixels(t testing.TB, name string, data []byte) *image.NRGBA {
	t.Helper()
	var img image.Image
	var err error
	switch {
	case isWebP(data):
		img, err = decodeWebP(data)
	case isAVIF(data):
		img, err = decodeAVIF(data)
	default:
		img, _, err = image.Decode(bytes.NewReader(data))
	}
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	return n
}

// goldenPixels decodes data and the golden PNG testdata/golden/name and
// checks that they have the same size. Under -update it writes data's
// pixels as the golden PNG instead and reports false.
func goldenPixels(t *testing.T, name string, data []byte) (got, want *image.NRGBA, ok bool) {
	t.Helper()
	got = decodePixels(t, name, data)
	if golden.Updating() {
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, got); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name, buf.Bytes())
		return nil, nil, false
	}
	want = decodePixels(t, name, golden.Read(t, name))
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s: got %v pixels, golden has %v", name, got.Bounds().Size(), want.Bounds().Size())
	}
	return got, want, true
}

// checkGoldenImage compares the pixels of an encoded image with those of
// the PNG testdata/golden/name, exactly: the decoders and encoders used are
// deterministic, so any difference is a change of behavior. Under -update
// it writes the PNG.
func checkGoldenImage(t *testing.T, name string, data []byte) {
	t.Helper()
	got, want, ok := goldenPixels(t, name, data)
	if !ok {
		return
	}
	for i := 0; i < len(got.Pix); i += 4 {
		if !bytes.Equal(got.Pix[i:i+4], want.Pix[i:i+4]) {
			p := i / 4
			t.Fatalf("%s: pixel (%d,%d) is %v, golden has %v (go test ./transform -update refreshes it)",
				name, p%got.Bounds().Dx(), p/got.Bounds().Dx(), got.Pix[i:i+4], want.Pix[i:i+4])
		}
	}
}

func TestDecodeImage(t *testing.T) {
	tests := []struct {
		file          string
		format        string
		width, height int
		paletted      bool
	}{
		{"photo.jpg", "jpeg", 640, 480, false},
		{"alpha.png", "png", 200, 150, false},
		{"icon.gif", "gif", 64, 48, true},
		{"rotated.jpg", "jpeg", 32, 48, false}, // orientation 6 applied
		{"solid.webp", "webp", 12, 10, false},
		{"small.webp", "webp", 64, 48, false},
		{"small.avif", "avif", 64, 48, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d, err := decodeImage(loadImage(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if b := d.img.Bounds(); d.format != tt.format || b.Dx() != tt.width || b.Dy() != tt.height {
				t.Errorf("got %s %d×%d, want %s %d×%d", d.format, b.Dx(), b.Dy(), tt.format, tt.width, tt.height)
			}
			if (d.palette != nil) != tt.paletted {
				t.Errorf("palette kept = %v, want %v", d.palette != nil, tt.paletted)
			}
		})
	}
}

func TestDecodeImageOrientation(t *testing.T) {
	// Stored red top-left; orientation 6 turns it a quarter clockwise, so
	// red is displayed top-right.
	d, err := decodeImage(loadImage(t, "rotated.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := d.img.At(28, 4).RGBA()
	if r>>8 < 200 || g>>8 > 60 || b>>8 > 60 {
		t.Errorf("top-right pixel is %d,%d,%d, want red", r>>8, g>>8, b>>8)
	}
}

func TestDecodeImageErrors(t *testing.T) {
	tests := []struct {
		name  string
		asset *transform.Asset
		is    error
		text  []string // parts of the message
	}{
		{"truncated", loadImage(t, "truncated.jpg"), ErrBadImage, []string{"decode img/truncated.jpg:", "invalid JPEG format"}},
		{"corrupt", loadImage(t, "corrupt.png"), ErrBadImage, []string{"decode img/corrupt.png:"}},
		{"not an image", &transform.Asset{Path: "notes.txt", Data: []byte("hello, world")}, ErrBadImage, []string{"decode notes.txt:", "not a JPEG, PNG, GIF, WebP, AVIF, BMP or TIFF file"}},
		{"svg", &transform.Asset{Path: "logo.svg", Data: []byte("<svg/>")}, ErrBadImage, []string{"logo.svg", "vector"}},
		{"empty", &transform.Asset{Path: "empty.png", Data: nil}, ErrBadImage, []string{"empty.png"}},
		{"bomb", loadImage(t, "bomb.png"), transform.ErrTooLarge, []string{"decode img/bomb.png:", "100000×100000 pixels", "50000000"}},
		{"wide", loadImage(t, "wide.png"), transform.ErrTooLarge, []string{"img/wide.png", "30000×10", "16384 per side"}},
		{"animated", loadImage(t, "anim.gif"), errors.ErrUnsupported, []string{"img/anim.gif", "animated GIF of 2 frames"}},
		{"webp bomb", loadImage(t, "bomb.webp"), transform.ErrTooLarge, []string{"decode img/bomb.webp:", "webp of 16384×16384 pixels"}},
		{"avif bomb", loadImage(t, "bomb.avif"), transform.ErrTooLarge, []string{"decode img/bomb.avif:", "avif of 10000×10000 pixels"}},
		{"truncated avif", &transform.Asset{Path: "cut.avif", Data: loadImage(t, "small.avif").Data[:200]}, ErrBadImage, []string{"decode cut.avif:"}},
		{"truncated webp", &transform.Asset{Path: "cut.webp", Data: loadImage(t, "small.webp").Data[:100]}, ErrBadImage, []string{"decode cut.webp:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeImage(tt.asset)
			if !errors.Is(err, tt.is) {
				t.Fatalf("got %v, want an error wrapping %v", err, tt.is)
			}
			var pe *iofs.PathError
			if !errors.As(err, &pe) || pe.Op != "decode" || pe.Path != tt.asset.Path {
				t.Errorf("got %#v, want a *fs.PathError decoding %s", err, tt.asset.Path)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message has more than one line: %q", msg)
			}
			for _, part := range tt.text {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q does not contain %q", msg, part)
				}
			}
		})
	}
}

func TestGIFFrames(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"still", loadImage(t, "icon.gif").Data, 1},
		{"animated", loadImage(t, "anim.gif").Data, 2},
		{"header only", loadImage(t, "icon.gif").Data[:13], 0},
		{"empty", nil, 0},
		{"cut in a frame", loadImage(t, "anim.gif").Data[:60], 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gifFrames(tt.data); got != tt.want {
				t.Errorf("gifFrames = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestParseQuality(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"", DefaultJPEGQuality, true}, {"1", 1, true}, {"100", 100, true},
		{"0", 0, false}, {"101", 0, false}, {"-5", 0, false}, {"high", 0, false}, {"85.5", 0, false},
	}
	for _, tt := range tests {
		t.Run("q="+tt.in, func(t *testing.T) {
			got, err := parseQuality(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseQuality(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
			}
			if err != nil && !errors.Is(err, transform.ErrBadOption) {
				t.Errorf("error %v does not wrap ErrBadOption", err)
			}
		})
	}
}

func TestReplaceExt(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.png", "a.jpg"}, {"img/hero.webp", "img/hero.jpg"}, {"img.d/noext", "img.d/noext.jpg"}, {".hidden", ".hidden.jpg"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := replaceExt(tt.in, ".jpg"); got != tt.want {
				t.Errorf("replaceExt(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestImageStepsDeterministic runs every image step twice, at GOMAXPROCS
// 1 and 2 (imaging resizes rows in parallel), and wants identical bytes.
func TestImageStepsDeterministic(t *testing.T) {
	steps := []string{
		"resize:width=123",
		"resize:width=100,height=100,fit=cover",
		"crop:aspect=4:5",
		"format:to=gif",
		"srcset:widths=50+300",
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, text := range steps {
		t.Run(text, func(t *testing.T) {
			var runs [][]*transform.Asset
			for _, procs := range []int{1, 2} {
				runtime.GOMAXPROCS(procs)
				out, err := steptest.Run(t, text, loadImage(t, "photo.jpg"), loadImage(t, "alpha.png"))
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, out)
			}
			if len(runs[0]) != len(runs[1]) {
				t.Fatalf("got %d and %d assets", len(runs[0]), len(runs[1]))
			}
			for i := range runs[0] {
				if !bytes.Equal(runs[0][i].Data, runs[1][i].Data) {
					t.Errorf("%s differs between GOMAXPROCS 1 and 2", runs[0][i].Path)
				}
			}
		})
	}
}

// FuzzDecodeImage feeds arbitrary bytes to the shared decoder: it must
// return an image within the bounds or an error naming the file, and
// never panic.
func FuzzDecodeImage(f *testing.F) {
	for _, data := range testImages(f) {
		if len(data) < 4096 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := decodeImage(&transform.Asset{Path: "fuzz.img", Data: data})
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.img") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if b := d.img.Bounds(); b.Dx() > MaxImageSide || b.Dy() > MaxImageSide || b.Dx()*b.Dy() > MaxImagePixels {
			t.Errorf("decoded %v, over the bounds", b.Size())
		}
	})
}

// psnr is the peak signal-to-noise ratio, in decibels, of b against a
// (+Inf when they are equal), over premultiplied R, G, B and A: what a
// viewer sees on a black background, so that the color of a nearly
// transparent pixel weighs as little as it shows. a and b must have the
// same bounds.
func psnr(a, b *image.NRGBA) float64 {
	var sum float64
	for i := 0; i < len(a.Pix); i += 4 {
		for c := 0; c < 4; c++ {
			x, y := float64(a.Pix[i+c]), float64(b.Pix[i+c])
			if c < 3 {
				x, y = x*float64(a.Pix[i+3])/255, y*float64(b.Pix[i+3])/255
			}
			sum += (x - y) * (x - y)
		}
	}
	if sum == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(sum/float64(len(a.Pix))))
}

// checkGoldenClose compares the pixels of a lossily encoded image with
// those of the PNG testdata/golden/name by size and by a PSNR of at least
// minPSNR decibels: the WebP and AVIF encoders may change their bytes
// from one version to the next, within the quality their settings ask
// for. Under -update it writes the PNG.
func checkGoldenClose(t *testing.T, name string, data []byte, minPSNR float64) {
	t.Helper()
	got, want, ok := goldenPixels(t, name, data)
	if !ok {
		return
	}
	if p := psnr(want, got); p < minPSNR {
		t.Errorf("%s: PSNR against the golden image is %.1f dB, want at least %.1f (go test ./transform -update refreshes it)", name, p, minPSNR)
	}
}
