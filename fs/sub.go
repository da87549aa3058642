package fs

import iofs "io/fs"

// Sub returns the FS of the directory dir, a *FS sharing f's tables: it
// costs one small allocation, keeps every extension interface, Path,
// Handler and FuncMap, and resolves hashed names relative to dir
// ("app.3f2a1b9c0d.js" in Sub("js")). Sub(".") returns f. dir must be an
// existing directory: otherwise the error is a *fs.PathError with Op "sub"
// and fs.ErrInvalid, fs.ErrNotExist or ErrNotDir (or the error of
// Hooks.Allow). The Sub of an FS returned by With keeps its hooks.
func (f *FS) Sub(dir string) (iofs.FS, error) {
	sub, err := f.sub(dir)
	if f.h != nil {
		f.observe("sub", f.full(dir), err)
	}
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return sub, nil
}

func (f *FS) sub(dir string) (*FS, error) {
	n, _, err := f.lookup("sub", dir)
	if err != nil {
		return nil, err
	}
	if n != nil {
		return nil, &iofs.PathError{Op: "sub", Path: dir, Err: ErrNotDir}
	}
	if dir == "." {
		return f, nil
	}
	return &FS{src: f.src, dir: f.full(dir), h: f.h}, nil
}
