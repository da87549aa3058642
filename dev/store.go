package dev

import (
	"bytes"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// A store holds the bytes of the builds a Server still serves, one copy
// per distinct content, named by its SHA-256. A build shares every file
// whose bytes did not change with the builds before it, and a rebuild
// fetches only the files whose bytes are new: no tree is copied or linked
// per build. The first build's files, and any large set of new files, go
// to a directory; the few files of an edit are kept in memory, up to
// 64 MiB in all, so that serving them needs no write. A store is used
// under the Server's build lock.
type store struct {
	dir      string
	refs     map[string]int    // sum -> names of the trees in the store that have it
	mem      map[string][]byte // sum -> bytes, for the files kept in memory
	memBytes int64
	// The new files of one build are kept in memory when they are at
	// most maxAdd bytes and the memory holds at most max bytes with them.
	maxAdd, max int64
}

func newStore(dir string) *store {
	return &store{dir: dir, refs: make(map[string]int), mem: make(map[string][]byte), maxAdd: 4 << 20, max: 64 << 20}
}

// add fetches the files of res that the store lacks and returns the data
// of its tree, described by m, for fs.NewVerified. The tree stays in the
// store until release.
func (st *store) add(res *pipeline.Result, m *bakefs.Manifest) (*storeFS, error) {
	type file struct {
		name, sum string
		size      int64
	}
	var missing []file
	var size int64
	t := &storeFS{dir: st.dir, m: m}
	t.each(func(name, sum string, n int64) {
		if st.refs[sum] == 0 {
			missing = append(missing, file{name, sum, n}) // once: the count is 1 now
			size += n
		}
		st.refs[sum]++
	})
	inMemory := size <= st.maxAdd && st.memBytes+size <= st.max
	if !inMemory {
		if err := os.MkdirAll(st.dir, 0o755); err != nil {
			st.release(t)
			return nil, err
		}
	}
	// Fetching the bytes verifies them against their hash: a first build
	// reads the whole tree, so it does so in parallel.
	errs := make([]error, len(missing))
	data := make([][]byte, len(missing))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(len(missing), runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := missing[i]
				data[i], errs[i] = res.ReadFile(f.name)
				if errs[i] == nil && !inMemory {
					errs[i] = st.write(f.sum, data[i])
					data[i] = nil
				}
			}
		}()
	}
	for i := range missing {
		next <- i
	}
	close(next)
	wg.Wait()
	if inMemory {
		for i, f := range missing {
			if errs[i] == nil {
				st.mem[f.sum] = data[i]
				st.memBytes += int64(len(data[i]))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		st.release(t)
		return nil, err
	}
	if len(st.mem) > 0 {
		t.mem = make(map[string][]byte)
		t.each(func(_, sum string, _ int64) {
			if b, ok := st.mem[sum]; ok {
				t.mem[sum] = b
			}
		})
	}
	return t, nil
}

// write stores data under sum in the directory.
func (st *store) write(sum string, data []byte) error {
	file := filepath.Join(st.dir, sum)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		os.Remove(file)
		return err
	}
	return nil
}

// release takes the tree t out of the store, dropping the files that no
// other tree has.
func (st *store) release(t *storeFS) {
	if t == nil {
		return
	}
	t.each(func(_, sum string, _ int64) {
		if st.refs[sum]--; st.refs[sum] > 0 {
			return
		}
		delete(st.refs, sum)
		if b, ok := st.mem[sum]; ok {
			delete(st.mem, sum)
			st.memBytes -= int64(len(b))
		} else {
			os.Remove(filepath.Join(st.dir, sum))
		}
	})
}

// A storeFS is the output tree of one build, its files in a store: the
// data given to fs.NewVerified. Open gives the file at a path of the
// manifest (an entry's or a variant's); there are no directories.
type storeFS struct {
	dir string
	m   *bakefs.Manifest  // the tree; not changed after the build
	mem map[string][]byte // the tree's files that the store keeps in memory, by sum
}

// each calls f with the path, SHA-256 and size of every file of the tree,
// the variants' included.
func (s *storeFS) each(f func(name, sum string, size int64)) {
	for _, e := range s.m.Files {
		f(e.Path, e.SHA256, e.Size)
		for _, enc := range e.Encodings {
			f(enc.Path, enc.SHA256, enc.Size)
		}
	}
}

// sum returns the SHA-256 of the file name of the tree: an entry's path or
// one of its variants' (the entry's path and a suffix).
func (s *storeFS) sum(name string) (string, bool) {
	if e, ok := s.m.Lookup(name); ok {
		return e.SHA256, true
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if e, ok := s.m.Lookup(name[:i]); ok {
			for _, enc := range e.Encodings {
				if enc.Path == name {
					return enc.SHA256, true
				}
			}
		}
	}
	return "", false
}

var _ iofs.FS = (*storeFS)(nil)

// Open opens the file name of the tree: an *os.File under another name,
// or bytes in memory. Its Stat gives name's base name.
func (s *storeFS) Open(name string) (iofs.File, error) {
	if !iofs.ValidPath(name) {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrInvalid}
	}
	sum, ok := s.sum(name)
	if !ok {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrNotExist}
	}
	if b, ok := s.mem[sum]; ok {
		return &memFile{Reader: bytes.NewReader(b), name: path.Base(name)}, nil
	}
	f, err := os.Open(filepath.Join(s.dir, sum))
	if err != nil {
		var pe *iofs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &iofs.PathError{Op: "open", Path: name, Err: err}
	}
	return &storeFile{File: f, name: path.Base(name)}, nil
}

// A storeFile is a file of a store's directory opened under its name in
// the tree. It keeps *os.File's methods, io.ReaderAt and Fd among them,
// so that the runtime FS reads it with ReadAt and closes it after each
// use.
type storeFile struct {
	*os.File
	name string
}

var _ io.ReaderAt = (*storeFile)(nil)

func (f *storeFile) Stat() (iofs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return storeInfo{fi, f.name}, nil
}

// storeInfo is a store file's FileInfo under its name in the tree.
type storeInfo struct {
	iofs.FileInfo
	name string
}

func (fi storeInfo) Name() string       { return fi.name }
func (fi storeInfo) ModTime() time.Time { return time.Time{} }

// A memFile is a file that a store keeps in memory. It holds no
// descriptor, so the runtime FS opens it once and shares it (io.ReaderAt
// allows parallel reads).
type memFile struct {
	*bytes.Reader
	name string
}

var _ io.ReaderAt = (*memFile)(nil)

func (f *memFile) Stat() (iofs.FileInfo, error) { return memInfo{f.name, f.Size()}, nil }
func (f *memFile) Close() error                 { return nil }

// memInfo is a memFile's FileInfo.
type memInfo struct {
	name string
	size int64
}

func (fi memInfo) Name() string        { return fi.name }
func (fi memInfo) Size() int64         { return fi.size }
func (fi memInfo) Mode() iofs.FileMode { return 0o444 }
func (fi memInfo) ModTime() time.Time  { return time.Time{} }
func (fi memInfo) IsDir() bool         { return false }
func (fi memInfo) Sys() any            { return nil }
