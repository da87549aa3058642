package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/bakefs/bakefs/embedgen"
	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/project"
)

// checkBuild implements bakefs build --check: it builds the project again
// without the cache into a temporary directory and compares the result,
// file by file and byte for byte, with the project's output tree (unless
// it is kept in the cache) and package. The first difference (in path order, tree first) is the error.
func checkBuild(ctx context.Context, env *environment, p *project.Project, jobs []*pipeline.Job) error {
	tmp, err := os.MkdirTemp("", "bakefs-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cleanTree := filepath.Join(tmp, "tree")
	clean := p.Pipeline()
	clean.Cache = nil
	clean.BeforeWork = reserveWorkHeap
	res, err := clean.Run(ctx, jobs)
	if err != nil {
		return err
	}
	if _, err := res.WriteTree(cleanTree); err != nil {
		return err
	}
	n := 0
	if !p.TreeInCache { // a tree in the cache is the build's working copy, not an output
		if n, err = compareDirs(p.Out, cleanTree); err != nil {
			return err
		}
	}
	if p.Package != nil {
		opts := packageOptions(p, cleanTree)
		opts.Dir = filepath.Join(tmp, "package")
		if err := embedgen.Generate(opts); err != nil {
			return err
		}
		m, err := compareDirs(p.Package.Dir, opts.Dir)
		if err != nil {
			return err
		}
		n += m
	}
	fmt.Fprintf(env.stderr, "bakefs: check: %d files identical to a clean build\n", n)
	return nil
}

// errDiffers reports a file of the output that a clean build would not
// write as it is.
type errDiffers struct{ file, why string }

func (e *errDiffers) Error() string {
	return fmt.Sprintf("check: %s %s a clean build", displayPath(e.file), e.why)
}

// compareDirs compares every regular file of have with want's, in path
// order, and returns how many there are.
func compareDirs(have, want string) (int, error) {
	haveFiles, err := listFiles(have)
	if err != nil {
		return 0, err
	}
	wantFiles, err := listFiles(want)
	if err != nil {
		return 0, err
	}
	names := maps.Clone(haveFiles)
	maps.Copy(names, wantFiles)
	sorted := slices.Sorted(maps.Keys(names))
	for _, n := range sorted {
		file := filepath.Join(have, filepath.FromSlash(n))
		switch {
		case !haveFiles[n]:
			return 0, &errDiffers{file, "is missing, but is written by"}
		case !wantFiles[n]:
			return 0, &errDiffers{file, "is not written by"}
		}
		a, err := os.ReadFile(file)
		if err != nil {
			return 0, err
		}
		b, err := os.ReadFile(filepath.Join(want, filepath.FromSlash(n)))
		if err != nil {
			return 0, err
		}
		if !bytes.Equal(a, b) {
			return 0, &errDiffers{file, "differs from what is written by"}
		}
	}
	return len(sorted), nil
}

// listFiles returns the slash-separated names of the regular files below
// dir; a missing dir has none.
func listFiles(dir string) (map[string]bool, error) {
	files := make(map[string]bool)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if os.IsNotExist(err) {
		return files, nil
	}
	return files, err
}
