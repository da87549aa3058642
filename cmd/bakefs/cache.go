package main

import (
	"fmt"

	"github.com/bakefs/bakefs/internal/report"
	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/project"
)

const cacheManual = `
Usage: bakefs cache prune [-f FILE | --dir DIR] [--max-size SIZE]

The cache (default .bakefs-cache beside the project file) keeps the outputs
of every chain run under a key of everything that makes their bytes. It is
bounded (cache_size in the project file, default 1GiB): a build that takes
it past the bound removes the least recently used entries. Entries are
verified when read; a damaged one is discarded and its step runs again.

prune removes least recently used entries until the cache fits SIZE
(default: the project's bound), blobs no entry uses, and temporary files
left by crashes. --max-size 0 empties it.

Examples:
  bakefs cache prune
  bakefs cache prune --max-size 200MB
  bakefs cache prune --dir /tmp/cache --max-size 0
`

// runCache implements bakefs cache.
func runCache(env *environment, args []string) error {
	if len(args) == 0 || args[0] != "prune" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return parseFlags(env, newFlagSet(env, "cache", cacheManual), args)
		}
		return usageError("cache: want a subcommand: prune (see bakefs help cache)")
	}
	fs := newFlagSet(env, "cache prune", cacheManual)
	file := fs.String("f", project.DefaultFile, "project `file` whose cache to prune")
	dir := fs.String("dir", "", "cache `dir` (instead of a project file's)")
	maxSize := fs.String("max-size", "", "keep at most this `size` (500MB, 2GiB; 0 empties the cache)")
	if err := parseFlags(env, fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("cache prune: unexpected argument %q", fs.Arg(0))
	}
	c := &pipeline.Cache{Dir: *dir}
	if c.Dir == "" {
		p, err := project.Load(*file)
		if err != nil {
			return err
		}
		if c = p.Pipeline().Cache; c == nil {
			return fmt.Errorf("%s has no cache (cache = \"\")", *file)
		}
	}
	limit := c.MaxSize
	if limit <= 0 {
		limit = pipeline.DefaultCacheSize
	}
	if *maxSize != "" {
		n, err := pipeline.ParseByteSize(*maxSize)
		if err != nil {
			return usageError("cache prune: --max-size: %v", err)
		}
		limit = n
	}
	st, err := c.Prune(limit)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "bakefs: cache %s: removed %d entries and %d blobs (%s), %s kept\n",
		displayPath(c.Dir), st.Entries, st.Blobs, report.ByteSize(st.Freed), report.ByteSize(st.Kept))
	return nil
}
