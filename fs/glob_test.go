package fs_test

import (
	"errors"
	iofs "io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGlob(t *testing.T) {
	fsys, _, m := newTestFS(t)
	tests := []struct {
		pattern string
		want    []string
		err     error
	}{
		{pattern: "*.txt", want: []string{"empty.txt", "robots.txt", "sniff.txt"}},
		{pattern: "js/*.js", want: []string{"js/app.js"}},
		{pattern: "**/*.js", want: []string{"js/app.js", "js/vendor/lib.js"}},
		{pattern: "js/**/*.js", want: []string{"js/app.js", "js/vendor/lib.js"}},
		{pattern: "**/index.html", want: []string{"docs/index.html", "index.html"}},
		{pattern: "docs/**", want: []string{"docs", "docs/guide", "docs/guide/intro.html", "docs/index.html"}},
		{pattern: "**/guide/**/*.html", want: []string{"docs/guide/intro.html"}},
		{pattern: "**/**/**/lib.js", want: []string{"js/vendor/lib.js"}},
		{pattern: "**/.env", want: []string{"data/.env"}},
		{pattern: "*/*/*", want: []string{"docs/guide/intro.html", "js/vendor/lib.js"}},
		{pattern: "[dj]*", want: []string{"data", "docs", "js"}},
		{pattern: "js/app.js", want: []string{"js/app.js"}},
		{pattern: ".", want: []string{"."}},
		{pattern: "js", want: []string{"js"}},
		{pattern: m.Files[0].Path + "x", want: nil},
		{pattern: fsys.Path("js/app.js"), want: nil},                    // hashed names are not listed
		{pattern: "js/*." + strings.Repeat("?", 10) + ".js", want: nil}, // nor matched
		{pattern: "**/*.br", want: nil},
		{pattern: "**/*.gz", want: nil},
		{pattern: "*.json", want: nil},
		{pattern: "nope/**", want: nil},
		{pattern: "js//*", want: nil},
		{pattern: "/js/*", want: nil},
		{pattern: "a**b/*", want: nil},
		{pattern: "[", err: path.ErrBadPattern},
		{pattern: "js/[", err: path.ErrBadPattern},
		{pattern: "**/a\\", err: path.ErrBadPattern},
		{pattern: "a[/]b", err: path.ErrBadPattern},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, err := fsys.Glob(tt.pattern)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Glob: %v, want %v", err, tt.err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Glob = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("sub", func(t *testing.T) {
		sub, _ := fsys.Sub("docs")
		got, err := iofs.Glob(sub, "**/*.html")
		if want := []string{"guide/intro.html", "index.html"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Sub Glob = %q, %v, want %q", got, err, want)
		}
	})
}

// logicalTree returns a MapFS of the logical files of the test tree, the
// reference for fs.Glob.
func logicalTree() fstest.MapFS {
	tree := fstest.MapFS{}
	for _, f := range testFiles {
		tree[f.path] = &fstest.MapFile{Data: []byte(f.data)}
	}
	return tree
}

// starMatch is the reference semantics of "**": a plain recursion over the
// elements, memoized.
func starMatch(pat, name []string) bool {
	memo := map[[2]int]bool{}
	var rec func(i, j int) bool
	rec = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var r bool
		switch {
		case i == len(pat):
			r = j == len(name)
		case pat[i] == "**":
			r = rec(i+1, j) || j < len(name) && rec(i, j+1)
		case j < len(name):
			ok, _ := path.Match(pat[i], name[j])
			r = ok && rec(i+1, j+1)
		}
		memo[key] = r
		return r
	}
	return rec(0, 0)
}

// FuzzGlob checks that Glob terminates and matches exactly the listed names
// that a plain recursive matcher accepts (path.Match per element, "**" for
// any number of elements). For patterns without "**" whose elements could
// name a path (not "", "." or ".."), it must also agree with fs.Glob.
func FuzzGlob(f *testing.F) {
	fsys, _, _ := newTestFS(f)
	ref := logicalTree()
	var all []string
	iofs.WalkDir(ref, ".", func(p string, d iofs.DirEntry, err error) error {
		if p != "." {
			all = append(all, p)
		}
		return nil
	})
	for _, p := range []string{"*", "**", "**/*.js", "js/**", "*/*", "[a-d]*/**/?*.html", "\\*", "a/**/b/**/c", "**/**/x", "./*"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		got, err := fsys.Glob(pattern)
		if _, merr := path.Match(pattern, ""); (err != nil) != (merr != nil || badElement(pattern)) {
			t.Fatalf("Glob(%q): error %v, want one only for a malformed pattern", pattern, err)
		}
		if err != nil {
			return
		}
		var want []string
		if pattern == "." {
			want = []string{"."}
		}
		pat := strings.Split(pattern, "/")
		for _, name := range all {
			if starMatch(pat, strings.Split(name, "/")) {
				want = append(want, name)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Glob(%q) = %q, want %q", pattern, got, want)
		}
		for _, e := range pat {
			if e == "**" || e == "" || e == "." && pattern != "." || e == ".." {
				return
			}
		}
		if fsGlob, err := iofs.Glob(ref, pattern); err != nil || !slices.Equal(got, fsGlob) {
			t.Fatalf("Glob(%q) = %q; fs.Glob = %q, %v", pattern, got, fsGlob, err)
		}
	})
}

// badElement reports whether an element of pattern is malformed.
func badElement(pattern string) bool {
	for _, s := range strings.Split(pattern, "/") {
		if _, err := path.Match(s, ""); err != nil {
			return true
		}
	}
	return false
}
