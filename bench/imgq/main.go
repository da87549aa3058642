// Command imgq measures the quality of encoded images against their source,
// so that encoders compare by size at equal quality, and the cost of the
// WebAssembly encoders that bakefs uses. bench/suite calls it in section g.
//
//	imgq -ref SRC.png FILE...     one line per FILE: bytes, PSNR (dB), SSIM
//	imgq -equal TABLE             bytes ratios at equal SSIM (see below)
//	imgq -cost SRC.png            first and warm encode times, peak memory
//
// PSNR is over the R, G and B samples; SSIM is the mean SSIM of the luma
// (BT.601) over 8×8 windows moved 4 pixels at a time, with the usual
// constants (K1 0.01, K2 0.03). FILE may be PNG, JPEG, WebP or AVIF; it
// must have the source's size.
//
// TABLE has one line per encode, "GROUP TOOL SETTING BYTES SSIM", the
// first tool of a group being the reference. For each encode of another
// tool, -equal interpolates the reference's size at the same SSIM along
// its curve (log bytes linear in SSIM between the two encodes around it)
// and prints the ratio of sizes; an SSIM outside the reference's range
// gives no ratio.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg"
	_ "image/png"
	"log"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
	"github.com/gen2brain/avif"
	"golang.org/x/image/webp"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("imgq: ")
	ref := flag.String("ref", "", "source image to compare FILEs with")
	equal := flag.String("equal", "", "table of encodes to compare at equal SSIM")
	cost := flag.String("cost", "", "source image to encode, timing first and warm encodes")
	flag.Parse()
	switch {
	case *ref != "":
		src := load(*ref)
		for _, name := range flag.Args() {
			data, err := os.ReadFile(name)
			if err != nil {
				log.Fatal(err)
			}
			img := decode(name, data)
			if img.Bounds() != src.Bounds() {
				log.Fatalf("%s: %v pixels, source %v", name, img.Bounds().Size(), src.Bounds().Size())
			}
			fmt.Printf("%s %d %.2f %.4f\n", name, len(data), psnr(src, img), ssim(src, img))
		}
	case *equal != "":
		compare(*equal)
	case *cost != "":
		measureCost(*cost)
	default:
		flag.Usage()
		os.Exit(2)
	}
}

func load(name string) *image.RGBA {
	data, err := os.ReadFile(name)
	if err != nil {
		log.Fatal(err)
	}
	return decode(name, data)
}

// decode decodes PNG, JPEG, WebP or AVIF to RGBA at the origin.
func decode(name string, data []byte) *image.RGBA {
	var img image.Image
	var err error
	switch {
	case len(data) > 12 && string(data[8:12]) == "WEBP":
		img, err = webp.Decode(bytes.NewReader(data))
	case len(data) > 12 && string(data[4:8]) == "ftyp":
		img, err = avif.Decode(bytes.NewReader(data))
	default:
		img, _, err = image.Decode(bytes.NewReader(data))
	}
	if err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	return dst
}

// psnr is the peak signal-to-noise ratio of b against a over R, G and B.
func psnr(a, b *image.RGBA) float64 {
	var sum float64
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		for c := 0; c < 3; c++ {
			d := float64(a.Pix[i+c]) - float64(b.Pix[i+c])
			sum += d * d
			n++
		}
	}
	if sum == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(sum/float64(n)))
}

// luma returns the BT.601 luma of every pixel.
func luma(img *image.RGBA) []float64 {
	y := make([]float64, len(img.Pix)/4)
	for i := range y {
		p := img.Pix[4*i:]
		y[i] = 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
	}
	return y
}

// ssim is the mean SSIM of the luma of b against a over 8×8 windows with
// a stride of 4.
func ssim(a, b *image.RGBA) float64 {
	const win, stride = 8, 4
	const c1, c2 = (0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255)
	w, h := a.Bounds().Dx(), a.Bounds().Dy()
	ya, yb := luma(a), luma(b)
	var total float64
	n := 0
	for y0 := 0; y0+win <= h; y0 += stride {
		for x0 := 0; x0+win <= w; x0 += stride {
			var sa, sb, saa, sbb, sab float64
			for y := y0; y < y0+win; y++ {
				for x := x0; x < x0+win; x++ {
					p, q := ya[y*w+x], yb[y*w+x]
					sa, sb, saa, sbb, sab = sa+p, sb+q, saa+p*p, sbb+q*q, sab+p*q
				}
			}
			const m = win * win
			ma, mb := sa/m, sb/m
			va, vb, cov := saa/m-ma*ma, sbb/m-mb*mb, sab/m-ma*mb
			total += (2*ma*mb + c1) * (2*cov + c2) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return total / float64(n)
}

type point struct {
	tool, setting string
	bytes         float64
	ssim          float64
}

// compare prints, for each encode of a tool other than its group's first,
// its size over the first tool's size at the same SSIM.
func compare(file string) {
	f, err := os.Open(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	groups := map[string][]point{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 5 {
			continue
		}
		b, err1 := strconv.ParseFloat(fields[3], 64)
		s, err2 := strconv.ParseFloat(fields[4], 64)
		if err1 != nil || err2 != nil {
			log.Fatalf("%s: bad line %q", file, sc.Text())
		}
		if _, ok := groups[fields[0]]; !ok {
			order = append(order, fields[0])
		}
		groups[fields[0]] = append(groups[fields[0]], point{fields[1], fields[2], b, s})
	}
	for _, g := range order {
		pts := groups[g]
		refTool := pts[0].tool
		var ref []point
		for _, p := range pts {
			if p.tool == refTool {
				ref = append(ref, p)
			}
		}
		sort.Slice(ref, func(i, j int) bool { return ref[i].ssim < ref[j].ssim })
		for _, p := range pts {
			if p.tool == refTool {
				continue
			}
			at, ok := interpolate(ref, p.ssim)
			if !ok {
				fmt.Printf("%s %s %s SSIM %.4f: outside %s's range\n", g, p.tool, p.setting, p.ssim, refTool)
				continue
			}
			fmt.Printf("%s %s %s SSIM %.4f: %.0f B, %s at equal SSIM %.0f B: %.2f×\n", g, p.tool, p.setting, p.ssim, p.bytes, refTool, at, p.bytes/at)
		}
	}
}

// interpolate returns the size of the curve pts (sorted by SSIM) at SSIM s.
func interpolate(pts []point, s float64) (float64, bool) {
	for i := 1; i < len(pts); i++ {
		lo, hi := pts[i-1], pts[i]
		if s < lo.ssim || s > hi.ssim || hi.ssim == lo.ssim {
			continue
		}
		t := (s - lo.ssim) / (hi.ssim - lo.ssim)
		return math.Exp(math.Log(lo.bytes) + t*(math.Log(hi.bytes)-math.Log(lo.bytes))), true
	}
	return 0, false
}

// measureCost encodes src with the format steps of bakefs, first once (the
// module compiles) then warm, and prints the times and the peak RSS.
func measureCost(name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"format:to=webp", "format:to=avif"} {
		step, err := transform.NewStep(text)
		if err != nil {
			log.Fatal(err)
		}
		var times []time.Duration
		for range 4 {
			start := time.Now()
			ctx := transform.NewContext(context.Background(), "", transform.Release)
			if _, err := step.Step.Run(ctx, []*transform.Asset{{Path: "in.png", Data: data}}); err != nil {
				log.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
		fmt.Printf("%s: first %v, then %v %v %v; peak RSS so far %s\n", text, times[0].Round(time.Millisecond),
			times[1].Round(time.Millisecond), times[2].Round(time.Millisecond), times[3].Round(time.Millisecond), peakRSS())
	}
}

// peakRSS returns the process's peak resident set size (VmHWM).
func peakRSS() string {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.Join(strings.Fields(line)[1:], " ")
		}
	}
	return "unknown"
}
