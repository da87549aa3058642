package fs

import (
	iofs "io/fs"
	"path"
	"strings"
)

// Glob returns the names of the logical files and directories of f that
// match pattern, exactly as fs.Glob returns them for a file system holding
// only those files and directories (such as os.DirFS over a copy of them):
// pattern has the syntax of path.Match, "*" and "**" alike match within one
// path element, and matches are in lexical order, or nil when there are
// none. Hashed names and variants never match; neither do names that
// Hooks.Allow hides. The only error is path.ErrBadPattern, for a malformed
// pattern.
//
// To match across directories, as "**/*.js" does in a project file, use
// GlobAll.
func (f *FS) Glob(pattern string) ([]string, error) {
	matches, err := f.glob(pattern)
	if f.h != nil {
		f.observe("glob", f.full(pattern), err)
	}
	return matches, err
}

func (f *FS) glob(pattern string) ([]string, error) {
	// fs.Glob itself, over a view of f that is not a GlobFS, so that the
	// answer is the standard one by construction.
	return iofs.Glob(listed{f}, pattern)
}

// listed is the view of an FS that fs.Glob walks: the logical files and
// directories only (no hashed names), through ReadDir and Stat.
type listed struct{ f *FS }

var (
	_ iofs.ReadDirFS = listed{}
	_ iofs.StatFS    = listed{}
)

func (l listed) Open(name string) (iofs.File, error) {
	if _, err := l.Stat(name); err != nil {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrNotExist}
	}
	return l.f.open(name)
}

func (l listed) Stat(name string) (iofs.FileInfo, error) {
	n, d, err := l.f.lookup("stat", name)
	switch {
	case err != nil:
		return nil, err
	case d != nil:
		return &d.info, nil
	case n.entry.Path != l.f.full(name):
		return nil, &iofs.PathError{Op: "stat", Path: name, Err: iofs.ErrNotExist} // a hashed name
	}
	return &n.info, nil
}

func (l listed) ReadDir(name string) ([]iofs.DirEntry, error) {
	return l.f.readDir(name)
}

// GlobAll returns the names in fsys that match pattern, where, unlike in
// fs.Glob, a pattern element that is exactly "**" matches zero or more
// elements of a name: "**/*.js" matches "app.js" and "js/lib/app.js", and
// "js/**" matches "js" and everything under it. Any other element is
// matched against one element of a name with path.Match; an element "",
// "." or ".." matches nothing. A pattern without a "**" element gives
// exactly what fs.Glob gives.
//
// Matches are in the order of fs.WalkDir (lexical), or nil when there are
// none. As with fs.Glob, errors reading fsys are ignored, and the only
// error returned is path.ErrBadPattern, for a malformed pattern (also one
// element of it, such as "a[" in "a[/]b").
//
// GlobAll works over any fs.FS by walking the directory named by the
// leading elements without meta characters. For a *FS it walks the
// listing computed by New instead, without reading a directory: hashed
// names, variants and names that Hooks.Allow hides never match.
func GlobAll(fsys iofs.FS, pattern string) ([]string, error) {
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, err
	}
	segs := strings.Split(pattern, "/")
	double := false
	for _, s := range segs {
		if _, err := path.Match(s, ""); err != nil {
			return nil, err
		}
		double = double || s == "**"
	}
	if !double {
		return iofs.Glob(fsys, pattern)
	}
	// Leading elements without meta characters name the only directory
	// whose descendants can match.
	lit := 0
	for lit < len(segs)-1 && !hasMeta(segs[lit]) {
		if s := segs[lit]; s == "" || s == "." || s == ".." {
			return nil, nil
		}
		lit++
	}
	base := "."
	if lit > 0 {
		base = strings.Join(segs[:lit], "/")
	}
	if f, ok := fsys.(*FS); ok {
		matches := f.globAll(segs, base)
		if f.h != nil {
			f.observe("glob", f.full(pattern), nil)
		}
		return matches, nil
	}
	var matches []string
	var buf []string
	iofs.WalkDir(fsys, base, func(name string, d iofs.DirEntry, err error) error {
		if err != nil || name == "." {
			return nil // errors are ignored, as fs.Glob does
		}
		buf = appendSplit(buf[:0], name)
		if matchSegments(segs, buf) {
			matches = append(matches, name)
		}
		return nil
	})
	return matches, nil
}

// globAll is GlobAll over f, for the pattern elements segs whose matches
// all lie in the directory base.
func (f *FS) globAll(segs []string, base string) []string {
	n, d, err := f.lookup("glob", base)
	var matches []string
	var buf []string
	switch {
	case err != nil:
		return nil
	case base != "." && matchSegments(segs, appendSplit(buf, base)):
		if d == nil && n.entry.Path != f.full(base) {
			return nil // a hashed name
		}
		matches = append(matches, base) // "js/**" matches "js"
	}
	if d == nil {
		return matches
	}
	for _, full := range f.tree().walk[d.lo:d.hi] {
		name, _ := f.rel(full)
		buf = appendSplit(buf[:0], name)
		if matchSegments(segs, buf) && (f.h == nil || f.visible(full) == nil) {
			matches = append(matches, name)
		}
	}
	return matches
}

// hasMeta reports whether s holds a path.Match meta character.
func hasMeta(s string) bool {
	return strings.ContainsAny(s, `*?[\`)
}

// appendSplit appends the slash-separated elements of name to dst.
func appendSplit(dst []string, name string) []string {
	for {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return append(dst, name)
		}
		dst = append(dst, name[:i])
		name = name[i+1:]
	}
}

// matchSegments reports whether the name elements match the pattern
// elements, where "**" matches zero or more elements and any other pattern
// element matches one name element with path.Match. The patterns are
// valid. It is the greedy wildcard algorithm with one backtracking point,
// in time O(len(pat) * len(name)).
func matchSegments(pat, name []string) bool {
	p, n := 0, 0
	star, mark := -1, 0 // last "**" seen and the name element it resumes at
	for n < len(name) {
		switch {
		case p < len(pat) && pat[p] == "**":
			star, mark = p, n
			p++
		case p < len(pat) && matchOne(pat[p], name[n]):
			p++
			n++
		case star >= 0:
			mark++
			p, n = star+1, mark
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == "**" {
		p++
	}
	return p == len(pat)
}

// matchOne matches one name element with path.Match.
func matchOne(pat, name string) bool {
	ok, _ := path.Match(pat, name)
	return ok
}
