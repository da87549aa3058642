package transform

import (
	_ "unsafe" // for go:linkname

	_ "github.com/gen2brain/avif" // the variables linked below
	_ "github.com/gen2brain/webp"
)

// The WebP and AVIF encoders are libwebp and libavif (with libaom) compiled
// to WebAssembly and run by wazero, in pure Go: no cgo, and the same
// encoder, hence the same bytes, on every machine and in every build
// system.
//
// Cost: each library compiles its module once per process, on first use
// (a sync.Once inside the library), and instantiates it afresh for every
// image, so that concurrent encodes share the compiled code and nothing
// else. On the 2-core machine of bench/run.sh the compile takes about
// 0.5 s (libwebp) and 2–3 s (libavif's encoder); a warm 960×640 encode then
// takes about 0.1 s (WebP) and 1 s (AVIF, speed 8). Each instance holds
// the image in its linear memory, a few times its RGBA size, released when
// the encode returns. The wasm code runs without the Context: a cancelled
// build stops after the image being encoded.
//
// Both libraries would rather use a shared libwebp.so or libavif.so found
// on the machine (loaded with dlopen in their init functions), which would
// make the bytes depend on what the machine has installed. The variables
// below are their switches; init turns them off, so the WebAssembly build
// is always used.

//go:linkname webpDynamic github.com/gen2brain/webp.dynamic
var webpDynamic bool

//go:linkname avifDynamic github.com/gen2brain/avif.dynamic
var avifDynamic bool

func init() {
	webpDynamic, avifDynamic = false, false
}

// wasmCodecs reports whether both libraries encode with their WebAssembly
// build, as init arranges.
func wasmCodecs() bool { return !webpDynamic && !avifDynamic }
