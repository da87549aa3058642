package transform

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// A Step transforms assets. Run is called with the assets of one source file
// (usually one asset) and returns the assets that replace them. Run must not
// modify the assets it is given beyond replacing their fields; it may return
// them. A Step is safe for concurrent use: the pipeline runs the same Step
// on many files at once.
type Step interface {
	Run(ctx *Context, in []*Asset) ([]*Asset, error)
}

// StepFunc adapts a function to the Step interface.
type StepFunc func(ctx *Context, in []*Asset) ([]*Asset, error)

// Run calls f.
func (f StepFunc) Run(ctx *Context, in []*Asset) ([]*Asset, error) { return f(ctx, in) }

// EachAsset returns a Step that calls f on every asset in turn and
// concatenates what it returns.
func EachAsset(f func(ctx *Context, a *Asset) ([]*Asset, error)) Step {
	return StepFunc(func(ctx *Context, in []*Asset) ([]*Asset, error) {
		var out []*Asset
		for _, a := range in {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res, err := f(ctx, a)
			if err != nil {
				return nil, err
			}
			out = append(out, res...)
		}
		return out, nil
	})
}

// Profile selects settings that trade output size for speed.
type Profile string

// The profiles. Release is the default.
const (
	Release Profile = "release"
	Dev     Profile = "dev"
)

// A Context carries what a step may need beyond its assets: cancellation,
// the source root and the profile. It also collects the files a step read
// from the source root (a bundle's imports), so that the cache re-runs the
// chain when one of them changes. A Context belongs to one chain run and is
// not safe for concurrent use.
type Context struct {
	context.Context
	// Root is the directory that logical source paths are relative to.
	Root string
	// Profile selects compression levels and similar trade-offs.
	Profile Profile
	// Resolve maps a logical source path to the file on disk; File uses
	// it. Nil means filepath.Join(Root, path). The pipeline sets it so that
	// a job's own input resolves to its real file wherever that is.
	Resolve func(logical string) string

	deps, dirs map[string]bool
}

// NewContext returns a Context for one chain run.
func NewContext(ctx context.Context, root string, profile Profile) *Context {
	if profile == "" {
		profile = Release
	}
	return &Context{Context: ctx, Root: root, Profile: profile}
}

// File returns the path on disk of a logical source path: Resolve(logical)
// when Resolve is set, else logical under Root.
func (c *Context) File(logical string) string {
	if c.Resolve != nil {
		return c.Resolve(logical)
	}
	return filepath.Join(c.Root, filepath.FromSlash(logical))
}

// RelativeTo returns file relative to root, slash-separated, when it is
// inside root: the logical path of a file on disk under a source root.
// It is false for an empty root.
func RelativeTo(root, file string) (string, bool) {
	if root == "" {
		return "", false
	}
	absRoot, err1 := filepath.Abs(root)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Depend records that the output depends on a file on disk (an absolute
// path or one relative to the working directory) beyond the chain's own
// input.
func (c *Context) Depend(file string) {
	if c.deps == nil {
		c.deps = make(map[string]bool)
	}
	c.deps[file] = true
}

// DependDir records that the output depends on which names a directory on
// disk holds (or on its absence): a step that looked for a file there, and
// would have read another had it been there, records the directory, so
// that a file appearing where it would win the lookup runs the chain
// again.
func (c *Context) DependDir(dir string) {
	if c.dirs == nil {
		c.dirs = make(map[string]bool)
	}
	c.dirs[dir] = true
}

// Deps returns the files recorded by Depend, sorted.
func (c *Context) Deps() []string { return slices.Sorted(maps.Keys(c.deps)) }

// DepDirs returns the directories recorded by DependDir, sorted.
func (c *Context) DepDirs() []string { return slices.Sorted(maps.Keys(c.dirs)) }
