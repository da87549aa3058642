package images

import (
	"context"
	"sync"
	_ "unsafe" // for go:linkname

	"github.com/gen2brain/avif"
	"github.com/gen2brain/webp"
	"github.com/tetratelabs/wazero"
)

// wazeroReady creates and closes one wazero runtime before either library
// makes its first: wazero sets a package variable (its version) on the
// first runtime of the process without synchronization, so two libraries
// starting their runtimes at once race (the race detector reports it).
// Every use of the libraries calls it first; later calls cost nothing.
var wazeroReady = sync.OnceFunc(func() {
	ctx := context.Background()
	wazero.NewRuntime(ctx).Close(ctx)
})

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
// the encode returns. The wasm code cannot be stopped midway; wasmEncode
// returns as soon as the build is cancelled all the same.
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

// wasmEncode runs encode, a WebAssembly encode that cannot be stopped
// midway, and returns its result, or ctx's error as soon as ctx is done:
// an interrupted build does not wait for an AVIF encode of several
// seconds. An abandoned encode runs on to its end in the background and
// its result is dropped; there is at most one per image being encoded.
func wasmEncode(ctx context.Context, encode func() ([]byte, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := encode()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// warmEncoders starts compiling, in the background, the modules of the
// given output formats that encode in WebAssembly ("webp", "avif"), so
// that the compilation overlaps the decoding and resizing that come
// before the first encode. A step calls it when it runs, never when it is
// built, so that a build answered from the cache compiles nothing.
func warmEncoders(formats ...string) {
	wazeroReady()
	for _, f := range formats {
		switch f {
		case "webp":
			go webp.Init()
		case "avif":
			go avif.InitEncoder()
		}
	}
}
