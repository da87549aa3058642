package fs

import "strings"

// Hooks are the functions that an FS returned by With calls: Allow decides
// which files and directories exist, Observe sees every operation and its
// outcome. A nil field is not called. Both are called from every goroutine
// that uses the FS, so they must be safe for concurrent use, and they must
// not use the FS they are given to, which would call them again.
type Hooks struct {
	// Allow reports whether the logical file or directory name may be
	// seen: nil allows it, an error hides it. name is slash-separated and
	// relative to the FS that With was called on, also for operations on
	// its Subs and for files named by their hashed name ("js/app.js" for
	// "js/app.3f2a1b9c0d.js"); the root itself is always visible, and Allow
	// is never called with ".".
	//
	// A name is visible when Allow accepts it and each of its parent
	// directories, so hiding a directory hides everything under it. Every
	// operation on a hidden name, or on a name under a hidden directory,
	// fails with a *fs.PathError whose Err is the error of Allow: return
	// fs.ErrNotExist to make it absent (the handler answers 404), or
	// fs.ErrPermission to forbid it (403). ReadDir, directories opened with
	// Open, Glob, GlobAll and fs.WalkDir leave hidden names out, whatever
	// the error; Path, Integrity, Entry, the module graph (ModulePreloads,
	// ModuleCSS, PreloadLinkHeader) and the template functions treat them
	// as files the FS does not have. Allow is asked again on every
	// operation, so its answer may change while the FS is in use.
	Allow func(name string) error

	// Observe is called once after each operation with its outcome (see
	// Event), when the operation returns.
	Observe func(Event)
}

// An Event is one operation of an FS returned by With, as Hooks.Observe
// receives it.
type Event struct {
	// Op is the operation: "open", "readfile", "stat", "readdir", "glob"
	// (FS.Glob and GlobAll), "sub", or "serve" for a request answered by
	// the FS's Handler.
	Op string
	// Name is the name given to the operation (for "glob" the pattern),
	// relative to the FS that With was called on. For "serve" it is the
	// logical path of the file served or denied, or, when the request names
	// no file, the request path with the handler's prefix removed.
	Name string
	// Err is the error the operation returned, nil on success. For "serve"
	// it is nil when a file was answered (whatever the status: 200, 206,
	// 304, 412 or 416), fs.ErrNotExist when the request names no file, and
	// otherwise the error of Allow or of reading the tree.
	Err error
}

// A layer is the hooks of one call of With, applied to names relative to
// its base.
type layer struct {
	hooks Hooks
	base  string // tree path of the FS With was called on; "" at the top
	next  *layer // the hooks of the FS With was called on; nil when none
}

// With returns an FS over the same files as f that calls h: a *FS, so the
// wrapped FS keeps every method and extension interface of f, which a
// wrapper type would hide (fs.ReadFileFS, fs.ReadDirFS, fs.StatFS,
// fs.GlobFS, fs.SubFS, the HashFileInfo of its FileInfo, hashed names,
// Path, Integrity, Entry, Handler and FuncMap). Nothing is copied: With
// costs two small allocations, and f is unchanged.
//
// The hooks are part of every operation rather than around it, so each
// one applies them in its own terms: a name that Allow hides is an error
// for Open, ReadFile, Stat, ReadDir and Sub, is left out of listings and
// globs, is not a file for Path, Integrity, Entry and FuncMap, and is
// answered by the handler as a missing file (404, WithNotFound or
// WithSPAFallback) or, for fs.ErrPermission, with 403. A Sub of the
// returned FS, and a handler made from it, keep the hooks, and their names
// stay relative to the FS With was called on, so a rule such as "hide
// private/" holds in Sub("private") too.
//
// With on an FS that already has hooks adds h on the outside, as nested
// wrappers would: the outermost Allow is asked first, and the outermost
// Observe is called last. With of a Hooks with no function set returns f.
//
// Without hooks an FS costs one nil check per operation. With hooks, each
// operation calls Allow once per element of the name (three times for
// "a/b/c.js") and Observe once; neither makes the handler allocate when
// the hooks themselves do not (BenchmarkWith measures both, side by side).
// ReadDir and directories opened with Open filter into a new slice.
//
// The examples of With (logging, accessControl; shown by "go doc -http"
// and pkg.go.dev) log every operation, and hide a directory everywhere at
// once.
func (f *FS) With(h Hooks) *FS {
	if h.Allow == nil && h.Observe == nil {
		return f
	}
	return &FS{src: f.src, dir: f.dir, h: &layer{hooks: h, base: f.dir, next: f.h}}
}

// rel returns the tree path full, which lies in l's base, relative to it.
func (l *layer) rel(full string) string {
	switch {
	case l.base == "":
		if full == "" {
			return "."
		}
		return full
	case full == l.base:
		return "."
	case len(full) > len(l.base) && strings.HasPrefix(full, l.base) && full[len(l.base)] == '/':
		return full[len(l.base)+1:]
	}
	return full
}

// allows reports whether a layer of l has an Allow hook.
func (l *layer) allows() bool {
	for ; l != nil; l = l.next {
		if l.hooks.Allow != nil {
			return true
		}
	}
	return false
}

// visible returns nil when every Allow accepts the file or directory full
// (a tree path in f) and each of its parents, and otherwise the first
// error of an Allow, asking the outermost layer first.
func (f *FS) visible(full string) error {
	for l := f.h; l != nil; l = l.next {
		if l.hooks.Allow == nil {
			continue
		}
		name := l.rel(full)
		if name == "." {
			continue
		}
		for i := 0; i < len(name); i++ {
			if name[i] == '/' {
				if err := l.hooks.Allow(name[:i]); err != nil {
					return err
				}
			}
		}
		if err := l.hooks.Allow(name); err != nil {
			return err
		}
	}
	return nil
}

// allowed is visible for a name whose parent is known to be visible: it
// asks each Allow about full alone.
func (f *FS) allowed(full string) error {
	for l := f.h; l != nil; l = l.next {
		if l.hooks.Allow == nil {
			continue
		}
		if name := l.rel(full); name != "." {
			if err := l.hooks.Allow(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// observe calls each Observe, the innermost first, with the operation op
// on the tree path full.
func (f *FS) observe(op, full string, err error) {
	f.h.observe(op, full, err)
}

func (l *layer) observe(op, full string, err error) {
	if l.next != nil {
		l.next.observe(op, full, err)
	}
	if l.hooks.Observe != nil {
		l.hooks.Observe(Event{Op: op, Name: l.rel(full), Err: err})
	}
}
