package fs_test

import (
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGlob(t *testing.T) {
	fsys, _, m := newTestFS(t)
	ref := logicalDir(t, logicalTree())
	tests := []struct {
		pattern string
		want    []string
		err     error
	}{
		{pattern: "*.txt", want: []string{"empty.txt", "robots.txt", "sniff.txt"}},
		{pattern: "js/*.js", want: []string{"js/app.js"}},
		{pattern: "**/*.js", want: []string{"js/app.js"}}, // "**" is "*": one element
		{pattern: "js/**/*.js", want: []string{"js/vendor/lib.js"}},
		{pattern: "**/index.html", want: []string{"docs/index.html"}},
		{pattern: "docs/**", want: []string{"docs/guide", "docs/index.html"}},
		{pattern: "**", want: []string{"css", "data", "docs", "empty.txt", "img", "index.html", "js", "robots.txt", "sniff.txt", "templates"}},
		{pattern: "*/.env", want: []string{"data/.env"}},
		{pattern: "*/*/*", want: []string{"docs/guide/intro.html", "js/vendor/lib.js"}},
		{pattern: "[dj]*", want: []string{"data", "docs", "js"}},
		{pattern: "js/app.js", want: []string{"js/app.js"}},
		{pattern: ".", want: []string{"."}},
		{pattern: "./*", want: []string{"css", "data", "docs", "empty.txt", "img", "index.html", "js", "robots.txt", "sniff.txt", "templates"}},
		{pattern: "js", want: []string{"js"}},
		{pattern: m.Files[0].Path + "x", want: nil},
		{pattern: fsys.Path("js/app.js"), want: nil},                    // hashed names are not listed
		{pattern: "js/*." + strings.Repeat("?", 10) + ".js", want: nil}, // nor matched
		{pattern: "*/*.br", want: nil},
		{pattern: "*.json", want: nil},
		{pattern: "nope/*", want: nil},
		{pattern: "js//*", want: nil},
		{pattern: "/js/*", want: nil},
		{pattern: "js/", want: nil},
		{pattern: "", want: nil},
		{pattern: "[", err: path.ErrBadPattern},
		{pattern: "js/[", err: path.ErrBadPattern},
		{pattern: "*/a\\", err: path.ErrBadPattern},
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
			// The table itself is what fs.Glob gives on disk.
			if want, err := iofs.Glob(ref, tt.pattern); !errors.Is(err, tt.err) || !slices.Equal(want, tt.want) {
				t.Errorf("fs.Glob(os.DirFS) = %q, %v; the table says %q, %v", want, err, tt.want, tt.err)
			}
		})
	}
	t.Run("sub", func(t *testing.T) {
		sub, _ := fsys.Sub("docs")
		got, err := iofs.Glob(sub, "*/*.html")
		if want := []string{"guide/intro.html"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Sub Glob = %q, %v, want %q", got, err, want)
		}
	})
}

func TestGlobAll(t *testing.T) {
	fsys, _, m := newTestFS(t)
	tree := logicalTree()
	tests := []struct {
		pattern string
		want    []string
		err     error
	}{
		{pattern: "**/*.js", want: []string{"js/app.js", "js/vendor/lib.js"}},
		{pattern: "js/**/*.js", want: []string{"js/app.js", "js/vendor/lib.js"}},
		{pattern: "**/index.html", want: []string{"docs/index.html", "index.html"}},
		{pattern: "docs/**", want: []string{"docs", "docs/guide", "docs/guide/intro.html", "docs/index.html"}},
		{pattern: "**/guide/**/*.html", want: []string{"docs/guide/intro.html"}},
		{pattern: "**/**/**/lib.js", want: []string{"js/vendor/lib.js"}},
		{pattern: "**/.env", want: []string{"data/.env"}},
		{pattern: "js/app.js/**", want: []string{"js/app.js"}},
		{pattern: "*/*/*", want: []string{"docs/guide/intro.html", "js/vendor/lib.js"}}, // no "**": fs.Glob
		{pattern: "./*", want: []string{"css", "data", "docs", "empty.txt", "img", "index.html", "js", "robots.txt", "sniff.txt", "templates"}},
		{pattern: "./**", want: nil},
		{pattern: ".", want: []string{"."}},
		{pattern: "js", want: []string{"js"}},
		{pattern: "**/" + strings.TrimPrefix(fsys.Path("js/app.js"), "js/"), want: nil}, // hashed names are not listed
		{pattern: fsys.Path("js/app.js") + "/**", want: nil},
		{pattern: "**/*.br", want: nil},
		{pattern: "**/*.gz", want: nil},
		{pattern: "nope/**", want: nil},
		{pattern: "js//**", want: nil},
		{pattern: "/js/**", want: nil},
		{pattern: "a**b/*", want: nil},
		{pattern: m.Files[0].Path + "x/**", want: nil},
		{pattern: "[", err: path.ErrBadPattern},
		{pattern: "js/[", err: path.ErrBadPattern},
		{pattern: "**/a\\", err: path.ErrBadPattern},
		{pattern: "a[/]b", err: path.ErrBadPattern},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, err := bakefs.GlobAll(fsys, tt.pattern)
			if !errors.Is(err, tt.err) {
				t.Fatalf("GlobAll: %v, want %v", err, tt.err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("GlobAll = %q, want %q", got, tt.want)
			}
			// Any other fs.FS: the walk, not the fast path.
			got, err = bakefs.GlobAll(tree, tt.pattern)
			if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
				t.Errorf("GlobAll(MapFS) = %q, %v, want %q", got, err, tt.want)
			}
		})
	}
	t.Run("sub", func(t *testing.T) {
		sub, _ := fsys.Sub("docs")
		got, err := bakefs.GlobAll(sub, "**/*.html")
		if want := []string{"guide/intro.html", "index.html"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Sub GlobAll = %q, %v, want %q", got, err, want)
		}
	})
}

// logicalDir writes tree to a new directory and returns it as an
// os.DirFS, the reference for fs.Glob.
func logicalDir(tb testing.TB, tree fstest.MapFS) iofs.FS {
	dir := tb.TempDir()
	if err := os.CopyFS(dir, tree); err != nil {
		tb.Fatal(err)
	}
	return os.DirFS(dir)
}

// TestGlobRandom compares Glob with fs.Glob over os.DirFS, and GlobAll
// (fast path and walk) with a plain recursive matcher, on random trees and
// patterns built from their names, meta characters and "**".
func TestGlobRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	elems := []string{"a", "b", "a.js", "b.css", ".x", "a*", "[b]", "c\\d", "a-b", "ab"}
	trees, patterns := 40, 200
	if testing.Short() {
		trees = 8
	}
	for i := 0; i < trees; i++ {
		var files []treeFile
		seen := map[string]bool{}
		isDir := map[string]bool{}
	pick:
		for k := 2 + rng.IntN(14); k > 0; k-- {
			var parts []string
			for d := 1 + rng.IntN(4); d > 0; d-- {
				parts = append(parts, elems[rng.IntN(len(elems))])
			}
			name := strings.Join(parts, "/")
			for j := 1; j < len(parts); j++ {
				if seen[strings.Join(parts[:j], "/")] {
					continue pick // a file where a directory would be
				}
			}
			if seen[name] || isDir[name] {
				continue
			}
			seen[name] = true
			for j := 1; j < len(parts); j++ {
				isDir[strings.Join(parts[:j], "/")] = true
			}
			files = append(files, treeFile{path: name, typ: typeText, data: name, hashed: rng.IntN(2) == 0})
		}
		tree, m := buildTree(files)
		fsys, err := bakefs.New(tree, m)
		if err != nil {
			t.Fatal(err)
		}
		logical := fstest.MapFS{}
		var all []string
		for _, f := range files {
			logical[f.path] = &fstest.MapFile{Data: []byte(f.data)}
		}
		ref := logicalDir(t, logical)
		iofs.WalkDir(ref, ".", func(p string, _ iofs.DirEntry, err error) error {
			if p != "." {
				all = append(all, p)
			}
			return err
		})
		metas := []string{"*", "?", "**", "[a-b]", "[^a]*", "\\*", "a*", "*.js", ".", "..", ""}
		var hashed []string
		for _, e := range m.Files {
			if e.Hashed != "" {
				hashed = append(hashed, e.Hashed)
			}
		}
		for j := 0; j < patterns; j++ {
			var parts []string
			for d := 1 + rng.IntN(4); d > 0; d-- {
				switch r := rng.IntN(10); {
				case r < 4:
					parts = append(parts, metas[rng.IntN(len(metas))])
				case r < 9 || len(hashed) == 0:
					parts = append(parts, elems[rng.IntN(len(elems))])
				default:
					parts = append(parts, path.Base(hashed[rng.IntN(len(hashed))]))
				}
			}
			pattern := strings.Join(parts, "/")
			if rng.IntN(8) == 0 && len(all) > 0 {
				pattern = all[rng.IntN(len(all))]
			}
			got, err := fsys.Glob(pattern)
			want, werr := iofs.Glob(ref, pattern)
			if !errors.Is(err, werr) || !slices.Equal(got, want) {
				t.Fatalf("tree %q: Glob(%q) = %q, %v; fs.Glob(os.DirFS) = %q, %v", logicalNames(files), pattern, got, err, want, werr)
			}
			checkGlobAll(t, fsys, ref, all, pattern)
		}
	}
}

func logicalNames(files []treeFile) []string {
	var names []string
	for _, f := range files {
		names = append(names, f.path)
	}
	return names
}

// checkGlobAll checks GlobAll(fsys, pattern) against the plain recursive
// matcher over all, the listed names of fsys, and against GlobAll over
// ref, the same names on disk.
func checkGlobAll(t *testing.T, fsys *bakefs.FS, ref iofs.FS, all []string, pattern string) {
	t.Helper()
	got, err := bakefs.GlobAll(fsys, pattern)
	onDisk, derr := bakefs.GlobAll(ref, pattern)
	if _, merr := path.Match(pattern, ""); (err != nil) != (merr != nil || badElement(pattern)) {
		t.Fatalf("GlobAll(%q): error %v, want one only for a malformed pattern", pattern, err)
	}
	if !errors.Is(derr, err) || !slices.Equal(got, onDisk) {
		t.Fatalf("GlobAll(%q) = %q, %v; over os.DirFS %q, %v", pattern, got, err, onDisk, derr)
	}
	if err != nil {
		return
	}
	pat := strings.Split(pattern, "/")
	if !slices.Contains(pat, "**") {
		want, _ := iofs.Glob(ref, pattern)
		if !slices.Equal(got, want) {
			t.Fatalf("GlobAll(%q) = %q; without ** fs.Glob gives %q", pattern, got, want)
		}
		return
	}
	var want []string
	for _, name := range all {
		if starMatch(pat, strings.Split(name, "/")) {
			want = append(want, name)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("GlobAll(%q) = %q, want %q", pattern, got, want)
	}
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

// FuzzGlob checks that Glob gives what fs.Glob gives over the logical
// files on disk, for any pattern.
func FuzzGlob(f *testing.F) {
	fsys, _, _ := newTestFS(f)
	ref := logicalDir(f, logicalTree())
	for _, p := range []string{"*", "**", "*/*.js", "js/*", "*/*", "[a-d]*/*/?*.html", "\\*", "./*", "js/./*", "../*"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		got, err := fsys.Glob(pattern)
		want, werr := iofs.Glob(ref, pattern)
		if !errors.Is(err, werr) || !slices.Equal(got, want) {
			t.Fatalf("Glob(%q) = %q, %v; fs.Glob(os.DirFS) = %q, %v", pattern, got, err, want, werr)
		}
	})
}

// FuzzGlobAll checks that GlobAll terminates and matches exactly the
// listed names that a plain recursive matcher accepts (path.Match per
// element, "**" for any number of elements), the same over the FS and
// over the files on disk, and that without "**" it is fs.Glob.
func FuzzGlobAll(f *testing.F) {
	fsys, _, _ := newTestFS(f)
	tree := logicalTree()
	ref := logicalDir(f, tree)
	var all []string
	iofs.WalkDir(tree, ".", func(p string, d iofs.DirEntry, err error) error {
		if p != "." {
			all = append(all, p)
		}
		return nil
	})
	for _, p := range []string{"*", "**", "**/*.js", "js/**", "*/*", "[a-d]*/**/?*.html", "\\*", "a/**/b/**/c", "**/**/x", "./*", "js/app.js/**"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		checkGlobAll(t, fsys, ref, all, pattern)
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
