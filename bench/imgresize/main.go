// Command imgresize resizes one image with disintegration/imaging and
// writes it as JPEG: the direct call that bench/run.sh (section q) sets
// against bakefs's resize step.
//
// Usage:
//
//	imgresize -width 960 [-quality 85] -o OUT.jpg IN
package main

import (
	"flag"
	"image/jpeg"
	"log"
	"os"

	"github.com/disintegration/imaging"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("imgresize: ")
	width := flag.Int("width", 960, "output width in `pixels`, the height following")
	quality := flag.Int("quality", 85, "JPEG `quality` from 1 to 100")
	out := flag.String("o", "", "output `file` (required)")
	flag.Parse()
	if flag.NArg() != 1 || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	img, err := imaging.Open(flag.Arg(0), imaging.AutoOrientation(true))
	if err != nil {
		log.Fatal(err)
	}
	img = imaging.Resize(img, *width, 0, imaging.Lanczos)
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: *quality}); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
