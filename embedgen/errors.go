package embedgen

import "errors"

// ErrOptions reports an Options value that Generate cannot use: a package
// name that is not a Go identifier, an import path with characters an
// import path cannot hold, a tree and package directory that overlap.
var ErrOptions = errors.New("embedgen: invalid options")

// ErrName reports a file of the tree whose name //go:embed cannot take, or
// that cannot live beside another file in a module on every system Go
// supports (a name that differs from another only in case). The error is a
// *fs.PathError with Op "embed" whose Path is the name in the manifest.
var ErrName = errors.New("embedgen: name cannot be embedded")

// ErrMismatch reports a file of the tree whose bytes differ from what the
// manifest says (size, SHA-256 or, for a logical file, its integrity
// value), or that is not a regular file. The error is a *fs.PathError with
// Op "verify" whose Path is the file in the tree.
var ErrMismatch = errors.New("embedgen: file does not match the manifest")

// ErrForeignDir reports a package directory that holds files Generate did
// not write, which it therefore refuses to replace. The error is a
// *fs.PathError with Op "replace" whose Path is the first such file.
var ErrForeignDir = errors.New("embedgen: directory holds files the generator did not write")
