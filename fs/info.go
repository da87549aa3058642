package fs

import (
	iofs "io/fs"
	"time"
)

// fileInfo describes a logical file or a directory. One value is built per
// file and directory in New and shared by Stat, File.Stat and ReadDir, so it
// is also the fs.DirEntry of its name.
type fileInfo struct {
	name   string
	size   int64
	mode   iofs.FileMode
	hashes []Hash
	entry  *Entry // nil for directories
}

var (
	_ HashFileInfo  = (*fileInfo)(nil)
	_ iofs.DirEntry = (*fileInfo)(nil)
)

// Name returns the base name of the logical file or directory, also when it
// was opened by its hashed name.
func (fi *fileInfo) Name() string { return fi.name }

// Size returns the length of the identity bytes; zero for a directory.
func (fi *fileInfo) Size() int64 { return fi.size }

// Mode is 0444 for files and fs.ModeDir|0555 for directories.
func (fi *fileInfo) Mode() iofs.FileMode { return fi.mode }

// ModTime is the zero time: a tree has no timestamps, its files are
// validated by hash.
func (fi *fileInfo) ModTime() time.Time { return time.Time{} }

// IsDir reports whether the info describes a directory.
func (fi *fileInfo) IsDir() bool { return fi.mode.IsDir() }

// Sys returns the file's *Entry, which must not be modified, or nil for a
// directory.
func (fi *fileInfo) Sys() any {
	if fi.entry == nil {
		return nil
	}
	return fi.entry
}

// Hash returns the SHA-256 and SHA-384 of a file (see HashFileInfo), nil
// for a directory.
func (fi *fileInfo) Hash() []Hash { return fi.hashes }

// Type returns the type bits of Mode, for fs.DirEntry.
func (fi *fileInfo) Type() iofs.FileMode { return fi.mode.Type() }

// Info returns fi itself, for fs.DirEntry.
func (fi *fileInfo) Info() (iofs.FileInfo, error) { return fi, nil }

// String formats the info like fs.FormatFileInfo.
func (fi *fileInfo) String() string { return iofs.FormatFileInfo(fi) }
