package fs

import (
	"bytes"
	"fmt"
	"io"
	iofs "io/fs"
	"sync"
	"sync/atomic"
)

// A blob is one byte sequence of the tree: the identity bytes of an entry
// or one of its encoded variants.
type blob struct {
	path string // where the bytes are in the tree
	size int64
	// shared holds the file of the tree, opened once and kept for the life
	// of the FS, when it can be read concurrently without an OS resource:
	// embed.FS, fstest.MapFS and other in-memory trees (see open).
	shared atomic.Pointer[sharedReader]
}

type sharedReader struct{ io.ReaderAt }

// fdFile is implemented by files backed by an operating-system descriptor,
// such as *os.File.
type fdFile interface{ Fd() uintptr }

// open returns a reader of the blob's bytes and, when it must be closed
// after use, its closer.
//
// Files of the tree that implement io.ReaderAt and hold no OS descriptor
// (embed.FS, fstest.MapFS) are opened once and shared: io.ReaderAt allows
// parallel calls, and keeping them costs nothing. Descriptor-backed files
// (os.DirFS) are opened per call and closed by the caller. Files without
// io.ReaderAt are read into memory per call. A file whose size differs from
// the manifest's is an error wrapping ErrTree.
func (b *blob) open(data iofs.FS) (io.ReaderAt, io.Closer, error) {
	if s := b.shared.Load(); s != nil {
		return s.ReaderAt, nil, nil
	}
	f, err := data.Open(b.path)
	if err != nil {
		return nil, nil, err
	}
	ra, isRA := f.(io.ReaderAt)
	_, isFD := f.(fdFile)
	if isRA {
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		if fi.Size() != b.size {
			f.Close()
			return nil, nil, fmt.Errorf("%w: %s: size %d, manifest says %d", ErrTree, b.path, fi.Size(), b.size)
		}
		if isFD {
			return ra, f, nil
		}
		if !b.shared.CompareAndSwap(nil, &sharedReader{ra}) {
			f.Close()
			return b.shared.Load().ReaderAt, nil, nil
		}
		return ra, nil, nil
	}
	defer f.Close()
	buf := make([]byte, b.size+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, nil, err
	}
	if int64(n) != b.size {
		return nil, nil, fmt.Errorf("%w: %s: size changed, manifest says %d", ErrTree, b.path, b.size)
	}
	return bytes.NewReader(buf[:n]), nil, nil
}

// Sizes of the pooled buffers through which copyAt writes: copyBufClasses
// powers of two from minCopyBuf to maxCopyBuf.
const (
	minCopyBuf     = 32 << 10
	copyBufClasses = 4
	maxCopyBuf     = minCopyBuf << (copyBufClasses - 1) // 256 KB
)

// copyBufs[i] holds buffers of minCopyBuf<<i bytes.
var copyBufs [copyBufClasses]sync.Pool

// copyBuf returns a pooled buffer for n bytes, the smallest that holds
// them or else the largest, and its pool.
func copyBuf(n int64) (*[]byte, *sync.Pool) {
	i := 0
	for i < len(copyBufs)-1 && minCopyBuf<<i < n {
		i++
	}
	bp, _ := copyBufs[i].Get().(*[]byte)
	if bp == nil {
		b := make([]byte, minCopyBuf<<i)
		bp = &b
	}
	return bp, &copyBufs[i]
}

// copyAt writes the n bytes of ra at off to w through a pooled buffer,
// without allocating. Up to maxCopyBuf bytes go to w in one Write, which a
// net/http response sends with one system call after the one that carries
// the header and the first few KB; pieces of 32 KB, as io.Copy writes,
// cost one system call each, and one more for a last piece shorter than
// the connection's 4 KB buffer. The buffer, at most maxCopyBuf, is held
// until w has taken the bytes.
func copyAt(w io.Writer, ra io.ReaderAt, off, n int64) error {
	bp, pool := copyBuf(n)
	defer pool.Put(bp)
	buf := *bp
	for n > 0 {
		chunk := buf
		if int64(len(chunk)) > n {
			chunk = chunk[:n]
		}
		k, err := ra.ReadAt(chunk, off)
		if k > 0 {
			if _, werr := w.Write(chunk[:k]); werr != nil {
				return werr
			}
			off += int64(k)
			n -= int64(k)
		}
		if k == 0 && err == nil {
			return io.ErrNoProgress
		}
		if err != nil && (err != io.EOF || n > 0) {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}
