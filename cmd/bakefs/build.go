package main

import (
	"context"
	"fmt"
	"time"

	"github.com/bakefs/bakefs/embedgen"
	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/project"
)

const buildManual = `
Usage: bakefs build [-f FILE] [--check] [--strict] [--explain] [--remote-cache URL [--remote-cache-read-only] [--remote-header 'Name: value']...]

Build runs a project file (default ./bakefs.toml): it matches the source files
to the rules' chains, runs them in parallel with the cache, writes the output
tree and manifest, and, when the file has a [package] table, writes the Go
package that embeds the tree. Nothing that is unchanged is rewritten.

The tree and the package are committed together, once everything has been
made: a failed or interrupted build (Ctrl-C exits within a second, status
130) leaves both as they were, and a crash leaves each whole, old or new.

With hashing on, references between the files of the tree (url() in CSS,
src, href and srcset in HTML, href in SVG, icons in web app manifests,
sourceMappingURL comments) are rewritten to the hashed names of their
targets; root-relative ones resolve against the project's base. A
reference to a local file that is not in the tree is a warning, an error
with strict = true or --strict; so is an imported classic script (no import
or export) of which a bundle keeps nothing.

--check builds everything again without the cache into a temporary
directory and compares it byte for byte with the current tree and package;
it exits 1 naming the first file that differs. It writes nothing in place.

--explain prints, for each job that ran, what changed since the job's last
build, from the cache's record of it, one line each on stderr:

  bakefs: ran js/app.ts: input js/util.ts changed
  bakefs: ran js/site.js: option minify.target changed (default → es2017)
  bakefs: ran js/admin.ts: directory listing js/components changed
  bakefs: ran img/hero.jpg: tool changed (bakefs build ID)
  bakefs: ran js/new.ts: no earlier build of this job

Other reasons: steps changed, profile changed, input added or removed,
"input X was modified during the last run (racy)" (its result was not
cached: the file changed too close to that build for its time to show a
second change), "cache entry evicted" (pruned, or removed), "not in the
remote cache". A build with nothing changed prints none.

Memory: a build collects garbage only when the memory in use reaches a soft
limit that follows the live heap (192 MiB at least; GOGC or GOMEMLIMIT in
the environment set Go's own instead), and on Linux, where the kernel gives
transparent huge pages only to memory that asks for them, its heap asks
(GODEBUG=disablethp=1 turns that off). The same holds for bakefs transform.
` + remoteManual + `
Example bakefs.toml:

  src      = "web"
  out      = "build/assets"
  compress = ["br", "gzip", "zstd"]
  hash     = true

  [package]
  dir  = "internal/assets"
  name = "assets"

  [[rule]]
  match = "js/app.ts"
  steps = ["bundle:format=esm", "minify"]

  [[rule]]
  match = ["**/*.css", "**/*.html", "**/*.svg"]
  steps = ["minify"]

Examples:
  bakefs build
  bakefs build -f examples/minimal/bakefs.toml
  bakefs build --check        # is the output what a clean build gives?
  bakefs build --explain      # why did each job run?
  BAKEFS_REMOTE_HEADER="Authorization: Bearer $TOKEN" bakefs build --remote-cache https://cache.example.com
  bakefs build --remote-cache http://127.0.0.1:9090 --remote-cache-read-only
`

// runBuild implements bakefs build.
func runBuild(env *environment, args []string) error {
	start := time.Now()
	fs := newFlagSet(env, "build", buildManual)
	file := fs.String("f", project.DefaultFile, "project `file`")
	check := fs.Bool("check", false, "rebuild without the cache and compare with the current output; write nothing")
	strict := fs.Bool("strict", false, "warnings are errors: a reference to a local file that is not in the tree, a classic script a bundle keeps nothing of")
	explain := fs.Bool("explain", false, "print why each job that ran did: what changed since its last build")
	remoteFlags := addRemoteFlags(fs)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("build: unexpected argument %q", fs.Arg(0))
	}
	reserveHugeHeap()
	p, err := project.Load(*file)
	if err != nil {
		return err
	}
	jobs, err := p.Jobs()
	if err != nil {
		return err
	}
	p.Strict = p.Strict || *strict
	if *check {
		return interruptible(func(ctx context.Context, _ *committer) error {
			return checkBuild(ctx, env, p, jobs)
		})
	}
	if err := pipeline.CheckTree(p.Out); err != nil {
		return fmt.Errorf("%s: out: %w", p.File, err) // before any work
	}
	pipe := p.Pipeline()
	pipe.Explain = *explain
	if pipe.Remote, err = remoteFlags.open(env, fs, p.RemoteCache); err != nil {
		return err
	}
	if pipe.Remote != nil && pipe.Cache == nil {
		return fmt.Errorf("%s: a remote cache needs the local cache, which the project turns off (cache = \"\")", p.File)
	}
	return interruptible(func(ctx context.Context, c *committer) error {
		defer closeRemote(pipe.Remote) // a failed build's finished jobs are uploaded too
		res, tree, err := runPipeline(ctx, env, pipe, jobs, p.Out)
		if err != nil {
			return err
		}
		defer tree.Discard()
		var pkg *embedgen.Update
		if p.Package != nil {
			if pkg, err = embedgen.PrepareManifest(packageOptions(p, tree.Path()), res.Manifest, tree.Manifest()); err != nil {
				return err
			}
			defer pkg.Discard()
		}
		changed := tree.Changed() || pkg != nil && pkg.Changed()
		err = c.commit(func() error {
			if err := tree.Commit(); err != nil {
				return err
			}
			if pkg != nil {
				return pkg.Commit()
			}
			return nil
		})
		if err != nil {
			return err
		}
		closeRemote(pipe.Remote)
		shown := p.Out
		if p.TreeInCache {
			shown = p.Package.Dir
		}
		printSummary(env, res, pipe.Remote != nil, changed, shown, time.Since(start))
		return nil
	})
}

// packageOptions are the embed options of a project's [package] table for
// the tree in dir.
func packageOptions(p *project.Project, tree string) embedgen.Options {
	return embedgen.Options{Tree: tree, Dir: p.Package.Dir, Package: p.Package.Name, ImportPath: p.Package.ImportPath}
}
