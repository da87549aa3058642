package transform

import "strings"

// RelativePath returns the slash-separated path of target relative to the
// directory dir, both slash-separated paths under one root ("." or "" for
// the root itself): RelativePath("css", "img/a.png") is "../img/a.png". It
// is how a file refers to another of the same tree (a source map to its
// sources, a page to a bundle's output).
func RelativePath(dir, target string) string {
	if dir == "." || dir == "" {
		return target
	}
	d := strings.Split(dir, "/")
	t := strings.Split(target, "/")
	i := 0
	for i < len(d) && i < len(t)-1 && d[i] == t[i] {
		i++
	}
	parts := make([]string, 0, len(d)-i+len(t)-i)
	for range d[i:] {
		parts = append(parts, "..")
	}
	return strings.Join(append(parts, t[i:]...), "/")
}
