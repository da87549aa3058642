package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// DefaultMaxInputSize bounds the size of one input file: 256 MiB.
const DefaultMaxInputSize = 256 << 20

// A Pipeline runs jobs in parallel, with a cache, and gathers their outputs
// into a manifest. The zero value runs with the release profile, no cache
// and GOMAXPROCS workers.
type Pipeline struct {
	// Root is the source root given to steps in their Context.
	Root string
	// Profile selects compression levels; empty means Release.
	Profile transform.Profile
	// Cache, when set, skips chains whose inputs are unchanged.
	Cache *Cache
	// Remote, when set together with Cache, is looked up for the jobs that
	// Cache cannot answer, and receives the results of the jobs that ran.
	// Run does not wait for the uploads: the RemoteCache's owner closes it
	// (RemoteCache.Close) before the process ends.
	Remote *RemoteCache
	// Workers bounds the number of chains run at once; 0 means GOMAXPROCS.
	Workers int
	// MaxInputSize bounds one input file in bytes; 0 means DefaultMaxInputSize.
	MaxInputSize int64
	// Progress, when set, is called after each job from one goroutine at a
	// time.
	Progress func(Progress)
	// Base is the public URL path under which the output tree's root is
	// served ("/static/"), against which the rewrite pass resolves
	// root-relative references (/static/img/a.png); "" means "/".
	Base string
	// Strict makes every warning an error that stops the run: a
	// reference to a local file that is not in the output tree (see
	// rewrite.go), and the steps' (transform.Asset.Warnings).
	Strict bool
	// Incremental, when set together with Cache, carries what this run
	// makes to the next run that shares it, which then answers unchanged
	// jobs and outputs from memory; Run then leaves Cache.Flush to the
	// caller (see Incremental).
	Incremental *Incremental
	// Explain makes Run say why each job that ran did not come from the
	// cache (Result.Explanations). Without it Run does no more work than
	// keeping the cache's small record of each job's key, which the
	// explanations of a later run compare with.
	Explain bool
	// Previous, when set, is the release before this build: its hashed
	// files, and the files it kept from the Releases-1 releases before
	// it, stay in the new tree under their hashed names (kept files, see
	// bakefs.Entry.Previous), and each hashed output of a dictionary type
	// gets a delta against its kept versions (see makeDeltas). The dev
	// profile ignores it: a dev tree is served by the build's own server,
	// to one browser, and has neither.
	Previous *Release
	// Releases is how many releases back files are kept; 0 means 1.
	Releases int
	// BeforeWork, when set, is called once per Run, before the first
	// step that no cache answered runs (a chain, a finishing step, a
	// delta): a one-shot build readies its memory there for the
	// allocations of real work, which a build that the caches answer
	// whole does not make. It is called on that step's goroutine, while
	// other jobs go on.
	BeforeWork func()

	beforeWork func() // BeforeWork, once per Run; see Run
}

// Progress reports how far a run has come.
type Progress struct {
	Done, Total int
	Path        string // the job just finished
}

// Stats summarises a run.
type Stats struct {
	Files    int           // outputs in the manifest
	Ran      int           // jobs whose chain ran
	Cached   int           // jobs answered by the cache
	Remote   int           // of Cached, jobs answered by the remote cache
	BytesIn  int64         // bytes of the distinct source files the jobs read (see fileRead)
	BytesOut int64         // output bytes, variants included
	Elapsed  time.Duration // wall time of Run
	Kept     int           // files of earlier releases kept (Pipeline.Previous)
	Deltas   int           // deltas made or taken from the cache
}

// A Result is the outcome of a successful run: the manifest and the bytes
// behind it, ready for WriteTree.
type Result struct {
	Manifest *bakefs.Manifest
	Stats    Stats
	// Warnings are the mistakes that did not stop the run (the steps'
	// transform.Asset.Warnings, references to files that are not in the
	// tree), sorted; each is a *SourceError.
	Warnings []error
	// Explanations, with Pipeline.Explain, say why each job that ran
	// (Stats.Ran) did, in the order of the jobs' paths.
	Explanations []Explanation

	outputs []*output   // sorted by Path
	kept    []*keptFile // sorted by path; with outputs, Manifest.Files
	cache   *Cache
}

// Run runs every job's chain and builds the manifest. It reports all
// failing jobs, not only the first, as errors joined in the order of their
// paths. Two jobs that produce the same output path are an error naming
// both sources. When ctx is done, Run returns ctx's error alone, once the
// chains that were running have stopped.
func (p *Pipeline) Run(ctx context.Context, jobs []*Job) (*Result, error) {
	start := time.Now()
	p.beforeWork = nil
	if p.BeforeWork != nil {
		p.beforeWork = sync.OnceFunc(p.BeforeWork)
	}
	jobs = joinJobs(jobs)
	if p.Cache != nil {
		p.Cache.bind(p.Root)
	}
	inc := p.Incremental
	if p.Cache == nil {
		inc = nil
	}
	if inc != nil {
		inc.begin(p.Cache)
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]jobResult, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var progressMu sync.Mutex
	done := 0
	for w := 0; w < min(workers, max(len(jobs), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := &results[i]
				r.job = jobs[i]
				r.jobOutcome, r.err = p.runJobRemembered(ctx, jobs[i])
				if p.Progress != nil {
					progressMu.Lock()
					done++
					p.Progress(Progress{Done: done, Total: len(jobs), Path: jobs[i].Path})
					progressMu.Unlock()
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := p.assemble(ctx, results)
	if inc != nil {
		inc.end(ctx.Err() == nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.Cache != nil && inc == nil {
		// Also after a failure: what the jobs stored serves the next run.
		if ferr := p.Cache.Flush(); ferr != nil && err == nil {
			return nil, fmt.Errorf("writing cache index: %w", ferr)
		}
	}
	if err != nil {
		return nil, err
	}
	res.Stats.Elapsed = time.Since(start)
	return res, nil
}

// A jobResult is what came of one job of a run.
type jobResult struct {
	job *Job
	jobOutcome
	err error

	// again runs the job a second time when a blob of its cache entry
	// turns out damaged while the rewrite pass or a finishing step reads
	// it (see Pipeline.repair); redo is what that run made.
	again sync.Once
	redo  *jobResult
}

// assemble gathers the outputs of the jobs, runs the rewrite pass and the
// finishing steps over them, and makes the manifest.
func (p *Pipeline) assemble(ctx context.Context, results []jobResult) (*Result, error) {
	var errs []error
	res := &Result{cache: p.Cache}
	for i := range results {
		r := &results[i]
		if r.err != nil {
			errs = append(errs, r.err)
			continue
		}
		for _, o := range r.outs {
			if o.Source == "" {
				o.Source = r.job.source()
			}
			o.keepRefs = r.job.KeepRefs
			o.finishing = finishingOf(r.job)
			o.src = r
			res.outputs = append(res.outputs, o)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
		return nil, errors.Join(errs...)
	}
	sort.Slice(res.outputs, func(i, j int) bool { return res.outputs[i].Path < res.outputs[j].Path })
	if err := checkUnique(res.outputs); err != nil {
		return nil, err
	}
	if err := p.stepWarnings(res); err != nil {
		return nil, err
	}
	warnings, err := p.rewrite(ctx, res.outputs)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, warnings...)
	sortErrors(res.Warnings)
	if err := p.finish(ctx, res.outputs); err != nil {
		return nil, err
	}
	if p.Previous != nil && p.profile() != transform.Dev {
		res.kept = keptFiles(p.Previous, max(1, p.Releases), namesOf(res.outputs))
		if err := p.makeDeltas(ctx, res.outputs, res.kept); err != nil {
			return nil, err
		}
	}
	for i := range results {
		r := &results[i]
		if r.redo != nil && r.redo.err == nil {
			r = r.redo // the job ran again: count that run
		}
		switch r.from {
		case fromRun:
			res.Stats.Ran++
			if p.Explain {
				res.Explanations = append(res.Explanations, Explanation{Path: r.job.Path, Reasons: r.why})
			}
		case fromRemote:
			res.Stats.Remote++
			fallthrough
		case fromLocal:
			res.Stats.Cached++
		}
	}
	sort.SliceStable(res.Explanations, func(i, j int) bool { return res.Explanations[i].Path < res.Explanations[j].Path })
	res.Stats.BytesIn = p.bytesRead(results)
	m, err := buildManifest(res.outputs, res.kept)
	if err != nil {
		return nil, err
	}
	res.Manifest = m
	res.Stats.Files = len(res.outputs)
	res.Stats.Kept = len(res.kept)
	for _, o := range res.outputs {
		res.Stats.BytesOut += o.bytesOut()
		res.Stats.Deltas += len(o.deltas)
	}
	return res, nil
}

// rewrite runs the rewrite pass over outs, with the cache's memo when
// there is a cache.
func (p *Pipeline) rewrite(ctx context.Context, outs []*output) ([]error, error) {
	pass := &rewritePass{base: p.Base, strict: p.Strict, load: func(o *output) ([]byte, error) { return p.load(ctx, o) }}
	if p.Cache == nil {
		return pass.run(outs)
	}
	tool, err := p.Cache.toolIdentity()
	if err != nil {
		return nil, err
	}
	pass.memo, pass.cache, pass.tool = p.Cache.loadRewriteMemo(), p.Cache, tool
	warnings, err := pass.run(outs)
	if err != nil {
		return nil, err
	}
	if err := p.Cache.saveRewriteMemo(pass.memo, outs); err != nil {
		return nil, fmt.Errorf("writing cache: %w", err)
	}
	return warnings, nil
}

// maxRuns bounds how often a job runs again because a file it read changed
// while it ran.
const maxRuns = 3

// An origin says where a job's outputs came from.
type origin int

const (
	fromRun    origin = iota // the chain ran
	fromLocal                // the local cache
	fromRemote               // the remote cache, through the local one
)

// A jobOutcome is what a job's run made: the outputs, where they came
// from, the source files they were made from (see runJob) and, with
// Pipeline.Explain, why the chain ran when it did (from is fromRun).
type jobOutcome struct {
	outs  []*output
	from  origin
	reads []fileRead
	why   []string
}

// runJob reads one input (and a joined job's further inputs), answers
// from the cache (local, then remote) when it can, and runs the chain
// otherwise. reads are the source files that the outputs were made from:
// the inputs, the encodings they carry and the files the steps read. With
// a cache, it notes what the job was looked up under in the cache's job
// records (see jobRecords).
func (p *Pipeline) runJob(ctx context.Context, job *Job) (jobOutcome, error) {
	if err := ctx.Err(); err != nil {
		return jobOutcome{}, err
	}
	limit, profile := p.maxInputSize(), p.profile()
	var data []byte
	var key, tool, sum, encSums string
	var reads []fileRead
	var why []string
	var err error
	id := jobIdentity(job)
	inputs := newJobInputs(job)
	if p.Cache != nil {
		if tool, err = p.Cache.toolIdentity(); err != nil {
			return jobOutcome{}, err
		}
		stamp, read, err := p.Cache.files().sum(job.File, limit)
		if err != nil {
			return jobOutcome{}, inputError(job, err)
		}
		data, sum, reads = read, stamp.SHA256, []fileRead{{job.File, stamp.Size}}
		if job.carries() {
			for _, e := range job.Encodings {
				es, _, err := p.Cache.files().sum(e.File, limit)
				if err != nil {
					return jobOutcome{}, inputError(job, err)
				}
				reads = append(reads, fileRead{e.File, es.Size})
				encSums += " " + e.Name + ":" + es.SHA256
			}
			encSums += fmt.Sprintf(" hashed:%v graph:%q %q %q", job.Hashed, job.Imports, job.DynamicImports, job.CSS)
		}
		if err := inputs.sum(p.Cache, limit); err != nil {
			return jobOutcome{}, err
		}
		key = cacheKey(tool, job, profile, sum+encSums+inputs.keyPart())
		if e, from, ok := p.lookup(ctx, key); ok {
			p.noteHit(id, key, func() jobRecord { return newJobRecord(job, key, profile, sum, encSums, inputs) })
			reads = append(reads, inputs.reads()...)
			return jobOutcome{outputsFromCache(e, key), from, append(reads, p.depReads(e.depFiles(p.Root))...), nil}, nil
		}
		if p.Explain {
			why = p.explainMiss(job, newJobRecord(job, key, profile, sum, encSums, inputs))
		}
	} else if p.Explain {
		why = []string{"no cache"}
	}
	readMain := data == nil
	if readMain {
		if data, err = readInput(job, limit); err != nil {
			return jobOutcome{}, err
		}
	}
	readMore, err := inputs.read(limit)
	if err != nil {
		return jobOutcome{}, err
	}
	if p.Cache != nil && (readMain || readMore) {
		// The files may have changed since the index vouched for them:
		// the key is that of the bytes that are run.
		if readMain {
			sum = transform.SHA256Hex(data)
		}
		key = cacheKey(tool, job, profile, sum+encSums+inputs.keyPart())
	}
	if len(reads) == 0 {
		reads = []fileRead{{}}
	}
	reads[0] = fileRead{job.File, int64(len(data))}
	read := append(reads[:len(reads):len(reads)], inputs.reads()...) // without what a run's steps read
	for run := 1; ; run++ {
		started := time.Now()
		outs, sctx, err := p.runChain(ctx, job, data, inputs.bytes(), limit)
		if err == nil {
			reads = append(read, p.depReads(sctx.Deps())...)
		}
		if p.Cache == nil {
			return jobOutcome{outs, fromRun, reads, why}, err
		}
		rec := newJobRecord(job, key, profile, sum, encSums, inputs)
		if err != nil {
			if ctx.Err() == nil {
				rec.Note = "its last run failed"
				p.Cache.jobRecords().note(id, rec)
			}
			return jobOutcome{outs, fromRun, reads, why}, err
		}
		err = p.keep(key, started, sctx.Deps(), sctx.DepDirs(), outs)
		now, next := uncachedNotes(err)
		if p.Explain && now != "" {
			if errors.Is(err, errRacyDep) && run < maxRuns {
				now = strings.TrimPrefix(now, "not cached: ") + ", so it ran again"
			}
			why = append(why, now)
		}
		switch {
		case errors.Is(err, errRacyDep) && run < maxRuns:
			continue
		case errors.Is(err, errRacyDep) || errors.Is(err, errUncacheable):
			rec.Note = next
			p.Cache.jobRecords().note(id, rec)
			return jobOutcome{outs, fromRun, reads, why}, nil // the bytes stand for this run, uncached
		case err != nil:
			return jobOutcome{nil, fromRun, reads, why}, fmt.Errorf("%s: writing cache: %w", job.Path, err)
		}
		p.Cache.jobRecords().note(id, rec)
		return jobOutcome{outs, fromRun, reads, why}, nil
	}
}

// noteHit notes a job answered by the cache under key in the job
// records: a key the last run used (the entry index holds it) leaves the
// job's record as it is, any other is recorded anew (rec makes it).
func (p *Pipeline) noteHit(id, key string, rec func() jobRecord) {
	records := p.Cache.jobRecords()
	if _, indexed := p.Cache.entryIndex().lookup(key); indexed && records.isPresent() {
		records.keep(id)
		return
	}
	records.note(id, rec())
}

// newJobRecord returns the parts of a job's cache key key (see cacheKey)
// for the job records; the tool is the records file's.
func newJobRecord(job *Job, key string, profile transform.Profile, sum, carried string, inputs jobInputs) jobRecord {
	rec := jobRecord{
		Key: key, Profile: string(profile), Source: job.source(), Width: job.Width, Height: job.Height,
		Chain: job.Chain.Key(), Carried: carried, Inputs: make([]recordedInput, 0, 1+len(inputs)),
	}
	rec.Inputs = append(rec.Inputs, recordedInput{job.Path, sum})
	for _, in := range inputs {
		rec.Inputs = append(rec.Inputs, recordedInput{in.Path, in.sum})
	}
	return rec
}

// lookup answers key from the local cache, then from the remote one.
func (p *Pipeline) lookup(ctx context.Context, key string) (*cacheEntry, origin, bool) {
	if e, ok := p.Cache.load(key, p.Root); ok {
		return e, fromLocal, true
	}
	if p.Remote != nil {
		if e, ok := p.Remote.fetch(ctx, p.Cache, key, p.Root); ok {
			return e, fromRemote, true
		}
	}
	return nil, fromRun, false
}

// keep stores the outputs of a run that started at started under key (see
// Cache.store for deps, dirs and the errors), queues them for the remote
// cache, and lets their bytes go, so that a large build does not hold
// every output until the tree is written, which reads them back (an
// upload keeps its own reference).
func (p *Pipeline) keep(key string, started time.Time, deps, dirs []string, outs []*output) error {
	entry, err := p.Cache.store(key, p.Root, started, deps, dirs, outs)
	if err != nil {
		return err
	}
	if p.Remote != nil {
		p.Remote.upload(key, entry, outs)
	}
	for _, o := range outs {
		o.release(key)
	}
	return nil
}

// runChain runs a job's chain on its input bytes, and a joined job's
// further inputs (inputs, in the order of job.Inputs).
func (p *Pipeline) runChain(ctx context.Context, job *Job, data []byte, inputs [][]byte, limit int64) ([]*output, *transform.Context, error) {
	sctx := p.stepContext(ctx, p.profile())
	sctx.Resolve = func(logical string) string {
		if logical == job.Path || logical == job.source() {
			return job.File
		}
		for _, in := range job.Inputs {
			if logical == in.Path || logical == in.source() {
				return in.File
			}
		}
		return filepath.Join(p.Root, filepath.FromSlash(logical))
	}
	asset := &transform.Asset{Path: job.Path, Source: job.source(), Data: data, Width: job.Width, Height: job.Height}
	if job.carries() {
		asset.Hashed, asset.Fingerprinted = job.Hashed, job.Fingerprinted
		asset.Imports, asset.DynamicImports, asset.CSS = job.Imports, job.DynamicImports, job.CSS
		for _, e := range job.Encodings {
			enc, err := readLimited(e.File, limit)
			if err != nil {
				return nil, nil, inputError(job, err)
			}
			asset.SetEncoding(transform.Encoding{Name: e.Name, Data: enc})
		}
	}
	// The finishing steps (compression, hash) run after the rewrite pass,
	// on the final bytes (see finish.go); hash only marks the assets,
	// which the rewrite pass needs to know now.
	in := []*transform.Asset{asset}
	for i, input := range job.Inputs {
		in = append(in, &transform.Asset{Path: input.Path, Source: input.source(), Data: inputs[i]})
	}
	content, finishing := job.Chain.Split()
	assets, err := content.Run(sctx, in)
	if err != nil {
		return nil, nil, err
	}
	outs := make([]*output, len(assets))
	for i, a := range assets {
		outs[i] = newOutput(a, job.source())
		outs[i].Hashed = (outs[i].Hashed || hashes(finishing)) && !outs[i].Fingerprinted
	}
	return outs, sctx, nil
}

// stepContext is the Context of steps about to run; see startWork.
func (p *Pipeline) stepContext(ctx context.Context, profile transform.Profile) *transform.Context {
	p.startWork()
	return transform.NewContext(ctx, p.Root, profile)
}

// startWork is called before steps that no cache answered run: the first
// call of a Run calls BeforeWork.
func (p *Pipeline) startWork() {
	if p.beforeWork != nil {
		p.beforeWork()
	}
}

// checkUnique reports two outputs (sorted by path) with one path.
func checkUnique(outs []*output) error {
	for i := 1; i < len(outs); i++ {
		if outs[i-1].Path == outs[i].Path {
			return fmt.Errorf("%s is produced by both %s and %s", outs[i].Path, outs[i-1].Source, outs[i].Source)
		}
	}
	return nil
}

// buildManifest describes sorted outputs and the kept files of earlier
// releases. Two outputs with one path, or a path that collides with
// another's variant or hashed name, are errors.
func buildManifest(outs []*output, kept []*keptFile) (*bakefs.Manifest, error) {
	m := &bakefs.Manifest{Version: bakefs.ManifestVersion, Files: make([]bakefs.Entry, len(outs), len(outs)+len(kept))}
	for i, o := range outs {
		if i > 0 && outs[i-1].Path == o.Path {
			return nil, fmt.Errorf("%s is produced by both %s and %s", o.Path, outs[i-1].Source, o.Source)
		}
		e := bakefs.Entry{
			Path: o.Path, Size: o.blob.Size, Type: o.Type, SHA256: o.blob.SHA256,
			Integrity: o.blob.Integrity, Width: o.Width, Height: o.Height,
			Fingerprinted: o.Fingerprinted,
			Imports:       o.Imports, DynamicImports: o.DynamicImports, CSS: o.CSS,
		}
		if o.Source != o.Path {
			e.Source = o.Source
		}
		if o.Hashed {
			e.Hashed = bakefs.HashedName(o.Path, o.blob.SHA256)
		}
		if len(o.encodings) > 0 {
			e.Encodings = make([]bakefs.Encoding, 0, len(o.encodings))
		}
		for _, enc := range o.encodings {
			suffix, ok := bakefs.EncodingSuffix(enc.name)
			if !ok {
				return nil, fmt.Errorf("%s: unknown encoding %q", o.Path, enc.name)
			}
			e.Encodings = append(e.Encodings, bakefs.Encoding{Name: enc.name, Path: o.Path + suffix, Size: enc.blob.Size, SHA256: enc.blob.SHA256})
		}
		for _, d := range o.deltas {
			e.Deltas = append(e.Deltas, bakefs.Delta{Dictionary: d.dictionary, Path: bakefs.DeltaPath(o.Path, d.dictionary), Size: d.blob.Size, SHA256: d.blob.SHA256})
		}
		m.Files[i] = e
	}
	if len(kept) > 0 {
		for _, k := range kept {
			m.Files = append(m.Files, k.entry)
		}
		sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// profile returns the profile of the run: Release when unset.
func (p *Pipeline) profile() transform.Profile {
	if p.Profile == "" {
		return transform.Release
	}
	return p.Profile
}

// maxInputSize returns the bound of one input: DefaultMaxInputSize when
// unset.
func (p *Pipeline) maxInputSize() int64 {
	if p.MaxInputSize <= 0 {
		return DefaultMaxInputSize
	}
	return p.MaxInputSize
}

// stepWarnings gives res the warnings of its outputs' assets, or, with
// Strict, fails with them as errors.
func (p *Pipeline) stepWarnings(res *Result) error {
	var errs []error
	for _, o := range res.outputs {
		for _, w := range o.warnings {
			if p.Strict {
				e := *w
				e.Warning = false
				errs = append(errs, &e)
			} else {
				res.Warnings = append(res.Warnings, w)
			}
		}
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return errors.Join(errs...)
	}
	return nil
}
