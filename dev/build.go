package dev

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
)

// buildResult is what one build made.
type buildResult struct {
	fs       *fs.FS
	manifest []byte
	dir      string // the output tree
	src      string // the project's source root
	stats    transform.Stats
	warnings []error
}

// buildOnce loads the project file afresh (so that edits to it apply),
// runs its rules with the dev profile and writes the output tree into a
// new directory of s.tmp. On error the result, when not nil, still names
// the source root for messages.
//
// prevDir, when not empty, is the previous build's tree, whose unchanged
// files the new tree links instead of copying.
func (s *Server) buildOnce(ctx context.Context, gen uint64, prevDir string) (*buildResult, error) {
	p, err := project.Load(s.file)
	if err != nil {
		return nil, err
	}
	res := &buildResult{src: p.Src}
	if !s.opts.NoSourcemaps {
		if err := withSourcemaps(p); err != nil {
			return res, err
		}
	}
	jobs, err := p.Jobs()
	if err != nil {
		return res, err
	}
	cache := p.Cache
	if cache == "" {
		cache = filepath.Join(s.tmp, "cache")
	}
	pipe := &transform.Pipeline{Root: p.Src, Profile: transform.Dev, Cache: &transform.Cache{Dir: cache}, Remote: s.opts.Remote, Base: p.Base, Strict: p.Strict}
	out, err := pipe.Run(ctx, jobs)
	if err != nil {
		return res, err
	}
	res.stats, res.warnings = out.Stats, out.Warnings
	if res.manifest, err = transform.EncodeManifest(out.Manifest); err != nil {
		return res, err
	}
	res.dir = filepath.Join(s.tmp, fmt.Sprintf("build-%d", gen))
	os.RemoveAll(res.dir) // left by an earlier attempt that failed late
	// The files that did not change are links to the previous build's.
	if err := out.WriteTreeFrom(res.dir, prevDir); err != nil {
		return res, err
	}
	// The tree was just written from verified bytes: no Stat per file.
	if res.fs, err = fs.NewVerified(os.DirFS(res.dir), out.Manifest); err != nil {
		os.RemoveAll(res.dir)
		return res, err
	}
	return res, nil
}

// withSourcemaps rebuilds the chains of p's rules with sourcemap=external
// for every step that takes a sourcemap option and was not given one.
func withSourcemaps(p *project.Project) error {
	for i := range p.Rules {
		r := &p.Rules[i]
		chain, err := transform.ParseChainOptions(r.Steps, transform.ChainOptions{Sourcemaps: true})
		if err != nil {
			return fmt.Errorf("%s: rule %v with source maps: %w", p.File, r.Match, err)
		}
		r.Chain = chain
	}
	return nil
}
