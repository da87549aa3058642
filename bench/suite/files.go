package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// size is the total size in bytes of the named files.
func (s *suite) size(paths ...string) int64 {
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		s.check(err)
		n += fi.Size()
	}
	return n
}

// files lists the regular files under dir whose names keep says to keep
// (nil: every file), as paths relative to dir, in lexical order.
func (s *suite) files(dir string, keep func(name string) bool) []string {
	var list []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || (keep != nil && !keep(d.Name())) {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		list = append(list, filepath.ToSlash(rel))
		return err
	})
	s.check(err)
	return list
}

// withSuffix keeps the names that end in one of suffixes.
func withSuffix(suffixes ...string) func(string) bool {
	return func(name string) bool {
		for _, x := range suffixes {
			if strings.HasSuffix(name, x) {
				return true
			}
		}
		return false
	}
}

// sizeUnder is the total size of the files under dir that keep keeps.
func (s *suite) sizeUnder(dir string, keep func(string) bool) int64 {
	var n int64
	for _, f := range s.files(dir, keep) {
		n += s.size(filepath.Join(dir, f))
	}
	return n
}

// treeBytes is the size of an output tree without its manifests and index
// pages: the bytes that tools compare.
func (s *suite) treeBytes(dir string) int64 {
	return s.sizeUnder(dir, func(name string) bool { return name != "bakefs-manifest.json" && name != "index.html" })
}

func (s *suite) mkdir(dirs ...string) {
	for _, d := range dirs {
		s.check(os.MkdirAll(d, 0o755))
	}
}

// writeFile writes content to path, making its directory.
func (s *suite) writeFile(path, content string) {
	s.mkdir(filepath.Dir(path))
	s.check(os.WriteFile(path, []byte(content), 0o644))
}

// readFile is the content of path.
func (s *suite) readFile(path string) string {
	b, err := os.ReadFile(path)
	s.check(err)
	return string(b)
}

// copyTree copies src to dst as cp -a does: modes, times and links kept.
func (s *suite) copyTree(src, dst string) {
	s.mkdir(filepath.Dir(dst))
	s.cmd(s.root, nil, "cp", "-a", src, dst)
}

// sameFile reports whether two files hold the same bytes; a missing file
// is never the same.
func sameFile(a, b string) bool {
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// runtimeModule writes dir/go.mod of module name, which depends on this
// checkout's runtime (fs/, a module of its own) as an application does.
func (s *suite) runtimeModule(name, dir string) {
	s.writeFile(filepath.Join(dir, "go.mod"), fmt.Sprintf("module %s\n\ngo 1.26\n\nreplace github.com/bakefs/bakefs/fs => %s/fs\n", name, s.root))
}
