// Package compress holds the finishing steps that add precompressed
// variants of an asset: gzip (the standard library), br (molecule-man/go-brrr,
// byte for byte the output of Google's C library) and zstd
// (klauspost/compress), each at fixed, documented levels per
// profile so that the bytes are the same on every machine. The encoders of
// the best levels share a memory budget (encodermem.go), and every encoder
// stops within 64 KiB of input once the context is done.
//
// Importing the package registers them with package transform:
//
//	import _ "github.com/bakefs/bakefs/transform/compress"
package compress
