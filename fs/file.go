package fs

import (
	"errors"
	"io"
	iofs "io/fs"
)

// A file is an open logical file. It reads the tree through an io.ReaderAt
// and keeps its own offset, so it implements io.Seeker and io.ReaderAt
// whatever the tree's files implement, as http.ServeContent needs.
type file struct {
	n      *node
	name   string // as opened: logical or hashed, relative to the FS
	ra     io.ReaderAt
	closer io.Closer // nil when ra is shared
	off    int64
	closed bool
}

var (
	_ iofs.File   = (*file)(nil)
	_ io.Seeker   = (*file)(nil)
	_ io.ReaderAt = (*file)(nil)
)

// Stat returns the same FileInfo as FS.Stat.
func (f *file) Stat() (iofs.FileInfo, error) {
	if f.closed {
		return nil, &iofs.PathError{Op: "stat", Path: f.name, Err: iofs.ErrClosed}
	}
	return &f.n.info, nil
}

// Read reads from the current offset.
func (f *file) Read(p []byte) (int, error) {
	if f.closed {
		return 0, &iofs.PathError{Op: "read", Path: f.name, Err: iofs.ErrClosed}
	}
	size := f.n.info.size
	if f.off >= size {
		return 0, io.EOF
	}
	if int64(len(p)) > size-f.off {
		p = p[:size-f.off]
	}
	k, err := f.readAt(p, f.off)
	f.off += int64(k)
	return k, err
}

// ReadAt reads len(p) bytes at off without changing the offset. It may be
// called concurrently with other ReadAt calls.
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, &iofs.PathError{Op: "read", Path: f.name, Err: iofs.ErrClosed}
	}
	if off < 0 {
		return 0, &iofs.PathError{Op: "read", Path: f.name, Err: errNegativeOffset}
	}
	size := f.n.info.size
	if off >= size {
		return 0, io.EOF
	}
	short := false
	if int64(len(p)) > size-off {
		p, short = p[:size-off], true
	}
	k, err := f.readAt(p, off)
	if err == nil && short {
		err = io.EOF
	}
	return k, err
}

// readAt reads exactly len(p) bytes at off, which lie within the file: a
// tree file that ends early gives io.ErrUnexpectedEOF.
func (f *file) readAt(p []byte, off int64) (int, error) {
	k, err := f.ra.ReadAt(p, off)
	if k == len(p) {
		return k, nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return k, &iofs.PathError{Op: "read", Path: f.name, Err: err}
}

var (
	errNegativeOffset = errors.New("negative offset")
	errWhence         = errors.New("invalid whence")
)

// Seek sets the offset for the next Read, relative to the start (io.SeekStart),
// the current offset (io.SeekCurrent) or the end (io.SeekEnd). Seeking past
// the end is allowed; before the start is an error.
func (f *file) Seek(offset int64, whence int) (int64, error) {
	if f.closed {
		return 0, &iofs.PathError{Op: "seek", Path: f.name, Err: iofs.ErrClosed}
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += f.n.info.size
	default:
		return 0, &iofs.PathError{Op: "seek", Path: f.name, Err: errWhence}
	}
	if offset < 0 {
		return 0, &iofs.PathError{Op: "seek", Path: f.name, Err: errNegativeOffset}
	}
	f.off = offset
	return offset, nil
}

// Close closes the file; further calls fail with fs.ErrClosed.
func (f *file) Close() error {
	if f.closed {
		return &iofs.PathError{Op: "close", Path: f.name, Err: iofs.ErrClosed}
	}
	f.closed = true
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

// A dirFile is an open directory.
type dirFile struct {
	entries []iofs.DirEntry // as the FS shows them; shared, never modified
	info    *fileInfo
	name    string
	off     int
	closed  bool
}

var _ iofs.ReadDirFile = (*dirFile)(nil)

// Stat returns the same FileInfo as FS.Stat.
func (f *dirFile) Stat() (iofs.FileInfo, error) {
	if f.closed {
		return nil, &iofs.PathError{Op: "stat", Path: f.name, Err: iofs.ErrClosed}
	}
	return f.info, nil
}

// Read fails with ErrIsDir.
func (f *dirFile) Read([]byte) (int, error) {
	return 0, &iofs.PathError{Op: "read", Path: f.name, Err: ErrIsDir}
}

// ReadDir returns the next entries, sorted by name, as fs.ReadDirFile
// documents: with n > 0 at most n and io.EOF at the end, with n <= 0 all
// that remain.
func (f *dirFile) ReadDir(n int) ([]iofs.DirEntry, error) {
	if f.closed {
		return nil, &iofs.PathError{Op: "readdir", Path: f.name, Err: iofs.ErrClosed}
	}
	rest := f.entries[f.off:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	f.off += len(rest)
	return append([]iofs.DirEntry(nil), rest...), nil
}

// Close closes the directory; further calls fail with fs.ErrClosed.
func (f *dirFile) Close() error {
	if f.closed {
		return &iofs.PathError{Op: "close", Path: f.name, Err: iofs.ErrClosed}
	}
	f.closed = true
	return nil
}
