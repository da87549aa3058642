package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Peers, as the lines that bench/run.sh reads to install them:
//
//	debian COMMAND PACKAGE          PACKAGE when COMMAND (or the absolute path) is missing
//	npm NAME@VERSION                into $BENCH_PEERS/npm
//	go NAME MODULE@VERSION PACKAGE  PACKAGE of MODULE, or the program bench/peers/NAME,
//	                                built to $BENCH_PEERS/bin/NAME in a module of its own
//	gomod NAME MODULE@VERSION       the module $BENCH_PEERS/go/NAME of the program
//	                                bench/peers/NAME, which a section builds per tree
const (
	peerHugo      = "debian hugo hugo"
	peerHyperfine = "debian hyperfine hyperfine"
	peerRsync     = "debian rsync rsync"
	peerWrk       = "debian wrk wrk"
	peerCwebp     = "debian cwebp webp"
	peerAvifenc   = "debian avifenc libavif-bin"
	peerGoBindata = "go go-bindata github.com/go-bindata/go-bindata/v3@" + goBindataVersion + " github.com/go-bindata/go-bindata/v3/go-bindata"
	peerVfsgen    = "go vfsgen-gen github.com/shurcooL/vfsgen@" + vfsgenVersion + " bench/peers/vfsgen-gen"
	peerStatigz   = "gomod statigz-server github.com/vearutop/statigz@" + statigzVersion
	// peerEsbuild is completed with the version of the Go module in go.mod.
	peerEsbuild = "npm esbuild@"

	goBindataVersion = "v3.1.3"
	vfsgenVersion    = "v0.0.0-20230704071429-0000e147ea92"
	statigzVersion   = "v1.4.0"

	rxjsVersion         = "7.8.2"
	threeVersion        = "0.187.0"
	bulmaVersion        = "1.0.4"
	viteVersion         = "8.4.0"
	compression2Version = "2.5.3"
	pluginReactVersion  = "6.3.1"
)

var (
	peersEsbuild = []string{peerEsbuild}
	// The real sources of sections h to r, from npm at pinned versions.
	peersNpm = []string{peerEsbuild, "npm rxjs@" + rxjsVersion, "npm three@" + threeVersion,
		"npm bootstrap@5.3.9", "npm bulma@" + bulmaVersion, "npm bootstrap-icons@1.13.2"}
	// The real mixed tree (see trees.go): the C compressors it is measured
	// against, Sphinx's HTML manual and the Lato fonts, and the npm sources.
	peersRealTree = append([]string{"debian brotli brotli", "debian zstd zstd",
		"debian /usr/share/doc/sphinx-doc/html sphinx-doc", "debian /usr/share/fonts/truetype/lato fonts-lato"}, peersNpm...)
	peersVite = []string{"npm vite@" + viteVersion, "npm vite-plugin-compression2@" + compression2Version}
	// React and Vite's React plugin (6.x is the line for Vite 8).
	peersReact = []string{"npm react@19.3.1", "npm react-dom@19.3.1", "npm @vitejs/plugin-react@" + pluginReactVersion}
	// MUI and the Emotion packages it styles with.
	peersMUI = []string{"npm @mui/material@9.6.0", "npm @mui/icons-material@9.6.0", "npm @emotion/react@11.14.0", "npm @emotion/styled@11.14.1"}
)

// peerLines are the peers of the chosen sections as bench/run.sh reads
// them, esbuild's version taken from the checkout's go.mod.
func peerLines(chosen []section) ([]string, error) {
	lines := peersOf(chosen)
	for i, l := range lines {
		if l == peerEsbuild {
			root, err := checkoutRoot()
			if err != nil {
				return nil, err
			}
			v, err := esbuildModuleVersion(root)
			if err != nil {
				return nil, err
			}
			lines[i] = l + v
		}
	}
	return lines, nil
}

// esbuildModuleVersion is the version of github.com/evanw/esbuild that the
// checkout's go.mod requires, without its "v".
func esbuildModuleVersion(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "github.com/evanw/esbuild" {
			return strings.TrimPrefix(f[1], "v"), nil
		}
	}
	return "", os.ErrNotExist
}

// esbuildVersion is the installed esbuild CLI's version ("": none).
func (s *suite) esbuildVersion() string {
	return firstLine(s.esbuildCLI(), "--version")
}

// esbuildCLI is the esbuild CLI that bench/run.sh installs from npm.
func (s *suite) esbuildCLI() string { return filepath.Join(s.nodeModules(), ".bin", "esbuild") }

// nodeModules is where the npm peers are installed.
func (s *suite) nodeModules() string { return filepath.Join(s.peers, "npm", "node_modules") }

// npmBin is the command an npm peer installs.
func (s *suite) npmBin(name string) string { return filepath.Join(s.nodeModules(), ".bin", name) }

// npmVersion is the version in an installed npm package's package.json.
func (s *suite) npmVersion(pkg string) string {
	var meta struct{ Version string }
	s.check(json.Unmarshal([]byte(s.readFile(filepath.Join(s.nodeModules(), pkg, "package.json"))), &meta))
	return meta.Version
}

// peerBin is a Go peer that bench/run.sh built (a "go" line).
func (s *suite) peerBin(name string) string { return filepath.Join(s.peers, "bin", name) }

// peerModule is the module of a Go peer built per tree (a "gomod" line).
func (s *suite) peerModule(name string) string { return filepath.Join(s.peers, "go", name) }
