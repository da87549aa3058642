// Package synth writes deterministic synthetic source trees for the bakefs
// benchmarks: TypeScript modules that import each other, CSS, JSON, SVG and
// HTML files, plus a bakefs.toml that builds them.
//
// Usage:
//
//	sum, err := synth.Generate("/tmp/tree", synth.Options{Files: 1000})
//	// /tmp/tree/bakefs.toml, /tmp/tree/web/...; then: bakefs build -f /tmp/tree/bakefs.toml
//
// The same Options always give byte-identical trees, whatever the machine,
// time zone or order of generation: every file's bytes depend only on the
// seed, its kind and its index.
//
// Layout under the tree's web/ directory:
//
//	ts/all.ts                 imports every entry (a large bundle)
//	ts/entry-GG.ts            entry of group GG: imports each module of the group
//	ts/gGG/mNNNN.ts           modules; each imports up to three earlier modules of its group
//	css/DD/cNNNN.css          style sheets
//	data/DD/jNNNN.json        JSON documents
//	img/DD/sNNNN.svg          SVG drawings
//	pages/DD/pNNNN.html       HTML pages
//
// NNNN is the file's index within its kind and DD its hundreds
// (index/100), so every kind's first file has a fixed name (LeafModule,
// FirstCSS). Module 0 of group 0 is imported, directly or not, by every
// later module of its group, so changing it re-runs that group's entry
// bundle and all.ts.
package synth

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// Fixed paths, relative to the tree, that the benchmarks change.
const (
	// ProjectFile is the project file of a tree.
	ProjectFile = "bakefs.toml"
	// SourceDir is the source root of a tree.
	SourceDir = "web"
	// LeafModule is the first module of group 0, imported (directly or not)
	// by every other module of the group.
	LeafModule = "web/ts/g00/m0000.ts"
	// FirstCSS is the first style sheet.
	FirstCSS = "web/css/00/c0000.css"
	// AllEntry is the entry point that imports every group.
	AllEntry = "web/ts/all.ts"
)

// Limits of Options.
const (
	MinFiles = 10
	MaxFiles = 100000
	MinSize  = 1024
	MaxSize  = 1 << 20
)

// ErrOptions reports Options outside their documented ranges.
var ErrOptions = errors.New("synth: invalid options")

// ErrNotEmpty reports an output directory that already holds files.
var ErrNotEmpty = errors.New("synth: output directory is not empty")

// Options say what to generate. The zero value of a field means its
// default.
type Options struct {
	// Files is the number of source files, entries included, from MinFiles
	// to MaxFiles; default 1000.
	Files int
	// Size is the mean size of a file in bytes, from MinSize to MaxSize;
	// sizes vary from half to one and a half times it; default 5000.
	Size int
	// Seed selects the content; default 1.
	Seed uint64
	// GroupSize is the number of modules per TypeScript entry point;
	// default 40.
	GroupSize int
}

// Mix is the share of each kind of file, in percent of Files; TypeScript
// takes the rest, entries included.
var Mix = struct{ CSS, JSON, SVG, HTML int }{CSS: 20, JSON: 15, SVG: 20, HTML: 15}

// A Summary tells what Generate wrote.
type Summary struct {
	Files   int            // files under web/
	Bytes   int64          // their total size
	ByKind  map[string]int // files per kind: "ts", "css", "json", "svg", "html"
	Entries []string       // TypeScript entry points, relative to web/, sorted
}

func (o Options) withDefaults() (Options, error) {
	if o.Files == 0 {
		o.Files = 1000
	}
	if o.Size == 0 {
		o.Size = 5000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.GroupSize == 0 {
		o.GroupSize = 40
	}
	switch {
	case o.Files < MinFiles || o.Files > MaxFiles:
		return o, fmt.Errorf("%w: files %d is not in [%d, %d]", ErrOptions, o.Files, MinFiles, MaxFiles)
	case o.Size < MinSize || o.Size > MaxSize:
		return o, fmt.Errorf("%w: size %d is not in [%d, %d]", ErrOptions, o.Size, MinSize, MaxSize)
	case o.GroupSize < 1 || o.GroupSize > 1000:
		return o, fmt.Errorf("%w: group size %d is not in [1, 1000]", ErrOptions, o.GroupSize)
	}
	return o, nil
}

// A plan is the list of files to write, by kind and count.
type plan struct {
	css, json, svg, html int
	modules, groups      int
}

func newPlan(o Options) plan {
	p := plan{
		css:  o.Files * Mix.CSS / 100,
		json: o.Files * Mix.JSON / 100,
		svg:  o.Files * Mix.SVG / 100,
		html: o.Files * Mix.HTML / 100,
	}
	ts := o.Files - p.css - p.json - p.svg - p.html // at least 3 for MinFiles
	// ts = modules + groups (entries) + 1 (all.ts), with groups = ceil(modules/GroupSize).
	p.modules = ts - 2
	for p.modules > 1 && p.modules+(p.modules+o.GroupSize-1)/o.GroupSize+1 > ts {
		p.modules--
	}
	p.groups = (p.modules + o.GroupSize - 1) / o.GroupSize
	// Any remainder goes to CSS so that the total is exact.
	p.css += ts - (p.modules + p.groups + 1)
	return p
}

// Generate writes a tree to dir, which must be missing or empty, and
// returns what it wrote. Errors name the file.
func Generate(dir string, o Options) (*Summary, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(dir); err != nil {
		return nil, err
	}
	p := newPlan(o)
	files := make(map[string][]byte)
	add := func(name string, data []byte) { files[name] = data }
	for i := 0; i < p.css; i++ {
		add(fmt.Sprintf("css/%02d/c%04d.css", i/100, i), genCSS(newRand(o.Seed, "css", i), i, o.Size))
	}
	for i := 0; i < p.json; i++ {
		add(fmt.Sprintf("data/%02d/j%04d.json", i/100, i), genJSON(newRand(o.Seed, "json", i), i, o.Size))
	}
	for i := 0; i < p.svg; i++ {
		add(fmt.Sprintf("img/%02d/s%04d.svg", i/100, i), genSVG(newRand(o.Seed, "svg", i), i, o.Size))
	}
	for i := 0; i < p.html; i++ {
		add(fmt.Sprintf("pages/%02d/p%04d.html", i/100, i), genHTML(newRand(o.Seed, "html", i), i, o.Size, p))
	}
	genTS(o, p, add)

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	sum := &Summary{ByKind: make(map[string]int)}
	for _, name := range names {
		data := files[name]
		file := filepath.Join(dir, SourceDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return nil, err
		}
		sum.Files++
		sum.Bytes += int64(len(data))
		sum.ByKind[kindOf(name)]++
		if isEntry(name) {
			sum.Entries = append(sum.Entries, name)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ProjectFile), projectFile(), 0o644); err != nil {
		return nil, err
	}
	return sum, nil
}

// checkEmpty refuses a dir that exists and holds anything.
func checkEmpty(dir string) error {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		if err != nil {
			return &os.PathError{Op: "readdir", Path: dir, Err: err}
		}
		return fmt.Errorf("%w: %s", ErrNotEmpty, dir)
	}
	return nil
}

func kindOf(name string) string {
	switch filepath.Ext(name) {
	case ".ts":
		return "ts"
	case ".css":
		return "css"
	case ".json":
		return "json"
	case ".svg":
		return "svg"
	}
	return "html"
}
