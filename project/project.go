// Package project reads a bakefs project file (bakefs.toml) and turns it
// into transform jobs.
//
// A project file is TOML: it has comments, reads well as a list of rules,
// and its parser reports the line and column of a mistake. Every path in it
// is relative to the directory of the file. Reference lists every key
// (bakefs help project prints it).
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/pipeline/remote"
	"github.com/bakefs/bakefs/transform"
)

// DefaultFile is the project file name looked for when none is given.
const DefaultFile = "bakefs.toml"

// ErrProject reports a project file that cannot be used. The error text
// names the file and, where known, the line.
var ErrProject = errors.New("project: invalid project file")

// A Project is a loaded project file with every path made absolute.
type Project struct {
	File string // the project file
	Src  string // source root
	// Out is the output tree. A project with a [package] may name none:
	// the package embeds a copy of the tree, and the tree is then kept
	// in the cache directory (TreeInCache), where the next build updates
	// it.
	Out         string
	TreeInCache bool
	Cache       string // cache directory, "" for none
	// CacheSize bounds the cache in bytes (pipeline.Cache.MaxSize); 0
	// means the default.
	CacheSize int64
	// RemoteCache is the URL of a remote cache (remote.HTTPStore), ""
	// for none. It holds no credentials: the project file refuses a URL
	// with user information.
	RemoteCache string
	Profile     transform.Profile
	// Base is the URL path the output tree's root is served under, for
	// root-relative references; "" means "/".
	Base string
	// Strict makes every warning an error: a reference to a local file
	// that is not in the tree, a classic script a bundle keeps nothing of.
	Strict  bool
	Package *Package // nil when the project writes no Go package
	// Previous is the release before this one, from [delta]; nil when the
	// project makes no deltas. Releases is how many releases back files
	// are kept.
	Previous *pipeline.Release
	Releases int
	Rules    []Rule
	raw      []byte
}

// A Package says where bakefs build writes the generated Go package.
type Package struct {
	Dir, Name, ImportPath string
}

// fileFormat mirrors the TOML.
type fileFormat struct {
	Src       string       `toml:"src"`
	Out       string       `toml:"out"`
	Cache     *string      `toml:"cache"`
	CacheSize string       `toml:"cache_size"`
	Remote    string       `toml:"remote_cache"`
	Profile   string       `toml:"profile"`
	Compress  []string     `toml:"compress"`
	Hash      bool         `toml:"hash"`
	Base      string       `toml:"base"`
	Strict    bool         `toml:"strict"`
	Package   *packageTOML `toml:"package"`
	Delta     *deltaTOML   `toml:"delta"`
	Rules     []ruleTOML   `toml:"rule"`
}

type deltaTOML struct {
	Previous string `toml:"previous"`
	Releases *int   `toml:"releases"`
}

// defaultReleases is how many releases back files are kept when [delta]
// does not say.
const defaultReleases = 2

type packageTOML struct {
	Dir    string `toml:"dir"`
	Name   string `toml:"name"`
	Import string `toml:"import"`
}

// treeInCacheDir is the output tree's directory in the cache directory, for
// a project that names no out.
const treeInCacheDir = "tree"

var compressSteps = map[string]bool{"br": true, "gzip": true, "zstd": true}

// Load reads and checks a project file: unknown keys, missing fields, bad
// steps and bad compression names are errors naming the file and line.
func Load(file string) (*Project, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	p := &Project{File: abs, raw: raw}
	fail := func(line int, format string, args ...any) error {
		if line > 0 {
			return fmt.Errorf("%w: %s:%d: %s", ErrProject, file, line, fmt.Sprintf(format, args...))
		}
		return fmt.Errorf("%w: %s: %s", ErrProject, file, fmt.Sprintf(format, args...))
	}
	var f fileFormat
	md, err := toml.Decode(string(raw), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fail(pe.Position.Line, "%s", pe.Message)
		}
		return nil, fail(0, "%v", err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, fail(p.lineOf(undecoded[0].String()+" ", 0), "unknown key %q", undecoded[0].String())
	}
	dir := filepath.Dir(abs)
	// Paths are relative to the project file's directory, unless absolute.
	resolve := func(name string) string {
		if filepath.IsAbs(name) {
			return filepath.Clean(name)
		}
		return filepath.Join(dir, name)
	}
	if f.Src == "" {
		return nil, fail(0, "src is required")
	}
	p.Src = resolve(f.Src)
	p.Cache = filepath.Join(dir, ".bakefs-cache")
	if f.Cache != nil {
		p.Cache = ""
		if *f.Cache != "" {
			p.Cache = resolve(*f.Cache)
		}
	}
	switch {
	case f.Out != "":
		p.Out = resolve(f.Out)
	case f.Package == nil:
		return nil, fail(0, "out is required: without a [package], the output tree is what the build makes")
	case p.Cache == "":
		return nil, fail(p.lineOfKey("cache", 0), "out is required with cache = \"\": without out, the output tree is kept in the cache directory")
	default:
		p.Out, p.TreeInCache = filepath.Join(p.Cache, treeInCacheDir), true
	}
	if f.CacheSize != "" {
		if p.CacheSize, err = pipeline.ParseByteSize(f.CacheSize); err != nil {
			return nil, fail(p.lineOf("cache_size", 0), "%v", err)
		}
		if p.CacheSize == 0 {
			return nil, fail(p.lineOf("cache_size", 0), "cache_size must be more than 0 (to use no cache, set cache = \"\")")
		}
	}
	if f.Remote != "" {
		u, err := remote.ParseURL(f.Remote)
		if err != nil {
			return nil, fail(p.lineOf("remote_cache", 0), "remote_cache: %v", err)
		}
		if u.User != nil {
			return nil, fail(p.lineOf("remote_cache", 0), "remote_cache: credentials do not belong in the project file; give them in $BAKEFS_REMOTE_HEADER or --remote-header")
		}
		p.RemoteCache = f.Remote
	}
	switch transform.Profile(f.Profile) {
	case "", transform.Release:
		p.Profile = transform.Release
	case transform.Dev:
		p.Profile = transform.Dev
	default:
		return nil, fail(p.lineOf("profile", 0), "profile %q is not release or dev", f.Profile)
	}
	for _, c := range f.Compress {
		if !compressSteps[c] {
			return nil, fail(p.lineOf("compress", 0), "compress: %q is not br, gzip or zstd", c)
		}
	}
	if f.Base != "" && !strings.HasPrefix(f.Base, "/") {
		return nil, fail(p.lineOf("base", 0), "base %q must be a URL path starting with /", f.Base)
	}
	p.Base, p.Strict = f.Base, f.Strict
	if f.Package != nil {
		if f.Package.Dir == "" || f.Package.Name == "" {
			return nil, fail(p.lineOf("[package]", 0), "package: dir and name are required")
		}
		p.Package = &Package{Dir: resolve(f.Package.Dir), Name: f.Package.Name, ImportPath: f.Package.Import}
	}
	if f.Delta != nil {
		line := p.lineOf("[delta]", 0)
		if f.Delta.Previous == "" {
			return nil, fail(line, "delta: previous is required: the output tree of the release before, as deployed")
		}
		previous := resolve(f.Delta.Previous)
		if rel, err := filepath.Rel(p.Out, previous); err == nil && !strings.HasPrefix(rel, "..") {
			return nil, fail(p.lineOfKey("previous", line), "delta: previous %s is the output tree or inside it; keep the release before in a directory of its own", f.Delta.Previous)
		}
		p.Releases = defaultReleases
		if f.Delta.Releases != nil {
			if p.Releases = *f.Delta.Releases; p.Releases < 1 {
				return nil, fail(p.lineOfKey("releases", line), "delta: releases must be 1 or more")
			}
		}
		if p.Previous, err = pipeline.LoadRelease(previous); err != nil {
			return nil, fail(p.lineOfKey("previous", line), "delta: %v", err)
		}
	}
	if len(f.Rules) == 0 {
		return nil, fail(0, "no [[rule]]: nothing would be built")
	}
	ruleLine := 0
	for i, r := range f.Rules {
		ruleLine = p.lineOf("[[rule]]", ruleLine+1)
		rule, err := p.newRule(r, f, ruleLine)
		if err != nil {
			return nil, fail(rule.line, "rule %d: %v", i+1, err)
		}
		p.Rules = append(p.Rules, rule)
	}
	return p, nil
}

// lineOf returns the 1-based line of the first occurrence of text at or
// after line from, or from itself when it does not occur.
func (p *Project) lineOf(text string, from int) int {
	lines := strings.Split(string(p.raw), "\n")
	for i := max(from-1, 0); i < len(lines); i++ {
		if strings.Contains(lines[i], text) {
			return i + 1
		}
	}
	return from
}

// lineOfKey returns the line of the key assignment "key = …" in the table
// that starts at line from (a "[[rule]]" line), or from when the table has
// no such key.
func (p *Project) lineOfKey(key string, from int) int {
	lines := strings.Split(string(p.raw), "\n")
	for i := from; i < len(lines); i++ { // lines[from] is the line after the header
		text := strings.TrimSpace(lines[i])
		if strings.HasPrefix(text, "[") {
			break // the next table
		}
		if rest, ok := strings.CutPrefix(text, key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
	}
	return from
}
