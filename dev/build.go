package dev

import (
	"context"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
	"path/filepath"
	"reflect"
)

// buildResult is what one build made.
type buildResult struct {
	fs       *bakefs.FS
	manifest *bakefs.Manifest
	data     *storeFS // the output tree, in the store
	src      string   // the project's source root
	stats    pipeline.Stats
	warnings []error
}

// A memory is the cache of a project's builds, with its indexes kept
// loaded, and what the last build made (pipeline.Incremental), carried
// from build to build while the project keeps its source root and cache.
type memory struct {
	root, dir string
	cache     *pipeline.Cache
	inc       *pipeline.Incremental
}

// buildOnce loads the project file afresh (so that edits to it apply),
// runs its rules with the dev profile and adds the files of the output
// tree that are new to the store. On error the result, when not nil,
// still names the source root for messages.
func (s *Server) buildOnce(ctx context.Context) (*buildResult, error) {
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
	jobs, err := s.jobsOf(p)
	if err != nil {
		return res, err
	}
	dir := p.Cache
	if dir == "" {
		dir = filepath.Join(s.tmp, "cache")
	}
	if s.mem == nil || s.mem.root != p.Src || s.mem.dir != dir {
		s.flushLocked()
		s.mem = &memory{root: p.Src, dir: dir, cache: &pipeline.Cache{Dir: dir}, inc: &pipeline.Incremental{}}
	}
	pipe := p.Pipeline()
	pipe.Profile, pipe.Cache, pipe.Remote, pipe.Incremental = transform.Dev, s.mem.cache, s.opts.Remote, s.mem.inc
	if changed, ok := s.takeChanged(); ok {
		s.mem.inc.OnlyChanged(changed)
	}
	out, err := pipe.Run(ctx, jobs)
	if err != nil {
		return res, err
	}
	res.stats, res.warnings, res.manifest = out.Stats, out.Warnings, out.Manifest
	if res.data, err = s.store.add(out, out.Manifest); err != nil {
		return res, err
	}
	// The store holds bytes verified against the manifest: no Stat per file.
	if res.fs, err = bakefs.NewVerified(res.data, out.Manifest); err != nil {
		s.store.release(res.data)
		return res, err
	}
	return res, nil
}

// jobsOf returns the jobs of p: those of the last build while Run is
// watching and has seen nothing since that build listed them that could
// change them (Server.layout: new bytes in a file do not), so that a
// rebuild after an edit does not walk the source tree; p.Jobs otherwise.
func (s *Server) jobsOf(p *project.Project) ([]*pipeline.Job, error) {
	watching := false
	select {
	case <-s.watching:
		watching = true
	default:
	}
	layout := s.layout.Load() // before the walk: an event during it counts
	if watching && s.jobs != nil && s.jobsAt == layout {
		return s.jobs, nil
	}
	s.jobs = nil
	jobs, err := p.Jobs()
	if err != nil {
		return nil, err
	}
	if watching {
		s.jobs, s.jobsAt = jobs, layout
	}
	return jobs, nil
}

// noteChanged records that the source file at the logical path name was
// written or created.
func (s *Server) noteChanged(name string) {
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	if s.changed == nil {
		s.changed = make(map[string]bool)
	}
	s.changed[name] = true
}

// noteUnknown records an event that says more than which files have new
// bytes (a removal, a rename, a new directory, the project file, a
// watcher error): the next build looks at every file.
func (s *Server) noteUnknown() {
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	s.changedKnown = false
}

// takeChanged returns the files noted since the last call, and whether
// they are all that may have changed since then; it starts the next
// record, which is complete only while Run watches (a build before the
// watches were set up cannot know what changed before them).
func (s *Server) takeChanged() (map[string]bool, bool) {
	watching := false
	select {
	case <-s.watching:
		watching = true
	default:
	}
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	changed, known := s.changed, s.changedKnown
	s.changed, s.changedKnown = nil, watching
	if changed == nil {
		changed = make(map[string]bool)
	}
	return changed, known
}

// sameManifest reports whether two builds describe the same tree.
func sameManifest(a, b *bakefs.Manifest) bool {
	return reflect.DeepEqual(a, b)
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
