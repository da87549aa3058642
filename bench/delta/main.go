// Command delta measures bakefs's delta updates (Compression Dictionary
// Transport) on real release pairs from npm: for each pair, the bytes a
// returning visitor downloads for the new version (the dcz delta against
// the old one) against brotli 11 and gzip 9 of the new version, and the
// build time that [delta] adds, side by side in one run. See README.md.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	bakefs "github.com/bakefs/bakefs/fs"
)

var (
	bakefsBin = flag.String("bakefs", "bin/bakefs", "the bakefs binary to measure")
	peers     = flag.String("peers", filepath.Join(os.TempDir(), "bakefs-delta-peers"), "where the npm tarballs are kept between runs")
	rounds    = flag.Int("rounds", 5, "builds of each variant; variants alternate")
	keep      = flag.Bool("keep", false, "keep the temporary directory and print its path")
)

// A pair is one file of a package in two consecutive releases.
type pair struct {
	what     string // what kind of release step it is
	pkg      string
	old, cur string // versions
	file     string // path in the package tarball, under package/
}

var pairs = []pair{
	{"three.js, consecutive releases", "three", "0.168.0", "0.169.0", "build/three.module.js"},
	{"a bundled library, patch release", "vue", "3.5.12", "3.5.13", "dist/vue.esm-browser.prod.js"},
	{"a CSS framework, minor release", "bootstrap", "5.2.3", "5.3.0", "dist/css/bootstrap.min.css"},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("bench/delta: ")
	flag.Parse()
	bin, err := filepath.Abs(*bakefsBin)
	if err != nil {
		log.Fatal(err)
	}
	work, err := os.MkdirTemp("", "bakefs-delta-")
	if err != nil {
		log.Fatal(err)
	}
	if *keep {
		log.Printf("keeping %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	fmt.Println("| release pair | file | identity | gzip 9 | brotli 11 | dcz delta | delta / brotli | build, no [delta] | build, [delta] | added |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, p := range pairs {
		old, err := fetch(p.pkg, p.old, p.file)
		if err != nil {
			log.Fatal(err)
		}
		cur, err := fetch(p.pkg, p.cur, p.file)
		if err != nil {
			log.Fatal(err)
		}
		r, err := measure(bin, filepath.Join(work, fmt.Sprint(i)), path(p.file), old, cur)
		if err != nil {
			log.Fatalf("%s %s → %s: %v", p.pkg, p.old, p.cur, err)
		}
		fmt.Printf("| %s: %s %s → %s | %s | %d | %d | %d | %d | %.3f | %s | %s | %s |\n",
			p.what, p.pkg, p.old, p.cur, filepath.Base(p.file), r.identity, r.gzip, r.br, r.delta,
			float64(r.delta)/float64(r.br), r.plain, r.withDelta, r.added())
	}
	fmt.Println()
	fmt.Printf("Bytes from each release's manifest (`bakefs build`, `hash = true`, `compress = [\"br\", \"gzip\"]`, then `[delta] previous` = the first release's tree); every delta decoded against the old file gives the new one. Build times: median (min–max) of %d cold builds of the new release each (no cache), with and without `[delta]`, alternating; added = the difference of the medians.\n", *rounds)
}

// path is where the pair's file is put in the project: its base name
// under js/ or css/.
func path(file string) string {
	if strings.HasSuffix(file, ".css") {
		return "css/" + filepath.Base(file)
	}
	return "js/" + filepath.Base(file)
}

// fetch returns the file of the package's tarball at version, which
// npm pack downloads into the peers directory the first time.
func fetch(pkg, version, file string) ([]byte, error) {
	dir := filepath.Join(*peers, "npm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tgz := filepath.Join(dir, fmt.Sprintf("%s-%s.tgz", pkg, version))
	if _, err := os.Stat(tgz); err != nil {
		cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", dir, pkg+"@"+version)
		cmd.Stderr = os.Stderr
		if out, err := cmd.Output(); err != nil {
			return nil, fmt.Errorf("npm pack %s@%s: %v", pkg, version, err)
		} else if got := filepath.Join(dir, strings.TrimSpace(string(out))); got != tgz {
			if err := os.Rename(got, tgz); err != nil {
				return nil, err
			}
		}
	}
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", tgz, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("%s has no package/%s", tgz, file)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", tgz, err)
		}
		if h.Name == "package/"+file {
			return io.ReadAll(tr)
		}
	}
}

// A result is what one pair measured.
type result struct {
	identity, gzip, br, delta int64
	plain, withDelta          timing
}

func (r result) added() string {
	return fmt.Sprintf("%+.0f ms", float64(r.withDelta.median-r.plain.median)/float64(time.Millisecond))
}

// timing is the median and range of some runs.
type timing struct{ median, min, max time.Duration }

func (t timing) String() string {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return fmt.Sprintf("%.0f ms (%.0f–%.0f)", ms(t.median), ms(t.min), ms(t.max))
}

func timingOf(runs []time.Duration) timing {
	slices.Sort(runs)
	return timing{median: runs[len(runs)/2], min: runs[0], max: runs[len(runs)-1]}
}

const projectTOML = `src = "web"
out = "build"
cache = ""
hash = true
compress = ["br", "gzip"]

[[rule]]
match = "**"
steps = []
`

// measure builds the old release into dir's releases/old, then the new one
// against it, and times cold builds of the new one with and without it.
func measure(bin, dir, name string, old, cur []byte) (result, error) {
	var r result
	write := func(rel string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}
	build := func(toml string) (time.Duration, error) {
		if err := write("bakefs.toml", []byte(toml)); err != nil {
			return 0, err
		}
		os.RemoveAll(filepath.Join(dir, "build"))
		start := time.Now()
		out, err := exec.Command(bin, "build", "-f", filepath.Join(dir, "bakefs.toml")).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("bakefs build: %v\n%s", err, out)
		}
		return time.Since(start), nil
	}
	if err := write("web/"+name, old); err != nil {
		return r, err
	}
	if _, err := build(projectTOML); err != nil {
		return r, err
	}
	prev := filepath.Join(dir, "releases", "old")
	if err := os.CopyFS(prev, os.DirFS(filepath.Join(dir, "build"))); err != nil {
		return r, err
	}
	if err := write("web/"+name, cur); err != nil {
		return r, err
	}
	withDelta := projectTOML + "\n[delta]\nprevious = \"releases/old\"\n"
	var plain, delta []time.Duration
	for range *rounds {
		d, err := build(projectTOML)
		if err != nil {
			return r, err
		}
		plain = append(plain, d)
		if d, err = build(withDelta); err != nil {
			return r, err
		}
		delta = append(delta, d)
	}
	r.plain, r.withDelta = timingOf(plain), timingOf(delta)

	raw, err := os.ReadFile(filepath.Join(dir, "build", bakefs.ManifestName))
	if err != nil {
		return r, err
	}
	var m bakefs.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return r, err
	}
	e, ok := m.Lookup(name)
	if !ok {
		return r, fmt.Errorf("%s is not in the manifest", name)
	}
	r.identity = e.Size
	for _, enc := range e.Encodings {
		switch enc.Name {
		case "br":
			r.br = enc.Size
		case "gzip":
			r.gzip = enc.Size
		}
	}
	if len(e.Deltas) != 1 {
		return r, fmt.Errorf("%s has %d deltas, want 1", name, len(e.Deltas))
	}
	r.delta = e.Deltas[0].Size
	return r, checkDelta(filepath.Join(dir, "build"), e.Deltas[0].Path, old, cur)
}

// checkDelta decodes the delta at name in tree against old and compares
// it with cur.
func checkDelta(tree, name string, old, cur []byte) error {
	body, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(name)))
	if err != nil {
		return err
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, old), zstd.WithDecoderMaxWindow(1<<27))
	if err != nil {
		return err
	}
	defer d.Close()
	got, err := d.DecodeAll(body[40:], nil)
	if err != nil {
		return fmt.Errorf("decoding %s: %v", name, err)
	}
	if !bytes.Equal(got, cur) {
		return fmt.Errorf("%s decodes to other bytes than the new release's", name)
	}
	return nil
}
