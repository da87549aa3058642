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

// copyVerified copies the tree file f of the tree directory treeDir to the
// new file dst, checking its size and hashes on the way. buf is the copy
// buffer.
//
// The file is opened by its path, treePath(treeDir, f.name), and symbolic
// links are followed wherever they point: a Bazel sandbox, or any input
// laid out as a farm of links, gives the tree as links to files outside it
// (which os.Root refuses as escaping). This is safe for three reasons. The
// name cannot leave the tree by itself: it comes from a manifest that
// fs.ParseManifest validated (fs.ValidPath: relative, slash-separated, no
// "." or ".." element), checkName refused every character that is a
// separator or volume mark on some system (such as '\' and ':'), and
// treePath checks filepath.IsLocal again. A link can only bring in bytes
// that the manifest already describes: the copy is kept only when its
// size and SHA-256 (and, for a logical file, its SHA-384 integrity value)
// are the manifest's, so a link to any other file fails with ErrMismatch
// and nothing is written. And what a link resolves to must be a regular
// file: a named pipe, device, socket or directory is refused before it is
// opened (opening a pipe could block, opening a device could have side
// effects). The tree is therefore trusted as far as its manifest is: a
// link can reach any regular file the process may read, but its bytes are
// embedded only if the manifest already states their size and SHA-256.
// bakefs transform --tree reads a tree's files the same way.
//
// A file that is missing, not regular, or whose bytes differ from the
// manifest gives a *fs.PathError with Op "verify" naming the file in the
// tree; a mismatch or a file that is not regular wraps ErrMismatch.
func copyVerified(treeDir string, f treeFile, dst string, buf []byte) error {
	path, err := treePath(treeDir, f.name)
	if err != nil {
		return err
	}
	fail := func(err error) error { return &iofs.PathError{Op: "verify", Path: path, Err: err} }

	// Stat (following links) before opening, so that a FIFO or device is
	// refused rather than opened.
	fi, err := os.Stat(path)
	if err != nil {
		return fail(unwrapPathError(err))
	}
	if !fi.Mode().IsRegular() {
		return fail(fmt.Errorf("%w: not a regular file but %s", ErrMismatch, kind(fi.Mode())))
	}
	src, err := os.Open(path)
	if err != nil {
		return fail(unwrapPathError(err))
	}
	defer src.Close()
	// The file opened must be the one examined: a link or file replaced in
	// between is refused rather than read.
	if ofi, err := src.Stat(); err != nil {
		return fail(unwrapPathError(err))
	} else if !os.SameFile(fi, ofi) {
		return fail(fmt.Errorf("%w: replaced while being read", ErrMismatch))
	}

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

// treePath returns the path of the tree file name, a slash-separated name
// from the manifest, inside the tree directory treeDir. A name that is not
// local to the tree on this system (see filepath.IsLocal) is refused with
// a *fs.PathError (Op "embed", wrapping ErrName); treeFiles has refused
// such names already, so this only guards the one place where a name
// becomes a path.
func treePath(treeDir, name string) (string, error) {
	rel := filepath.FromSlash(name)
	if !iofs.ValidPath(name) || name == "." || !filepath.IsLocal(rel) {
		return "", &iofs.PathError{Op: "embed", Path: name, Err: fmt.Errorf("%w: not a path inside the tree", ErrName)}
	}
	return filepath.Join(treeDir, rel), nil
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
