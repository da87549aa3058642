package consistency

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// A project is a bakefs project in a directory of its own: bakefs.toml,
// the sources under src/, the output tree at out/ and the Go package at
// pkg/assets/ (those two as its project file says; see siteTOML).
type project struct {
	dir string
}

const (
	outDir = "out"
	pkgDir = "pkg/assets"
)

// newProject writes a project file and sources (paths relative to the
// project directory, slash-separated) into dir.
func newProject(t testing.TB, dir, toml string, files map[string]string) *project {
	t.Helper()
	p := &project{dir: dir}
	p.write(t, "bakefs.toml", toml)
	for name, body := range files {
		p.write(t, name, body)
	}
	return p
}

// write writes a file of the project, creating its directories.
func (p *project) write(t testing.TB, name, body string) {
	t.Helper()
	file := p.path(name)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// remove deletes a file of the project.
func (p *project) remove(t testing.TB, name string) {
	t.Helper()
	if err := os.Remove(p.path(name)); err != nil {
		t.Fatal(err)
	}
}

// path returns the file name of a slash-separated path of the project.
func (p *project) path(name string) string {
	return filepath.Join(p.dir, filepath.FromSlash(name))
}

// build runs bakefs build on the project, with extra flags before -f.
func (p *project) build(t testing.TB, flags ...string) result {
	t.Helper()
	args := append(append([]string{"build"}, flags...), "-f", p.path("bakefs.toml"))
	return bakefs(t, p.dir, args...)
}

// mustBuild builds the project and fails the test unless the build
// succeeds.
func (p *project) mustBuild(t testing.TB) result {
	t.Helper()
	r := p.build(t)
	if r.code != 0 {
		t.Fatalf("build of %s failed:\n%s", p.dir, r)
	}
	return r
}

// outputs returns what the project's last builds left: the output tree and
// the Go package.
func (p *project) outputs(t testing.TB) outputs {
	t.Helper()
	return outputs{out: snapshot(t, p.path(outDir)), pkg: snapshot(t, p.path(pkgDir))}
}

// cleanCopy copies the project's file and sources (everything but the
// output tree, the package and the cache) into a new directory named like
// the project's under parent, builds it there with no cache and no
// previous output, and returns how the build ended and what it wrote.
// The copy is removed afterwards. Its absolute path differs from the
// project's, so a path that leaks into the bytes shows as a difference.
func (p *project) cleanCopy(t testing.TB, parent string) (result, outputs) {
	t.Helper()
	dst, err := os.MkdirTemp(parent, "clean-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dst)
	c := &project{dir: filepath.Join(dst, filepath.Base(p.dir))}
	skip := map[string]bool{outDir: true, "pkg": true, ".bakefs-cache": true}
	if err := copyTree(p.dir, c.dir, func(rel string) bool { return skip[rel] }); err != nil {
		t.Fatal(err)
	}
	r := c.build(t)
	return r, c.outputs(t)
}

// copyTree copies the regular files and directories of src to dst,
// leaving out the top-level entries for which skip is true.
func copyTree(src, dst string, skip func(rel string) bool) error {
	return filepath.WalkDir(src, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, file)
		if err != nil {
			return err
		}
		if rel != "." && !strings.Contains(filepath.ToSlash(rel), "/") && skip(filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// outputs are the two things a build writes.
type outputs struct {
	out, pkg tree
}

// diff names the first difference between two builds' outputs, or returns
// "" when they are the same.
func (o outputs) diff(other outputs, name, otherName string) string {
	if d := o.out.diff(other.out, name, otherName); d != "" {
		return "output tree: " + d
	}
	if d := o.pkg.diff(other.pkg, name, otherName); d != "" {
		return "package: " + d
	}
	return ""
}

// A tree is the content of a directory: every regular file's bytes by
// slash-separated path, every directory as a path ending in "/", every
// symbolic link as "-> target". A nil tree is a missing directory.
type tree map[string]string

// snapshot reads the directory dir into a tree.
func snapshot(t testing.TB, dir string) tree {
	t.Helper()
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil
	}
	tr := tree{}
	err := filepath.WalkDir(dir, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, file)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			tr[rel+"/"] = ""
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(file)
			if err != nil {
				return err
			}
			tr[rel] = "-> " + target
		default:
			data, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			tr[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return tr
}

// diff names the first file, in path order, that differs between a and b
// and says how; it returns "" when they are the same.
func (a tree) diff(b tree, aName, bName string) string {
	switch {
	case a == nil && b == nil:
		return ""
	case a == nil:
		return fmt.Sprintf("missing in %s, present in %s", aName, bName)
	case b == nil:
		return fmt.Sprintf("present in %s, missing in %s", aName, bName)
	}
	names := maps.Clone(a)
	maps.Copy(names, b)
	for _, n := range slices.Sorted(maps.Keys(names)) {
		x, inA := a[n]
		y, inB := b[n]
		switch {
		case !inA:
			return fmt.Sprintf("%s: only in %s", n, bName)
		case !inB:
			return fmt.Sprintf("%s: only in %s", n, aName)
		case x != y:
			return fmt.Sprintf("%s: %s", n, byteDiff(x, y, aName, bName))
		}
	}
	return ""
}

// byteDiff describes where two different contents first differ.
func byteDiff(x, y, xName, yName string) string {
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	excerpt := func(s string) string {
		from, to := max(i-40, 0), min(i+40, len(s))
		return fmt.Sprintf("%q", s[from:to])
	}
	return fmt.Sprintf("%d bytes in %s, %d in %s, first difference at byte %d:\n\t%s: …%s…\n\t%s: …%s…",
		len(x), xName, len(y), yName, i, xName, excerpt(x), yName, excerpt(y))
}

// names returns the sorted paths of the tree's regular files.
func (a tree) names() []string {
	var ns []string
	for n, body := range a {
		if !strings.HasSuffix(n, "/") && !strings.HasPrefix(body, "-> ") {
			ns = append(ns, n)
		}
	}
	sort.Strings(ns)
	return ns
}

// entries returns the sorted names in dir, or fails the test.
func entries(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, d := range des {
		ns = append(ns, d.Name())
	}
	return ns
}

// flipByte changes one byte of a file in place, keeping its size.
func flipByte(t testing.TB, file string, at int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		t.Fatalf("%s is empty: no byte to change", file)
	}
	data[at%len(data)] ^= 0x01
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// age sets the modification time of src/ and of every file and directory
// below it that was modified after since to at. Sources written by a test
// are otherwise too fresh for the cache to keep what was built from them
// (a file modified within a moment of a build may still be changing);
// aged, they are cached as a user's files are. Each change should be aged
// to a time of its own, later than the previous one, as a clock would.
func (p *project) age(t testing.TB, since, at time.Time) {
	t.Helper()
	err := filepath.WalkDir(p.path("src"), func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.ModTime().After(since) {
			return os.Chtimes(file, at, at)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
