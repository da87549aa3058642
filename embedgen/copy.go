package embedgen

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
)

// treeFile is one file of the output tree that the package embeds: a
// logical file or a precompressed variant.
type treeFile struct {
	name      string // slash-separated path in the tree
	size      int64
	sha256    string // lowercase hex
	integrity string // "sha384-…" for a logical file, "" for a variant
}

// copyVerified copies the tree file f from root to the new file dst,
// checking its size and hashes on the way. root is the tree, opened with
// os.OpenRoot so that no name or symbolic link reaches outside it; treeDir
// is its path, used in errors. buf is the copy buffer.
//
// A file that is missing, not regular, or whose bytes differ from the
// manifest gives a *fs.PathError with Op "verify" naming the file in the
// tree; a mismatch wraps ErrMismatch.
func copyVerified(root *os.Root, treeDir string, f treeFile, dst string, buf []byte) error {
	path := filepath.Join(treeDir, filepath.FromSlash(f.name))
	fail := func(err error) error { return &iofs.PathError{Op: "verify", Path: path, Err: err} }

	// Stat before opening, so that a FIFO or device is refused rather
	// than opened (which could block or have side effects).
	fi, err := root.Stat(f.name)
	if err != nil {
		return fail(unwrapPathError(err))
	}
	if !fi.Mode().IsRegular() {
		return fail(fmt.Errorf("%w: not a regular file but %s", ErrMismatch, kind(fi.Mode())))
	}
	src, err := root.Open(f.name)
	if err != nil {
		return fail(unwrapPathError(err))
	}
	defer src.Close()

	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	sum := sha256.New()
	var sri hash.Hash
	w := io.MultiWriter(out, sum)
	if f.integrity != "" {
		sri = sha512.New384()
		w = io.MultiWriter(out, sum, sri)
	}
	// Read one byte more than the manifest says, to see a longer file
	// without copying all of it.
	n, err := io.CopyBuffer(w, io.LimitReader(src, f.size+1), buf)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	switch {
	case n != f.size:
		more := ""
		if n > f.size {
			more = " or more"
		}
		return fail(fmt.Errorf("%w: %d%s bytes, manifest says %d", ErrMismatch, n, more, f.size))
	case hex.EncodeToString(sum.Sum(nil)) != f.sha256:
		return fail(fmt.Errorf("%w: sha256 %x, manifest says %s", ErrMismatch, sum.Sum(nil), f.sha256))
	case sri != nil && "sha384-"+base64.StdEncoding.EncodeToString(sri.Sum(nil)) != f.integrity:
		return fail(fmt.Errorf("%w: integrity sha384-%s, manifest says %s", ErrMismatch, base64.StdEncoding.EncodeToString(sri.Sum(nil)), f.integrity))
	}
	return nil
}

// unwrapPathError returns the cause of a *fs.PathError, so that the error
// built around it names the file once, with the tree's path.
func unwrapPathError(err error) error {
	if pe, ok := errors.AsType[*iofs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// kind names the type of a file that is not regular.
func kind(m iofs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&iofs.ModeSymlink != 0:
		return "a symbolic link"
	case m&iofs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&iofs.ModeSocket != 0:
		return "a socket"
	case m&iofs.ModeDevice != 0:
		return "a device"
	}
	return "a file of mode " + m.String()
}
