package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// An imagePoint is one encode of section g: its format, tool and setting,
// and what imgq measured of it against the source.
type imagePoint struct {
	format, tool, setting string
	bytes, ssim, psnr     string
}

// images measures section g: WebP and AVIF encodes of the example's photo
// by bakefs and by Debian's cwebp and avifenc, compared by size at equal
// quality (bench/imgq) and by time.
func images(s *suite) {
	s.logf("WebP and AVIF vs cwebp and avifenc")
	s.out("### g. WebP and AVIF: bakefs (libwebp, libavif in WebAssembly) vs Debian's cwebp and avifenc", "")
	g := s.path("images")
	imgq := s.tool("imgq")
	// The source: the example's photo at 960×640, as a PNG that every tool
	// reads the same way.
	photo := filepath.Join(s.root, "examples/webapp/web/static/img/lake.jpg")
	s.bakefsRun("transform", "--no-cache", "--root", filepath.Dir(photo), "--out", g+"/src", "--step", "resize:width=960", "--step", "format:to=png", photo)
	src := g + "/src/lake.png"
	var points []imagePoint
	measure := func(format, tool, setting, file string) {
		// imgq -ref prints "FILE BYTES PSNR SSIM".
		f := strings.Fields(s.cmd(s.root, nil, imgq, "-ref", src, file))
		if len(f) < 4 {
			s.fail("imgq -ref %s: unexpected output %q", file, f)
		}
		points = append(points, imagePoint{format, tool, setting, f[1], f[3], f[2]})
	}
	bakefsEncode := func(dir, step string) string {
		s.bakefsRun("transform", "--no-cache", "--root", g+"/src", "--out", filepath.Join(g, dir), "--step", step, src)
		return filepath.Join(g, dir)
	}
	// One quality setting means the same to both sides: cwebp -q is
	// libwebp's quality, method 4 as bakefs; avifenc 0.11 (Debian) has no
	// quality flag, so it gets the quantizer that libavif 1.x derives from
	// a quality, ((100 - q) * 63 + 50) / 100, as minimum and maximum, at
	// bakefs's speed 8, 4:2:0, 8 bits, one thread. The peers also encode
	// one setting below and one above bakefs's, so that their curve spans
	// bakefs's qualities.
	for _, q := range []int{40, 50, 75, 90, 95} {
		out := fmt.Sprintf("%s/cwebp-%d.webp", g, q)
		s.cmd(s.root, nil, "cwebp", "-quiet", "-q", fmt.Sprint(q), "-m", "4", "-metadata", "none", src, "-o", out)
		measure("webp", "cwebp", fmt.Sprintf("q%d", q), out)
		if q == 40 || q == 95 {
			continue
		}
		dir := bakefsEncode(fmt.Sprintf("bakefs-webp-%d", q), fmt.Sprintf("format:to=webp,quality=%d", q))
		measure("webp", "bakefs", fmt.Sprintf("q%d", q), dir+"/lake.webp")
	}
	for _, q := range []int{30, 40, 60, 80, 90} {
		qz := fmt.Sprint(avifQuantizer(q))
		out := fmt.Sprintf("%s/avifenc-%d.avif", g, q)
		s.cmd(s.root, nil, "avifenc", "-j", "1", "-s", "8", "-y", "420", "-d", "8", "--min", qz, "--max", qz, "--minalpha", qz, "--maxalpha", qz, src, out)
		measure("avif", "avifenc", fmt.Sprintf("q%d(quantizer%s)", q, qz), out)
		if q == 30 || q == 90 {
			continue
		}
		dir := bakefsEncode(fmt.Sprintf("bakefs-avif-%d", q), fmt.Sprintf("format:to=avif,quality=%d", q))
		measure("avif", "bakefs", fmt.Sprintf("q%d", q), dir+"/lake.avif")
	}
	s.outf("Source: examples/webapp/web/static/img/lake.jpg at 960×640, as PNG (%d B). Quality against the source: PSNR over RGB, SSIM of the luma over 8×8 windows (bench/imgq).", s.size(src))
	s.out("", "| format | tool | setting | bytes | SSIM | PSNR dB |", "|---|---|---|---:|---:|---:|")
	for _, p := range points {
		s.outf("| %s | %s | %s | %s | %s | %s |", p.format, p.tool, p.setting, p.bytes, p.ssim, p.psnr)
	}
	s.out("", "Size at equal quality (the peer's size interpolated at bakefs's SSIM along the peer's curve; below 1× means bakefs is smaller):", "")
	// The peers' encodes first: the first tool of a group is the reference.
	var table strings.Builder
	for _, peers := range []bool{true, false} {
		for _, p := range points {
			if (p.tool != "bakefs") == peers {
				fmt.Fprintf(&table, "%s %s %s %s %s\n", p.format, p.tool, p.setting, p.bytes, p.ssim)
			}
		}
	}
	equal := g + "/equal.txt"
	s.writeFile(equal, table.String())
	for _, l := range strings.Split(strings.TrimRight(s.cmd(s.root, nil, imgq, "-equal", equal), "\n"), "\n") {
		s.out("- " + l)
	}
	s.out("")
	s.compare(comparison{
		title:  "Encode the 960×640 PNG as WebP, quality 75 (one process per encode: bakefs compiles the WebAssembly module each time)",
		warmup: 1, rounds: s.rounds,
		cmds: []sidebyside.Command{
			contender("cwebp", fmt.Sprintf("cwebp -quiet -q 75 -m 4 -metadata none %s -o %s/t-cwebp.webp", src, g)),
			contender("bakefs-webp", fmt.Sprintf("%s transform --no-cache --root %s/src --out %s/t-webp --step format:to=webp %s", s.bakefs, g, g, src)),
		},
	})
	s.compare(comparison{
		title:  "Encode the 960×640 PNG as AVIF, quality 60, speed 8 (one process per encode, as above)",
		warmup: 1, rounds: s.rounds,
		cmds: []sidebyside.Command{
			contender("avifenc", fmt.Sprintf("avifenc -j 1 -s 8 -y 420 -d 8 --min 25 --max 25 --minalpha 25 --maxalpha 25 %s %s/t-avifenc.avif", src, g)),
			contender("bakefs-avif", fmt.Sprintf("%s transform --no-cache --root %s/src --out %s/t-avif --step format:to=avif %s", s.bakefs, g, g, src)),
		},
	})
	s.out("In one process (`imgq -cost`: the format step four times on the same PNG; the first run compiles the module):", "")
	// The Peers line follows the block directly, without fenced's empty line.
	s.out("```", strings.TrimRight(s.cmd(s.root, nil, imgq, "-cost", src), "\n"), "```")
	avifVersion := strings.TrimPrefix(firstLine("avifenc", "--version"), "Version: ")
	s.outf("Peers: cwebp %s, avifenc %s.", firstLine("cwebp", "-version"), avifVersion)
	s.out("")
}

// avifQuantizer is the quantizer libavif 1.x derives from a quality:
// ((100 - q) * 63 + 50) / 100, rounded half up.
func avifQuantizer(q int) int { return ((100-q)*63 + 50) / 100 }
