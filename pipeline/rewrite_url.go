package pipeline

import (
	"net/url"
	"path"
	"strings"
)

// This file holds how a reference written in a file (a URL) names a file
// of the output tree, and how it is written once the file has a hashed
// name.

// localTarget returns the logical path of the tree file that the URL u,
// written in the file from (a logical path), names, and whether it names
// one at all. base is the public URL prefix of the tree's root ("/" when
// empty, always ending in "/").
//
// Left alone (ok false): an empty URL, one with a scheme (https:, data:,
// blob:, mailto:), a protocol-relative one (//cdn…), a fragment or query
// alone (#top, ?page=2), a root-relative one outside base, one ending in
// "/" (a directory), and one that leaves the tree (../ past its root).
// Query and fragment are not part of the path.
func localTarget(u, from, base string) (target string, ok bool) {
	p := urlPath(u)
	if p == "" || strings.HasPrefix(u, "//") || hasScheme(u) {
		return "", false
	}
	p, err := url.PathUnescape(p)
	if err != nil || strings.HasSuffix(p, "/") {
		return "", false
	}
	if strings.HasPrefix(p, "/") {
		rest, ok := strings.CutPrefix(p, base)
		if !ok {
			return "", false
		}
		p = rest
	} else {
		p = path.Join(path.Dir(from), p)
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return p, true
}

// urlPath returns the path part of u: what comes before its first "?" or
// "#".
func urlPath(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i]
	}
	return u
}

// hasScheme reports whether u starts with a URL scheme (RFC 3986: a letter,
// then letters, digits, "+", "-" or ".", then ":").
func hasScheme(u string) bool {
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// hashedURL returns u rewritten to name the hashed form of its target,
// whose logical path is target and whose hashed name is hashed (see
// fs.HashedName): the hash digits are inserted where HashedName puts them
// in the last segment of u's path, and everything else of u (directories
// as written, query, fragment) is kept. at is the index in u where the
// digits go, so that a caller that holds u as written can insert them in
// place; it is -1 when u's last segment is spelled differently from the
// target's base name (percent-encoded), and the caller must then write
// the returned URL whole.
func hashedURL(u, target, hashed string) (newURL string, at int) {
	p := urlPath(u)
	rest := u[len(p):]
	base := path.Base(target)
	hashedBase := path.Base(hashed)
	// hashedBase is base with "."+digits inserted at one index.
	i := 0
	for i < len(base) && base[i] == hashedBase[i] {
		i++
	}
	insert := hashedBase[i : i+len(hashedBase)-len(base)]
	if strings.HasSuffix(p, "/"+base) || p == base {
		at = len(p) - len(base) + i
		return u[:at] + insert + u[at:], at
	}
	dir := p[:strings.LastIndexByte(p, '/')+1]
	return dir + escapePath(hashedBase) + rest, -1
}

// escapePath escapes a slash-separated path for use in a URL.
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
