package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
)

const transformManual = `
Usage: bakefs transform --out DIR [--step STEP]... [--compress LIST] [--hash] [--base URL] [--strict] [--no-rewrite] [--previous DIR [--releases N]] [--remote-cache URL] [inputs]

Transform runs one chain of steps over every input and writes an output tree:
the exact bytes, their .br/.gz/.zst variants, and bakefs-manifest.json. It is
the command for Make rules and Bazel actions; bakefs build runs a whole
project file instead.

Inputs, any mix of:
  FILE                  a file inside --root; its logical path is its path relative to --root
  --file LOGICAL=PATH   one file with an explicit logical path
  --tree DIR            every logical file of an earlier output tree (chaining); with
                        no content step (a merge) its variants and hashed names are
                        kept, otherwise the steps given make them again
  --tree-as-is DIR      as --tree, with the references in its files left as they are
                        (a rule with rewrite = false)

With hashed names in the tree, references between its files are rewritten
to them (see bakefs build); --base is the URL path the tree's root is served
under, for root-relative references (default /). --no-rewrite leaves every
reference as it is: a transform whose tree is merged into a larger one later
should leave the rewrite to the merge, which sees every file.

--previous names the output tree of the release before, as deployed, as
[delta] does in a project file: its hashed files (and those it kept from
up to --releases releases back, default 2) stay in the new tree under their
hashed names, and each hashed script, style sheet, JSON, WebAssembly or SVG
file gets a dcz delta against its kept versions.

Files that a bundle imports need only be on disk; they are not inputs.
` + remoteManual + `--no-cache turns the remote cache off too.

Examples:
  bakefs transform --root web --out build/js --step bundle:format=esm --step minify --compress br,gzip --hash web/js/app.ts
  bakefs transform --out build/img --file img/hero.jpg=photos/hero.jpg --step resize:width=1600 --hash
  bakefs transform --out build/final --tree build/js --step gzip
`

// runTransform implements bakefs transform.
func runTransform(env *environment, args []string) error {
	fs := newFlagSet(env, "transform", transformManual)
	var steps, files, trees listFlag
	out := fs.String("out", "", "output tree `dir` (required)")
	root := fs.String("root", ".", "source root `dir` for FILE arguments and imports")
	compress := fs.String("compress", "", "add precompressed variants: comma-separated `list` of br, gzip, zstd")
	hash := fs.Bool("hash", false, "fingerprint every output (hashed names, for immutable caching)")
	profile := fs.String("profile", "release", "release or dev (faster compression)")
	cache := fs.String("cache", ".bakefs-cache", "cache `dir`")
	noCache := fs.Bool("no-cache", false, "run every step, read and write no cache, local or remote (for Bazel actions)")
	base := fs.String("base", "/", "public URL `path` of the tree's root, for root-relative references")
	strict := fs.Bool("strict", false, "warnings are errors: a reference to a local file that is not in the tree, a classic script a bundle keeps nothing of")
	noRewrite := fs.Bool("no-rewrite", false, "leave references between files as they are")
	previous := fs.String("previous", "", "output tree `dir` of the release before: keep its files, make deltas against them")
	releases := fs.Int("releases", 2, "with --previous, how many releases back files are kept")
	var asIs listFlag
	fs.Var(&asIs, "tree-as-is", "as --tree, references in its files left as they are (repeatable)")
	remoteFlags := addRemoteFlags(fs)
	fs.Var(&steps, "step", "a `step` of the chain, in order (repeatable; see bakefs steps)")
	fs.Var(&files, "file", "an input as `LOGICAL=PATH` (repeatable)")
	fs.Var(&trees, "tree", "every file of an earlier output tree `dir` (repeatable)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	reserveHugeHeap()
	if *out == "" {
		return usageError("transform: --out is required")
	}
	chainText := append([]string(nil), steps...)
	extra, err := commaList(*compress)
	if err != nil {
		return usageError("transform: --compress: %v", err)
	}
	chainText = append(chainText, extra...)
	if *hash {
		chainText = append(chainText, "hash")
	}
	chain, err := transform.ParseChain(chainText)
	if err != nil {
		return usageError("transform: %v", err)
	}
	prof, err := parseProfile(*profile)
	if err != nil {
		return err
	}
	jobs, err := transformJobs(*root, fs.Args(), files, trees, asIs, chain)
	if err != nil {
		return err
	}
	if *noRewrite {
		for _, j := range jobs {
			j.KeepRefs = true
		}
	}
	if len(jobs) == 0 {
		return usageError("transform: no inputs (give FILE arguments, --file or --tree)")
	}
	if err := pipeline.CheckTree(*out); err != nil {
		return fmt.Errorf("--out: %w", err) // before any work
	}
	given := &project.Project{Src: *root, Profile: prof, Base: *base, Strict: *strict, Cache: *cache, Releases: *releases}
	if *previous != "" {
		if *releases < 1 {
			return usageError("transform: --releases must be 1 or more")
		}
		if given.Previous, err = pipeline.LoadRelease(*previous); err != nil {
			return fmt.Errorf("--previous: %w", err)
		}
	}
	if *noCache {
		given.Cache = ""
	}
	p := given.Pipeline()
	if p.Cache != nil {
		if p.Remote, err = remoteFlags.open(env, fs, ""); err != nil {
			return err
		}
	}
	start := time.Now()
	return interruptible(func(ctx context.Context, c *committer) error {
		defer closeRemote(p.Remote) // a failed build's finished jobs are uploaded too
		res, tree, err := runPipeline(ctx, env, p, jobs, *out)
		if err != nil {
			return err
		}
		defer tree.Discard()
		changed := tree.Changed()
		if err := c.commit(tree.Commit); err != nil {
			return err
		}
		closeRemote(p.Remote)
		printSummary(env, res, p.Remote != nil, changed, *out, time.Since(start))
		return nil
	})
}

func parseProfile(s string) (transform.Profile, error) {
	switch p := transform.Profile(s); p {
	case transform.Release, transform.Dev:
		return p, nil
	}
	return "", usageError("--profile %q is not release or dev", s)
}

// transformJobs gathers the inputs of bakefs transform. Logical paths must
// be valid for io/fs and unique.
func transformJobs(root string, args, files, trees, asIs []string, chain transform.Chain) ([]*pipeline.Job, error) {
	var jobs []*pipeline.Job
	seen := make(map[string]string)
	add := func(j *pipeline.Job, from string) error {
		if !utf8.ValidString(j.Path) {
			return usageError("%s: logical path %q is not UTF-8: io/fs names, URLs and //go:embed need UTF-8 names", from, j.Path)
		}
		if !fs.ValidPath(j.Path) || j.Path == "." {
			return usageError("%s: logical path %q is not valid (relative, slash-separated, no . or .. elements)", from, j.Path)
		}
		if prev, ok := seen[j.Path]; ok {
			return usageError("%s: logical path %q is also given by %s", from, j.Path, prev)
		}
		seen[j.Path] = from
		j.Chain = chain
		j.Group = "transform" // one rule: a joining step takes every input together
		jobs = append(jobs, j)
		return nil
	}
	for _, a := range args {
		rel, err := relUnder(root, a)
		if err != nil {
			return nil, err
		}
		if err := add(&pipeline.Job{Path: filepath.ToSlash(rel), File: a}, a); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		logical, file, ok := strings.Cut(f, "=")
		if !ok || file == "" {
			return nil, usageError("--file %q: want LOGICAL=PATH", f)
		}
		if err := add(&pipeline.Job{Path: logical, File: file}, "--file "+f); err != nil {
			return nil, err
		}
	}
	for i, dir := range append(append([]string(nil), trees...), asIs...) {
		keep := i >= len(trees)
		raw, err := os.ReadFile(filepath.Join(dir, bakefs.ManifestName))
		if err != nil {
			return nil, fmt.Errorf("--tree %s: %w", dir, err)
		}
		m, err := bakefs.ParseManifest(raw)
		if err != nil {
			return nil, fmt.Errorf("--tree %s: %w", dir, err)
		}
		for _, e := range m.Files {
			j := &pipeline.Job{Path: e.Path, Source: e.Source, File: filepath.Join(dir, filepath.FromSlash(e.Path)), Width: e.Width, Height: e.Height, Hashed: e.Hashed != "", Fingerprinted: e.Fingerprinted, KeepRefs: keep,
				Imports: e.Imports, DynamicImports: e.DynamicImports, CSS: e.CSS}
			for _, enc := range e.Encodings {
				j.Encodings = append(j.Encodings, pipeline.JobEncoding{Name: enc.Name, File: filepath.Join(dir, filepath.FromSlash(enc.Path))})
			}
			if err := add(j, "--tree "+dir); err != nil {
				return nil, err
			}
		}
	}
	return jobs, nil
}

// relUnder returns file's path relative to root, refusing a file outside it.
func relUnder(root, file string) (string, error) {
	absRoot, err1 := filepath.Abs(root)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", usageError("%s: cannot resolve against --root %s", file, root)
	}
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", usageError("%s: not inside --root %s", file, root)
	}
	return rel, nil
}
