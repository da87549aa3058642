package pipeline

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// An Incremental carries what one run of a Pipeline made to the next run
// of the same project in the same process, as the rebuilds of a dev
// server are, so that a rebuild after one file changed costs what changed
// rather than what exists.
//
// A job whose input file has the size and modification time it had when
// an earlier run read it, whose chain, paths and profile are the same,
// and whose outputs came from a cache entry that depends on nothing but
// that input, takes the entry's outputs from memory: the file is not read
// or hashed and the cache is not consulted. A file modified within its
// file system's timestamp granularity of the run that read it is not
// remembered (see racy), and jobs whose steps read other files (bundles) go through
// the cache as before, which checks their dependencies. Likewise an output
// whose path, type, bytes and finishing steps are those of an earlier
// run's output takes its variants from memory.
//
// Pipeline.Incremental is ignored without Pipeline.Cache, which must be
// the same *Cache in every run that shares the Incremental: the cache then
// keeps its indexes in memory between runs, and Run leaves writing them
// to the caller (Cache.Flush), so that the rebuild waits for none of it.
// The outputs remembered are those of cache entries, whose blobs a run
// reads when a tree needs them: one found missing or damaged
// (ErrCacheDamaged) makes the caller Reset the Incremental and run again.
//
// A caller that watches the input files can spare the run the Stat of
// each one: OnlyChanged names the files that may have changed.
//
// An Incremental serves one Run at a time; its methods are safe for
// concurrent use.
type Incremental struct {
	mu       sync.Mutex
	jobs     map[string]*jobMemo    // by Job.Path, from the last run
	finished map[string]*finishMemo // by output path, from the last run
	complete bool                   // the last run got through
	pending  map[string]bool        // OnlyChanged's paths, for the next run
	// What the run in progress used or made, the next run's memory.
	nextJobs     map[string]*jobMemo
	nextFinished map[string]*finishMemo
	// changed, when not nil, holds the only paths of the run in progress
	// whose input files may have changed since the last run.
	changed map[string]bool
}

// A jobMemo is a job's outcome, answered by a cache entry without
// dependencies.
type jobMemo struct {
	path, source, file string
	width, height      int
	chain              transform.Chain
	profile            transform.Profile
	size, mtime        int64 // the input file's stamp when it was read
	limit              int64 // Pipeline.MaxInputSize of that run
	link               bool  // the input file is a symbolic link, or was not Lstat'ed
	key                string
	entry              cacheEntry
}

// A finishMemo is the outcome of an output's finishing steps.
type finishMemo struct {
	typ           string
	width, height int
	blob          blobRef
	carried       []encodedOutput // the variants the output came with, bytes left out
	chain         transform.Chain
	profile       transform.Profile
	key           string
	entry         cacheEntry
	encodings     []encodedOutput
	hashed        bool
}

// Reset forgets everything remembered, so that the next run asks the cache
// for every job and output.
func (inc *Incremental) Reset() {
	inc.mu.Lock()
	defer inc.mu.Unlock()
	inc.jobs, inc.finished, inc.complete, inc.pending = nil, nil, false, nil
}

// OnlyChanged tells the next Run that, of the jobs' input files, only
// those of the given logical paths (Job.Path) may have changed since the
// last run started: a caller that watches the sources, and saw no event
// it could not place since then, says so. The run then takes the stamps
// of the other files from memory instead of a Stat each; it still reads
// the files it does not remember. The paths apply to the next run only,
// and only when the last run got through (it was not cancelled) and
// nothing was Reset since; a file that is a symbolic link is always
// looked at, since its target may change without an event where it is.
func (inc *Incremental) OnlyChanged(paths map[string]bool) {
	inc.mu.Lock()
	defer inc.mu.Unlock()
	inc.pending = paths
	if inc.pending == nil {
		inc.pending = make(map[string]bool)
	}
}

// begin starts a run with the cache c: what the last run used becomes what
// c's indexes hold, as if this run had read them afresh.
func (inc *Incremental) begin(c *Cache) {
	inc.mu.Lock()
	inc.nextJobs = make(map[string]*jobMemo, len(inc.jobs))
	inc.nextFinished = make(map[string]*finishMemo, len(inc.finished))
	inc.changed = nil
	if inc.complete && inc.pending != nil {
		inc.changed = inc.pending
	}
	inc.pending, inc.complete = nil, false
	inc.mu.Unlock()

	x := c.entryIndex()
	x.load()
	x.mu.Lock()
	if x.used != nil {
		x.loaded = x.used
	}
	x.used = make(map[string]cacheEntry, len(x.loaded))
	x.mu.Unlock()
	f := c.files()
	f.mu.Lock()
	f.load()
	f.used = make(map[string]bool, len(f.entries))
	f.mu.Unlock()
}

// end makes what this run used the memory of the next. A run that did not
// get through (complete false) adds it to the memory instead.
func (inc *Incremental) end(complete bool) {
	inc.mu.Lock()
	defer inc.mu.Unlock()
	inc.complete, inc.changed = complete, nil
	if complete || inc.jobs == nil {
		inc.jobs, inc.finished = inc.nextJobs, inc.nextFinished
	} else {
		for k, v := range inc.nextJobs {
			inc.jobs[k] = v
		}
		for k, v := range inc.nextFinished {
			inc.finished[k] = v
		}
	}
	inc.nextJobs, inc.nextFinished = nil, nil
}

// runJobRemembered is runJob, answered from p.Incremental when the job and
// its input are those of a job it remembers.
func (p *Pipeline) runJobRemembered(ctx context.Context, job *Job) (jobOutcome, error) {
	inc := p.Incremental
	if inc == nil || p.Cache == nil || job.carries() || len(job.Inputs) > 0 {
		return p.runJob(ctx, job)
	}
	if err := ctx.Err(); err != nil {
		return jobOutcome{}, err
	}
	profile, limit := p.profile(), p.maxInputSize()
	inc.mu.Lock()
	m := inc.jobs[job.Path]
	inc.mu.Unlock()
	if m != nil && !m.sameJob(job, profile, limit) {
		m = nil
	}
	// inc.changed is set before the workers start and read-only after.
	if m != nil && inc.changed != nil && !inc.changed[job.Path] && !m.link {
		return jobOutcome{outs: p.recall(m, job), from: fromLocal, reads: []fileRead{{job.File, m.size}}}, nil
	}
	fi, statErr := os.Stat(job.File)
	if statErr == nil && m != nil && fi.Mode().IsRegular() && fi.Size() == m.size && fi.ModTime().UnixNano() == m.mtime {
		return jobOutcome{outs: p.recall(m, job), from: fromLocal, reads: []fileRead{{job.File, m.size}}}, nil
	}
	readAt := time.Now()
	run, err := p.runJob(ctx, job)
	outs := run.outs
	if err != nil || statErr != nil || len(outs) == 0 || racy(fi.ModTime(), readAt) {
		return run, err
	}
	key := outs[0].key
	e, ok := p.Cache.entryIndex().usedEntry(key)
	if !ok || len(e.Deps) > 0 || len(e.Outputs) != len(outs) {
		return run, err
	}
	for _, o := range outs {
		if o.key != key {
			return run, err
		}
	}
	lfi, lerr := os.Lstat(job.File)
	inc.remember(&jobMemo{
		path: job.Path, source: job.Source, file: job.File, width: job.Width, height: job.Height,
		chain: job.Chain, profile: profile, size: fi.Size(), mtime: fi.ModTime().UnixNano(), limit: limit,
		link: lerr != nil || lfi.Mode()&os.ModeSymlink != 0, key: key, entry: e,
	})
	return run, err
}

// recall gives the outputs of job, which m remembers, and records its use
// as a cache hit would.
func (p *Pipeline) recall(m *jobMemo, job *Job) []*output {
	p.Cache.files().touch(m.file)
	p.Cache.entryIndex().use(m.key, m.entry)
	p.Cache.jobRecords().keep(jobIdentity(job)) // as the run that made m.entry left it
	p.Incremental.remember(m)
	return outputsFromCache(&m.entry, m.key)
}

func (inc *Incremental) remember(m *jobMemo) {
	inc.mu.Lock()
	inc.nextJobs[m.path] = m
	inc.mu.Unlock()
}

// sameJob reports whether job, run with profile and limit, is the job m
// remembers.
func (m *jobMemo) sameJob(job *Job, profile transform.Profile, limit int64) bool {
	return m.path == job.Path && m.source == job.Source && m.file == job.File &&
		m.width == job.Width && m.height == job.Height && m.profile == profile && m.limit == limit &&
		sameSteps(m.chain, job.Chain)
}

// sameSteps reports whether two chains have the same steps with the same
// options, as Chain.Key would tell, without formatting their keys.
func sameSteps(a, b transform.Chain) bool {
	return slices.EqualFunc(a, b, func(x, y *transform.BoundStep) bool {
		return x.Name == y.Name && x.Version == y.Version && x.Canonical == y.Canonical
	})
}

// finishRemembered is finishOne, answered from p.Incremental when o and
// chain are an output and steps it remembers.
func (p *Pipeline) finishRemembered(ctx context.Context, o *output, chain transform.Chain, profile transform.Profile) error {
	inc := p.Incremental
	if inc == nil || p.Cache == nil {
		return p.finishOne(ctx, o, chain, profile)
	}
	inc.mu.Lock()
	m := inc.finished[o.Path]
	inc.mu.Unlock()
	if m != nil && m.sameOutput(o, chain, profile) {
		p.Cache.entryIndex().use(m.key, m.entry)
		inc.rememberFinish(o.Path, m)
		o.encodings = slices.Clone(m.encodings)
		o.Hashed = o.Hashed || m.hashed
		return nil
	}
	tool, err := p.Cache.toolIdentity()
	if err != nil {
		return err
	}
	m = &finishMemo{typ: o.Type, width: o.Width, height: o.Height, blob: o.blob, chain: chain, profile: profile,
		key: finishKey(tool, o, chain, profile)}
	for _, e := range o.encodings {
		m.carried = append(m.carried, encodedOutput{name: e.name, blob: e.blob})
	}
	if err := p.finishOne(ctx, o, chain, profile); err != nil {
		return err
	}
	// Only an outcome that the cache holds (an entry this run used or
	// stored under the key) is remembered: its variants' bytes are there.
	e, ok := p.Cache.entryIndex().usedEntry(m.key)
	if !ok {
		return nil
	}
	for _, enc := range o.encodings {
		if enc.data != nil {
			return nil
		}
		m.encodings = append(m.encodings, encodedOutput{name: enc.name, blob: enc.blob, key: enc.key})
	}
	m.entry, m.hashed = e, o.Hashed
	inc.rememberFinish(o.Path, m)
	return nil
}

func (inc *Incremental) rememberFinish(path string, m *finishMemo) {
	inc.mu.Lock()
	inc.nextFinished[path] = m
	inc.mu.Unlock()
}

// sameOutput reports whether o, finished by chain with profile, is the
// output m remembers.
func (m *finishMemo) sameOutput(o *output, chain transform.Chain, profile transform.Profile) bool {
	if m.typ != o.Type || m.width != o.Width || m.height != o.Height || m.blob != o.blob ||
		m.profile != profile || !sameSteps(m.chain, chain) || len(m.carried) != len(o.encodings) {
		return false
	}
	for i, e := range o.encodings {
		if m.carried[i].name != e.name || m.carried[i].blob != e.blob {
			return false
		}
	}
	return true
}
