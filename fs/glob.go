package fs

import (
	"path"
	"strings"
)

// Glob returns the names of the logical files and directories of f that
// match pattern, in the order of fs.WalkDir, or nil when none does.
//
// A pattern is slash-separated. An element that is exactly "**" matches zero
// or more elements of a name, so "**/*.js" matches "app.js" and
// "js/lib/app.js", and "js/**" matches "js" and everything under it. Any
// other element is matched against one element of the name with path.Match,
// so a pattern without "**" gives the same names as fs.Glob over the same
// files. Hashed names and variants never match, nor does an element "",
// "." or ".." (the pattern "." alone gives "."). The only error is
// path.ErrBadPattern, for a malformed pattern.
func (f *FS) Glob(pattern string) ([]string, error) {
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, err
	}
	segs := strings.Split(pattern, "/")
	for _, s := range segs {
		if _, err := path.Match(s, ""); err != nil {
			return nil, err
		}
	}
	if !hasMeta(pattern) {
		if pattern == "." || pattern != "" && f.listed(pattern) {
			return []string{pattern}, nil
		}
		return nil, nil
	}
	// Leading elements without meta characters name the only directory
	// whose descendants can match.
	base := "."
	lit := 0
	for lit < len(segs)-1 && !hasMeta(segs[lit]) && segs[lit] != "**" {
		lit++
	}
	if lit > 0 {
		base = strings.Join(segs[:lit], "/")
		if !f.isDir(base) {
			return nil, nil
		}
	}
	d := f.t.dirs[f.full(base)]
	var matches []string
	var buf []string
	if base != "." && matchSegments(segs, appendSplit(buf, base)) {
		matches = append(matches, base) // "js/**" matches "js"
	}
	for _, full := range f.t.walk[d.lo:d.hi] {
		name, _ := f.rel(full)
		buf = appendSplit(buf[:0], name)
		if matchSegments(segs, buf) {
			matches = append(matches, name)
		}
	}
	return matches, nil
}

// listed reports whether name, a path relative to f, is a logical file or
// a directory other than ".".
func (f *FS) listed(name string) bool {
	n, d, err := f.lookup("glob", name)
	if err != nil || name == "." {
		return false
	}
	return d != nil || n.entry.Path == f.full(name)
}

// isDir reports whether name, a path relative to f, is a directory.
func (f *FS) isDir(name string) bool {
	_, d, err := f.lookup("glob", name)
	return err == nil && d != nil
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
