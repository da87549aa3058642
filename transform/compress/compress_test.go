package compress

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/bakefs/bakefs/internal/golden"
	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/images"
	"github.com/bakefs/bakefs/transform/steptest"
	"github.com/klauspost/compress/zstd"
)

// Golden files live under testdata/golden (see internal/golden).
func TestMain(m *testing.M) { golden.Main(m) }

// compressors are the compression steps with their variant's file suffix.
var compressors = []struct{ step, suffix string }{{"br", "br"}, {"gzip", "gz"}, {"zstd", "zst"}}

// jsLike returns about n bytes of JavaScript-like text: functions built
// from a small vocabulary by a fixed xorshift sequence, so that it repeats
// the way real code does and is the same on every run.
func jsLike(n int) []byte {
	seed := uint32(88172645)
	next := func(k int) int {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(k))
	}
	syll := []string{"get", "set", "item", "list", "node", "user", "data", "el", "view", "state", "on", "click", "value", "index", "render", "update", "map", "key", "props", "ctx"}
	ident := func() string {
		s := syll[next(len(syll))]
		for range next(3) {
			w := syll[next(len(syll))]
			s += strings.ToUpper(w[:1]) + w[1:]
		}
		return s
	}
	var b strings.Builder
	for b.Len() < n {
		fn, a, c, v := ident(), ident(), ident(), ident()
		fmt.Fprintf(&b, "/**\n * %s %s the %s of %s.\n */\n", strings.ToUpper(fn[:1])+fn[1:], syll[next(20)], syll[next(20)], a)
		fmt.Fprintf(&b, "export function %s(%s, %s) {\n", fn, a, c)
		fmt.Fprintf(&b, "  const %s = %s.%s(%q);\n", v, a, ident(), syll[next(20)]+"-"+syll[next(20)])
		fmt.Fprintf(&b, "  if (%s === null || %s.length > %d) {\n", v, v, next(1000))
		fmt.Fprintf(&b, "    return { %s: %s, %s: \"%s-%d\" };\n  }\n", ident(), a, ident(), syll[next(20)], next(100))
		fmt.Fprintf(&b, "  for (let i = 0; i < %s.length; i++) {\n    %s += %s[i] * %d;\n  }\n", c, v, c, next(64))
		fmt.Fprintf(&b, "  return %s;\n}\n\n", v)
	}
	return []byte(b.String())
}

// decompress decodes a variant, refusing to produce more than limit bytes
// so that a broken encoder cannot exhaust memory in a test.
func decompress(t testing.TB, encoding string, data []byte, limit int) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(data))
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(limit)+1), zstd.WithDecoderMaxWindow(zstdWindow))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	default:
		t.Fatalf("unknown encoding %q", encoding)
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		t.Fatalf("decompress %s: %v", encoding, err)
	}
	if len(out) > limit {
		t.Fatalf("decompress %s: more than %d bytes", encoding, limit)
	}
	return out
}

func variant(a *transform.Asset, name string) []byte {
	for _, e := range a.Encodings {
		if e.Name == name {
			return e.Data
		}
	}
	return nil
}

func TestCompressRoundTrip(t *testing.T) {
	js := jsLike(20000)
	for _, c := range compressors {
		for _, p := range []transform.Profile{transform.Release, transform.Dev} {
			t.Run(c.step+"/"+string(p), func(t *testing.T) {
				in := &transform.Asset{Path: "js/app.js", Data: js}
				out, err := steptest.RunProfile(t, c.step, p, in)
				if err != nil {
					t.Fatal(err)
				}
				a := out[0]
				if len(out) != 1 || len(a.Encodings) != 1 || a.Encodings[0].Name != c.step {
					t.Fatalf("got %d assets, encodings %v; want one with a %s variant", len(out), a.Encodings, c.step)
				}
				if !bytes.Equal(a.Data, js) || a.Path != in.Path || len(in.Encodings) != 0 {
					t.Errorf("the identity bytes, the path or the input asset changed")
				}
				enc := a.Encodings[0].Data
				if got := decompress(t, c.step, enc, len(js)); !bytes.Equal(got, js) {
					t.Errorf("round trip differs: got %d bytes, want %d", len(got), len(js))
				}
				t.Logf("%d → %d bytes (%.1f%%)", len(js), len(enc), 100*float64(len(enc))/float64(len(js)))
				golden.Check(t, fmt.Sprintf("compress/app-%s.js.%s", p, c.suffix), enc)
			})
		}
	}
}

func TestCompressSkips(t *testing.T) {
	random := make([]byte, 4096)
	seed := uint32(1)
	for i := range random {
		seed = seed*1664525 + 1013904223
		random[i] = byte(seed >> 24)
	}
	text := jsLike(2000)
	tests := []struct {
		name, step string
		in         *transform.Asset
		want       bool // a variant is added
	}{
		{"tiny", "gzip", &transform.Asset{Path: "a.txt", Data: []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")}, false},
		{"incompressible", "gzip", &transform.Asset{Path: "a.bin", Data: random}, false},
		{"incompressible br", "br", &transform.Asset{Path: "a.bin", Data: random}, false},
		{"incompressible zstd", "zstd", &transform.Asset{Path: "a.bin", Data: random}, false},
		{"jpeg by extension", "gzip", &transform.Asset{Path: "a.jpg", Data: text}, false},
		{"woff2 by type", "br", &transform.Asset{Path: "font", Type: "font/woff2", Data: text}, false},
		{"archive", "zstd", &transform.Asset{Path: "a.tar.gz", Data: text}, false},
		{"video", "gzip", &transform.Asset{Path: "clip", Type: "video/mp4", Data: text}, false},
		{"include-compressed", "gzip:include-compressed=true", &transform.Asset{Path: "a.jpg", Data: text}, true},
		{"under min-size", "br:min-size=4096", &transform.Asset{Path: "a.js", Data: text}, false},
		{"at min-size", fmt.Sprintf("br:min-size=%d", len(text)), &transform.Asset{Path: "a.js", Data: text}, true},
		{"svg is text", "zstd", &transform.Asset{Path: "logo.svg", Data: text}, true},
		{"type with parameters", "gzip", &transform.Asset{Path: "x", Type: "text/css; charset=utf-8", Data: text}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := steptest.Run(t, tt.step, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(out[0].Encodings) == 1; got != tt.want {
				t.Errorf("variant added = %v, want %v", got, tt.want)
			}
			if !tt.want && out[0] != tt.in {
				t.Errorf("an asset without a new variant was copied rather than passed through")
			}
		})
	}
}

func TestAlreadyCompressed(t *testing.T) {
	tests := []struct {
		a    transform.Asset
		want bool
	}{
		{transform.Asset{Path: "a.png"}, true}, {transform.Asset{Path: "a.JPG"}, true}, {transform.Asset{Path: "a.webp"}, true},
		{transform.Asset{Path: "a.avif"}, true}, {transform.Asset{Path: "a.woff2"}, true}, {transform.Asset{Path: "a.woff"}, true},
		{transform.Asset{Path: "a.zip"}, true}, {transform.Asset{Path: "a.js.br"}, true}, {transform.Asset{Path: "a.mp4"}, true},
		{transform.Asset{Path: "x", Type: "audio/ogg"}, true},
		{transform.Asset{Path: "a.js"}, false}, {transform.Asset{Path: "a.svg"}, false}, {transform.Asset{Path: "a.ico"}, false},
		{transform.Asset{Path: "a.wasm"}, false}, {transform.Asset{Path: "a.json"}, false}, {transform.Asset{Path: "README"}, false},
		{transform.Asset{Path: "a.png", Type: "text/plain"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.a.Path+" "+tt.a.Type, func(t *testing.T) {
			if got := alreadyCompressed(&tt.a); got != tt.want {
				t.Errorf("alreadyCompressed = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCompressDeterministic compresses the same bytes at GOMAXPROCS 1 and
// 2, and again after the pooled encoders compressed something else, and
// wants the same bytes every time.
func TestCompressDeterministic(t *testing.T) {
	a, b := jsLike(30000), jsLike(7000)[1000:]
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range compressors {
		for _, p := range []transform.Profile{transform.Release, transform.Dev} {
			t.Run(c.step+"/"+string(p), func(t *testing.T) {
				var first []byte
				for _, procs := range []int{1, 2, 1, 2} {
					runtime.GOMAXPROCS(procs)
					for _, data := range [][]byte{b, a} {
						out, err := steptest.RunProfile(t, c.step, p, &transform.Asset{Path: "a.js", Data: data})
						if err != nil {
							t.Fatal(err)
						}
						if &data[0] != &a[0] {
							continue
						}
						got := variant(out[0], c.step)
						if first == nil {
							first = got
						} else if !bytes.Equal(got, first) {
							t.Fatalf("GOMAXPROCS %d gave different bytes", procs)
						}
					}
				}
			})
		}
	}
}

// TestCompressConcurrent runs one step on many goroutines at once, as the
// pipeline does, and checks every result.
func TestCompressConcurrent(t *testing.T) {
	inputs := make([][]byte, 8)
	for i := range inputs {
		inputs[i] = jsLike(3000 + 1000*i)
	}
	for _, c := range compressors {
		t.Run(c.step, func(t *testing.T) {
			s, err := transform.NewStep(c.step)
			if err != nil {
				t.Fatal(err)
			}
			want := make([][]byte, len(inputs))
			for i, in := range inputs {
				want[i] = compressOne(t, s, in)
			}
			errs := make(chan error, len(inputs)*4)
			for range 4 {
				for i, in := range inputs {
					go func() {
						out, err := s.Step.Run(transform.NewContext(context.Background(), "", transform.Release), []*transform.Asset{{Path: "a.js", Data: in}})
						if err == nil && !bytes.Equal(variant(out[0], c.step), want[i]) {
							err = fmt.Errorf("input %d: concurrent run gave different bytes", i)
						}
						errs <- err
					}()
				}
			}
			for range len(inputs) * 4 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func compressOne(t testing.TB, s *transform.BoundStep, data []byte) []byte {
	t.Helper()
	out, err := s.Step.Run(transform.NewContext(context.Background(), "", transform.Release), []*transform.Asset{{Path: "a.js", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	return variant(out[0], s.Name)
}

// TestCompressLevels checks that a forced level gives that level whatever
// the profile, and that the profile's level is the one documented.
func TestCompressLevels(t *testing.T) {
	js := jsLike(20000)
	tests := []struct{ forced, step string }{
		{"gzip:level=1", "gzip"}, {"br:level=1", "br"}, {"zstd:level=fastest", "zstd"},
	}
	for _, tt := range tests {
		t.Run(tt.forced, func(t *testing.T) {
			forced, err := steptest.RunProfile(t, tt.forced, transform.Release, &transform.Asset{Path: "a.js", Data: js})
			if err != nil {
				t.Fatal(err)
			}
			dev, err := steptest.RunProfile(t, tt.step, transform.Dev, &transform.Asset{Path: "a.js", Data: js})
			if err != nil {
				t.Fatal(err)
			}
			release, err := steptest.RunProfile(t, tt.step, transform.Release, &transform.Asset{Path: "a.js", Data: js})
			if err != nil {
				t.Fatal(err)
			}
			f, d, r := variant(forced[0], tt.step), variant(dev[0], tt.step), variant(release[0], tt.step)
			if !bytes.Equal(f, d) {
				t.Errorf("forced level 1 in release differs from the dev profile")
			}
			if len(r) >= len(d) {
				t.Errorf("release gave %d bytes, dev %d: release should be smaller", len(r), len(d))
			}
		})
	}
	direct, err := gzipEncode(context.Background(), js, 9)
	if err != nil {
		t.Fatal(err)
	}
	release, _ := steptest.RunProfile(t, "gzip", transform.Profile("custom"), &transform.Asset{Path: "a.js", Data: js})
	if !bytes.Equal(variant(release[0], "gzip"), direct) {
		t.Errorf("a profile other than dev does not get the release level")
	}
}

func TestCompressBadOptions(t *testing.T) {
	tests := []struct{ step, want string }{
		{"gzip:level=0", `"0" is not one of 1, 2`},
		{"gzip:level=10", `"10" is not one of`},
		{"br:level=12", `"12" is not one of 0, 1`},
		{"zstd:level=9", `"9" is not one of fastest, default, better, best`},
		{"zstd:level=ultra", `"ultra" is not one of`},
		{"gzip:min-size=-1", "min-size -1 is negative"},
		{"br:min-size=big", `"big" is not a whole number`},
		{"zstd:window=23", "unknown option"},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			steptest.CheckBadOption(t, tt.step, tt.want)
		})
	}
}

// TestCompressChain runs all three in a chain after hash and checks the
// variants are sorted by name and the identity bytes untouched.
func TestCompressChain(t *testing.T) {
	chain, err := transform.ParseChain([]string{"hash", "zstd", "gzip", "br"})
	if err != nil {
		t.Fatal(err)
	}
	js := jsLike(5000)
	out, err := chain.Run(transform.NewContext(context.Background(), "", transform.Release), []*transform.Asset{{Path: "a.js", Data: js}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range out[0].Encodings {
		names = append(names, e.Name)
		if got := decompress(t, e.Name, e.Data, len(js)); !bytes.Equal(got, js) {
			t.Errorf("%s variant does not decode to the identity bytes", e.Name)
		}
	}
	if strings.Join(names, ",") != "br,gzip,zstd" || !out[0].Hashed || !bytes.Equal(out[0].Data, js) {
		t.Errorf("got encodings %v, hashed %v", names, out[0].Hashed)
	}
	if _, err := transform.ParseChain([]string{"gzip", "resize:width=10"}); !errors.Is(err, transform.ErrBadOption) {
		t.Errorf("a content step after gzip: got %v, want ErrBadOption", err)
	}
}

// TestGzipHeader checks the fixed header: no flags (so no name), zero
// modification time, OS byte 255.
func TestGzipHeader(t *testing.T) {
	enc, err := gzipEncode(context.Background(), jsLike(1000), 9)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255}
	if !bytes.Equal(enc[:10], want) {
		t.Errorf("header % x, want % x", enc[:10], want)
	}
	zr, err := gzip.NewReader(bytes.NewReader(enc))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || zr.Comment != "" || !zr.ModTime.Equal(time.Time{}) && zr.ModTime.Unix() != 0 {
		t.Errorf("header has name %q, comment %q, time %v", zr.Name, zr.Comment, zr.ModTime)
	}
}

// TestZstdFrame checks the frame header: the checksum flag, and a single
// segment with the content size for input under the window.
func TestZstdFrame(t *testing.T) {
	enc, err := zstdEncode(jsLike(5000), zstd.SpeedBestCompression)
	if err != nil {
		t.Fatal(err)
	}
	var h zstd.Header
	if err := h.Decode(enc); err != nil {
		t.Fatal(err)
	}
	if !h.HasCheckSum || !h.SingleSegment || !h.HasFCS || h.DictionaryID != 0 {
		t.Errorf("frame header %+v, want a checksum, a single segment, the content size and no dictionary", h)
	}
}

// BenchmarkCompress compares release and dev levels on 400 KB of
// JavaScript-like text. It reports the size ratio (variant/identity) next
// to the speed, for example:
//
//	go test ./transform -run '^$' -bench Compress -benchtime 5x
func BenchmarkCompress(b *testing.B) {
	js := jsLike(400 << 10)
	cases := []struct{ name, step string }{
		{"gzip/release", "gzip"}, {"gzip/dev", "gzip"},
		{"br/release", "br"}, {"br/dev", "br"},
		{"br/level=9", "br:level=9"},
		{"zstd/release", "zstd"}, {"zstd/dev", "zstd"},
		{"zstd/better", "zstd:level=better"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s, err := transform.NewStep(c.step)
			if err != nil {
				b.Fatal(err)
			}
			p := transform.Release
			if strings.HasSuffix(c.name, "/dev") {
				p = transform.Dev
			}
			ctx := transform.NewContext(context.Background(), "", p)
			b.SetBytes(int64(len(js)))
			var size int
			for b.Loop() {
				out, err := s.Step.Run(ctx, []*transform.Asset{{Path: "app.js", Data: js}})
				if err != nil {
					b.Fatal(err)
				}
				size = len(out[0].Encodings[0].Data)
			}
			b.ReportMetric(float64(size)/float64(len(js)), "ratio")
		})
	}
}

// TestCompressCanceled: the compressors stop when the context is done
// instead of compressing the whole input.
func TestCompressCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := []byte(strings.Repeat("cancel me ", 100000))
	if _, err := brotliEncode(ctx, data, 11); !errors.Is(err, context.Canceled) {
		t.Errorf("brotli: %v", err)
	}
	if _, err := gzipEncode(ctx, data, 9); !errors.Is(err, context.Canceled) {
		t.Errorf("gzip: %v", err)
	}
}
