// Package toolid names the code that makes an output's bytes: bakefs's own
// version, the Go toolchain and the versions of the modules that produce
// bytes (esbuild, the minifiers, the image and compression libraries, and
// wazero, which runs the WebP and AVIF encoders). The
// transform cache puts it in every key, so that an upgrade of any of them
// never answers from the cache with the old code's output.
package toolid

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/bakefs/bakefs/internal/streamfile"
)

// ByteMakers are the module paths whose code produces output bytes. Their
// versions (and go.sum hashes, which change with a replace directive) are
// part of Identity.
var ByteMakers = []string{
	"github.com/disintegration/imaging",
	"github.com/evanw/esbuild",
	"github.com/gen2brain/avif",
	"github.com/gen2brain/webp",
	"github.com/klauspost/compress",
	"github.com/molecule-man/go-brrr",
	"github.com/tdewolff/minify/v2",
	"github.com/tdewolff/parse/v2",
	"github.com/tetratelabs/wazero",
	"golang.org/x/image",
}

// A Module is one module of the running binary, as its build information
// records it.
type Module struct {
	Path    string
	Version string // "(devel)" for the main module built from a work tree
	Sum     string // the go.sum hash; empty for the main module
}

// Info is what the running binary knows of its own build.
type Info struct {
	Main  Module
	Go    string   // runtime.Version()
	Deps  []Module // the ByteMakers linked into the binary, in ByteMakers order
	Exact bool     // Main has a released version: Identity needs no executable hash
}

// Read returns the running binary's build information. A binary without
// any (one not built by the go command) gives an Info with only Go set.
func Read() Info {
	info := Info{Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.Main = Module{Path: bi.Main.Path, Version: bi.Main.Version, Sum: bi.Main.Sum}
	info.Exact = bi.Main.Version != "" && bi.Main.Version != "(devel)" && !strings.Contains(bi.Main.Version, "+dirty")
	for _, want := range ByteMakers {
		for _, d := range bi.Deps {
			if d.Path != want {
				continue
			}
			if d.Replace != nil {
				d = d.Replace
			}
			info.Deps = append(info.Deps, Module{Path: want, Version: d.Version, Sum: d.Sum})
		}
	}
	return info
}

// String describes the information one module a line, as bakefs version
// prints it.
func (i Info) String() string {
	var b strings.Builder
	main := i.Main.Version
	if main == "" {
		main = "(unknown)"
	}
	fmt.Fprintf(&b, "bakefs %s\n%s\n", main, i.Go)
	for _, d := range i.Deps {
		fmt.Fprintf(&b, "%s %s\n", d.Path, d.Version)
	}
	return b.String()
}

// Identity returns a hex SHA-256 that changes whenever the code that makes
// bytes may have changed: it covers Info and, when the main module has no
// released version (a development build, a test binary, a binary without
// build information), the running executable itself: its Go build ID
// (see goBuildID), as Go's build cache keys on its tools' build IDs, or,
// for an executable without one, its SHA-256. sum hashes a file; nil means
// reading the whole executable, which a caller with an index of file
// hashes can avoid.
func Identity(sum func(file string) (string, error)) (string, error) {
	return identityOf(Read(), func() (string, error) { return executableID(sum) })
}

// executableID names the running executable: "buildid <id>", or
// "executable <sha256>" through sum (streamfile.SHA256Hex when nil).
func executableID(sum func(file string) (string, error)) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("toolid: finding the running executable: %w", err)
	}
	if id, ok := goBuildID(exe); ok {
		return "buildid " + id, nil
	}
	if sum == nil {
		sum = streamfile.SHA256Hex
	}
	s, err := sum(exe)
	if err != nil {
		return "", fmt.Errorf("toolid: hashing the running executable: %w", err)
	}
	return "executable " + s, nil
}

// identityOf is Identity for the build information info, with exe naming
// the executable when info is not Exact.
func identityOf(info Info, exe func() (string, error)) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s", info)
	for _, d := range info.Deps {
		fmt.Fprintf(h, "%s %s\n", d.Path, d.Sum)
	}
	if !info.Exact {
		id, err := exe()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\n", id)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
