package pipeline

import (
	"os"
	"sync"
)

// A jobRecords holds, in one file per project (index/<p>.jobs), what each
// job's last run was looked up under: the parts of its cache key
// (jobRecord), by job identity rather than by key, so that a job that
// runs can be told what changed since (Pipeline.Explain, explain.go).
//
// A run with nothing changed neither reads nor writes the file: a job
// whose key was in the project's entry index (the entries the last run
// used) has the record the last run wrote, and is only marked seen. Only
// a job that ran, or was answered otherwise (an older variant, the remote
// cache), notes a new record, and only then is the file read and written
// back, without the jobs this run did not see. When the file is missing
// (a cache from before the records, or one removed), every job notes its
// record. The records only explain; a lost or stale one makes an
// explanation vaguer, never a build wrong. It is safe for concurrent use.
type jobRecords struct {
	file string

	presentOnce sync.Once
	present     bool // the file existed at the start of the run

	loadOnce sync.Once
	loaded   map[string]jobRecord // what the file held
	tool     toolRecord           // the tool that the loaded records were keyed with

	mu      sync.Mutex
	seen    map[string]bool      // jobs this run saw, by identity
	changed map[string]jobRecord // records this run noted, by identity
}

// A jobRecord is the parts of a job's cache key (see cacheKey) as its
// last run had them, and what came of that run. Keys are the job's
// identity (jobIdentity); the tool is the file's (jobRecordsFile.Tool).
type jobRecord struct {
	Key     string
	Profile string
	Source  string
	Width   int
	Height  int
	Chain   string // transform.Chain.Key: a line per step
	Inputs  []recordedInput
	Carried string // the variants and module graph a merge carries
	// Note says why the run's result is not in the cache (a racy file, a
	// failure), as the next explanation words it; "" when it was stored.
	Note string
}

// A recordedInput is an input of a job (its own, then a joined job's
// further ones) and the SHA-256 of its bytes.
type recordedInput struct {
	Path   string
	SHA256 string
}

// A toolRecord names the code that made the records' keys: its identity
// (toolid.Identity) and the versions it is made of (toolid.Info.String).
type toolRecord struct {
	Identity string
	Info     string
}

// jobRecordsFile is what the file holds, after jobRecordsFormat.
type jobRecordsFile struct {
	Tool toolRecord
	Jobs map[string]jobRecord
}

// jobRecordsFormat starts the file; a file of another format is ignored.
const jobRecordsFormat = cacheFormat + " job records 1\n"

// jobIdentity names a job across runs: its logical path, the first
// input's for a joined job.
func jobIdentity(job *Job) string { return job.Path }

// isPresent reports whether the file existed when the run first asked.
func (r *jobRecords) isPresent() bool {
	r.presentOnce.Do(func() {
		_, err := os.Stat(r.file)
		r.present = err == nil
	})
	return r.present
}

func (r *jobRecords) load() {
	r.loadOnce.Do(func() {
		r.loaded = make(map[string]jobRecord)
		data, err := os.ReadFile(r.file)
		var f jobRecordsFile
		if err == nil && decodeIndexFile(data, jobRecordsFormat, &f) && f.Jobs != nil {
			r.loaded, r.tool = f.Jobs, f.Tool // a damaged file only explains less
		}
	})
}

// last returns the record of the job id as the last run that noted it
// left it, and the tool it was made with.
func (r *jobRecords) last(id string, tool toolRecord) (jobRecord, toolRecord, bool) {
	r.mu.Lock()
	rec, ok := r.changed[id] // an earlier run of an Incremental, not saved yet
	r.mu.Unlock()
	if ok {
		return rec, tool, true
	}
	r.load()
	rec, ok = r.loaded[id]
	return rec, r.tool, ok
}

// keep marks the job id seen, its record standing as it is.
func (r *jobRecords) keep(id string) {
	r.mu.Lock()
	if r.seen == nil {
		r.seen = make(map[string]bool)
	}
	r.seen[id] = true
	r.mu.Unlock()
}

// note records what the job id was run or looked up under in this run.
func (r *jobRecords) note(id string, rec jobRecord) {
	r.mu.Lock()
	if r.changed == nil {
		r.changed = make(map[string]jobRecord)
	}
	r.changed[id] = rec
	r.mu.Unlock()
	r.keep(id)
}

// save writes the records of the jobs this run saw, made by tool, when
// this run noted any, and starts afresh for the next run.
func (r *jobRecords) save(tool toolRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.changed) == 0 {
		return nil
	}
	r.load()
	f := jobRecordsFile{Tool: tool, Jobs: make(map[string]jobRecord, len(r.seen))}
	for id := range r.seen {
		if rec, ok := r.changed[id]; ok {
			f.Jobs[id] = rec
		} else if rec, ok := r.loaded[id]; ok {
			f.Jobs[id] = rec
		}
	}
	data, err := encodeIndexFile(jobRecordsFormat, f)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(r.file, data); err != nil {
		return err
	}
	r.loaded, r.tool, r.present = f.Jobs, tool, true
	r.seen, r.changed = nil, nil
	return nil
}
