package dev

import (
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// A store holds the bytes of the builds a Server still serves, one file
// per distinct content, named by its SHA-256. A build shares every file
// whose bytes did not change with the builds before it, and a rebuild
// writes only the files whose bytes are new: no tree is copied or linked
// per build. A store is used under the Server's build lock.
type store struct {
	dir  string
	have map[string]bool // sums written to dir
}

func newStore(dir string) *store {
	return &store{dir: dir, have: make(map[string]bool)}
}

// add writes the files of res that the store lacks and returns the data
// of its tree, described by m, for fs.NewVerified.
func (st *store) add(res *transform.Result, m *fs.Manifest) (*storeFS, error) {
	if err := os.MkdirAll(st.dir, 0o755); err != nil {
		return nil, err
	}
	sfs := &storeFS{dir: st.dir, sums: make(map[string]string, 4*len(m.Files))}
	type file struct{ name, sum string }
	var missing []file
	add := func(name, sum string) {
		sfs.sums[name] = sum
		if !st.have[sum] {
			st.have[sum] = true // once per sum, though several names have it
			missing = append(missing, file{name, sum})
		}
	}
	for _, e := range m.Files {
		add(e.Path, e.SHA256)
		for _, enc := range e.Encodings {
			add(enc.Path, enc.SHA256)
		}
	}
	// Fetching the bytes verifies them against their hash: a first build
	// reads the whole tree, so it does so in parallel.
	errs := make([]error, len(missing))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(len(missing), runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = st.write(res, missing[i].name, missing[i].sum)
			}
		}()
	}
	for i := range missing {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for i, f := range missing {
			if errs[i] != nil {
				delete(st.have, f.sum)
			}
		}
		return nil, err
	}
	return sfs, nil
}

// write stores the bytes of the file name of res under sum.
func (st *store) write(res *transform.Result, name, sum string) error {
	data, err := res.ReadFile(name)
	if err != nil {
		return err
	}
	file := filepath.Join(st.dir, sum)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		os.Remove(file)
		return err
	}
	return nil
}

// keep removes the files that none of the given trees use.
func (st *store) keep(trees ...*storeFS) {
	live := make(map[string]bool, len(st.have))
	for _, t := range trees {
		if t == nil {
			continue
		}
		for _, sum := range t.sums {
			live[sum] = true
		}
	}
	for sum := range st.have {
		if !live[sum] {
			os.Remove(filepath.Join(st.dir, sum))
			delete(st.have, sum)
		}
	}
}

// A storeFS is the output tree of one build, its files in a store: the
// data given to fs.NewVerified. Open gives the file at a path of the
// manifest (an entry's or a variant's); there are no directories.
type storeFS struct {
	dir  string
	sums map[string]string // path in the tree -> SHA-256
}

var _ iofs.FS = (*storeFS)(nil)

// Open opens the file name of the tree. The file is an *os.File under
// another name; its Stat gives name's base name.
func (s *storeFS) Open(name string) (iofs.File, error) {
	if !iofs.ValidPath(name) {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrInvalid}
	}
	sum, ok := s.sums[name]
	if !ok {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrNotExist}
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

// A storeFile is a file of a store opened under its name in the tree. It
// keeps *os.File's methods, io.ReaderAt and Fd among them, so that the
// runtime FS reads it with ReadAt and closes it after each use.
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
