package main

import "slices"

// A section is one comparison of the report, in a file of its own.
type section struct {
	name  string
	title string   // one line for -help
	goal  bool     // checks a goal of the performance work
	peers []string // what bench/run.sh installs for it (see peers.go)
	run   func(*suite)
}

// sections in the report's order.
var sections = []section{
	{"cold", "a. cold and warm builds of the synthetic tree and the example", false, nil, cold},
	{"bundle", "b. bundle + minify one TypeScript entry against the esbuild CLI", false, peersEsbuild, bundle},
	{"minify", "b'. minify CSS, JSON, SVG, HTML against Hugo", false, []string{peerHugo}, minify},
	{"warm", "c. warm no-change build, hyperfine, against rsync and cp", false, []string{peerHyperfine, peerRsync}, warm},
	{"change", "d. one file changed", false, nil, change},
	{"serve", "e. the handler against http.FileServer, with wrk", false, []string{peerWrk}, serve},
	{"compile", "f. compile cost of the generated package against go:embed, go-bindata, vfsgen", false, []string{peerGoBindata, peerVfsgen}, compile},
	{"images", "g. WebP and AVIF against cwebp and avifenc", false, []string{peerCwebp, peerAvifenc}, images},
	{"rxjs", "h. bundle + minify rxjs against the esbuild CLI", true, peersNpm, rxjs},
	{"three", "i. three.js ×10 against the esbuild CLI", true, peersNpm, three},
	{"real", "j. the real tree cold against the C CLIs; peak RSS with photos", true, peersRealTree, real},
	{"pkgrss", "k. peak RSS of a cold build of bench/gen 1,000 with a [package]", true, nil, pkgrss},
	{"nochange", "l. no-change builds against rsync", true, append([]string{peerRsync}, peersRealTree...), nochange},
	{"init", "m. init of the generated package of the real tree", true, peersRealTree, initCost},
	{"devedit", "n. bakefs dev: one HTML edit to new bytes served", true, peersRealTree, devedit},
	{"css", "o. serving bulma.min.css: the handler against statigz and http.FileServer", true, append([]string{peerWrk, peerStatigz}, peersNpm...), css},
	{"vite", "p. vite build with compression against bakefs build", true, append(slices.Clone(peersNpm), peersVite...), vite},
	{"imaging", "q. resize + JPEG: disintegration/imaging direct against the resize step", true, nil, imaging},
	{"lazy", "r. a React app with lazy routes: vite build against bakefs build", true, append(append(slices.Clone(peersNpm), peersVite...), peersReact...), lazy},
	{"mui", "t. a React 19 + MUI app: vite build against bakefs build", true, append(append(append(slices.Clone(peersNpm), peersVite...), peersReact...), peersMUI...), mui},
	{"delta", "delta updates on release pairs from npm (bench/delta)", false, nil, delta},
}

// sectionNamed returns the section called name.
func sectionNamed(name string) (section, bool) {
	i := slices.IndexFunc(sections, func(s section) bool { return s.name == name })
	if i < 0 {
		return section{}, false
	}
	return sections[i], true
}

func sectionNames() []string {
	names := make([]string, len(sections))
	for i, s := range sections {
		names[i] = s.name
	}
	return names
}

// peersOf returns the peers of the chosen sections, each once, in order.
func peersOf(chosen []section) []string {
	var all []string
	for _, s := range chosen {
		for _, p := range s.peers {
			if !slices.Contains(all, p) {
				all = append(all, p)
			}
		}
	}
	return all
}
