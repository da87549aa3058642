// Gen writes a deterministic synthetic source tree for the bakefs
// benchmarks: TypeScript modules that import each other, CSS, JSON, SVG and
// HTML files under DIR/web, and DIR/bakefs.toml that builds them.
//
// Usage:
//
//	go run ./bench/gen -out DIR [-files 1000] [-size 5000] [-seed 1] [-group 40]
//
// DIR must be missing or empty. The same flags always give the same bytes.
// It prints one line: the number of files, their total size and the entry
// points. See package bench/synth for the layout.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/bakefs/bakefs/bench/synth"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	out := flag.String("out", "", "output `dir` (required; missing or empty)")
	files := flag.Int("files", 1000, "number of source `files`")
	size := flag.Int("size", 5000, "mean file size in `bytes`")
	seed := flag.Uint64("seed", 1, "content `seed`")
	group := flag.Int("group", 40, "TypeScript modules per entry point")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: gen -out DIR [-files N] [-size BYTES] [-seed N] [-group N]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	sum, err := synth.Generate(*out, synth.Options{Files: *files, Size: *size, Seed: *seed, GroupSize: *group})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d files, %d bytes (ts %d, css %d, json %d, svg %d, html %d); entries: %s\n",
		sum.Files, sum.Bytes, sum.ByKind["ts"], sum.ByKind["css"], sum.ByKind["json"], sum.ByKind["svg"], sum.ByKind["html"],
		strings.Join(sum.Entries, " "))
}
