package fs

import iofs "io/fs"

// A Hash is one content hash of a file. It has the shape of the io/fs Hash
// accepted in the Go proposal "io/fs, net/http: define interface for
// automatic ETag serving" (golang/go#60940), which is not in the standard
// library yet.
type Hash struct {
	// Algorithm names the hash like its Go package, lowercase without a
	// dash: "sha256", "sha384".
	Algorithm string
	// Sum is the raw digest. It is shared: callers must not modify it.
	Sum []byte
}

// A HashFileInfo is a FileInfo that knows the hashes of its file's content
// without reading it, the extension interface of golang/go#60940.
//
// Every FileInfo of a regular file returned by this package (FS.Stat,
// File.Stat, DirEntry.Info) implements HashFileInfo: Hash returns, in this
// order, the build-time SHA-256 and the SHA-384 of the Subresource
// Integrity value, both of the identity bytes. Directories return nil.
//
// Hash runs in constant time and returns the same slice on every call;
// callers must not modify it.
type HashFileInfo interface {
	iofs.FileInfo
	Hash() []Hash
}
