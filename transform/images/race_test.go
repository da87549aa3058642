//go:build race

package images

// raceEnabled is set under the race detector, where compiling libavif's
// WebAssembly module (wazero's compiler, instrumented) takes about 15 s
// instead of 3: the AVIF encodes are left to the normal run, and the
// concurrent WebP encodes cover the same shared-module code under race.
const raceEnabled = true
