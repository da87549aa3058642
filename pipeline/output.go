package pipeline

import (
	"errors"
	"fmt"
	"io/fs"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// An output is a finished asset: its bytes, or a way to fetch them from the
// cache, and what the manifest says of them.
type output struct {
	Path, Source, Type string
	Width, Height      int
	Hashed             bool
	Fingerprinted      bool
	ModuleGraph

	// keepRefs leaves the output's references alone (Job.KeepRefs);
	// rewritten says the rewrite pass changed its bytes.
	keepRefs, rewritten bool
	// warnings are the asset's (transform.Asset.Warnings).
	warnings []*transform.SourceError
	// finishing is the job's finishing steps, run by Pipeline.finish.
	finishing transform.Chain
	// src is the job that made the output, in the run that holds it.
	src *jobResult

	blob      blobRef
	data      []byte // nil until needed when the output came from the cache
	encodings []encodedOutput
	deltas    []deltaOutput // sorted by dictionary
	key       string        // the cache entry that holds blob; "" for bytes just made
}

type encodedOutput struct {
	name string
	blob blobRef
	data []byte
	key  string // the cache entry that holds blob: the job's or the finishing steps'
}

// newBlobRef describes bytes for the cache and the manifest.
func newBlobRef(data []byte, withIntegrity bool) blobRef {
	ref := blobRef{SHA256: transform.SHA256Hex(data), Size: int64(len(data))}
	if withIntegrity {
		ref.Integrity = transform.Integrity(data)
	}
	return ref
}

// newOutput finishes an asset that a chain returned.
func newOutput(a *transform.Asset, source string) *output {
	o := &output{
		Path: a.Path, Source: a.Source, Type: a.MediaTypeOf(),
		Width: a.Width, Height: a.Height, Hashed: a.Hashed, Fingerprinted: a.Fingerprinted,
		blob: newBlobRef(a.Data, true), data: a.Data, warnings: a.Warnings,
		ModuleGraph: ModuleGraph{Imports: a.Imports, DynamicImports: a.DynamicImports, CSS: a.CSS},
	}
	if o.Source == "" {
		o.Source = source
	}
	for _, e := range a.Encodings {
		o.encodings = append(o.encodings, encodedOutput{name: e.Name, blob: newBlobRef(e.Data, false), data: e.Data})
	}
	return o
}

// outputFromCache rebuilds an output from the cache entry stored under
// key, bytes left in the cache until the tree is written.
func outputFromCache(co cacheOutput, key string) *output {
	o := &output{
		Path: co.Path, Source: co.Source, Type: co.Type,
		Width: co.Width, Height: co.Height, Hashed: co.Hashed, Fingerprinted: co.Fingerprinted, blob: co.Blob, key: key,
		warnings: co.Warnings, ModuleGraph: co.ModuleGraph,
	}
	if len(co.Encodings) > 0 {
		o.encodings = make([]encodedOutput, len(co.Encodings))
		for i, e := range co.Encodings {
			o.encodings[i] = encodedOutput{name: e.Name, blob: e.Blob, key: key}
		}
	}
	return o
}

// outputsFromCache makes the outputs of the cache entry stored under key.
func outputsFromCache(e *cacheEntry, key string) []*output {
	outs := make([]*output, len(e.Outputs))
	for i, co := range e.Outputs {
		outs[i] = outputFromCache(co, key)
	}
	return outs
}

// release drops the output's bytes, which the cache holds under key. Bytes
// that came from an earlier entry keep that entry's key: the one whose
// removal makes them anew.
func (o *output) release(key string) {
	o.data = nil
	if o.key == "" {
		o.key = key
	}
	for i := range o.encodings {
		e := &o.encodings[i]
		e.data = nil
		if e.key == "" {
			e.key = key
		}
	}
}

// fetch returns in-memory bytes, or reads the blob from the cache,
// verified (see Cache.readBlob).
func fetch(data []byte, ref blobRef, cache *Cache) ([]byte, error) {
	if data != nil || ref.Size == 0 {
		return data, nil
	}
	if cache == nil {
		return nil, fmt.Errorf("bytes of %s are neither in memory nor in a cache", ref.SHA256)
	}
	return cache.readBlob(ref)
}

// fetchEntry is fetch for bytes that the cache entry key holds (none when
// key is ""): a missing or damaged blob removes the entry, so that the
// next run makes its bytes anew, and the error wraps ErrCacheDamaged.
func fetchEntry(data []byte, ref blobRef, cache *Cache, key string) ([]byte, error) {
	data, err := fetch(data, ref, cache)
	if err != nil && key != "" && cache != nil {
		cache.discard(key)
		return nil, fmt.Errorf("%w: %v", ErrCacheDamaged, err)
	}
	return data, err
}

// bytesOut is the size of the output and its variants.
func (o *output) bytesOut() int64 {
	n := o.blob.Size
	for _, e := range o.encodings {
		n += e.blob.Size
	}
	for _, d := range o.deltas {
		n += d.blob.Size
	}
	return n
}

// namesOf returns whether a name is one the outputs' files take in the
// tree: a path or a hashed name.
func namesOf(outs []*output) func(name string) bool {
	names := make(map[string]bool, 2*len(outs))
	for _, o := range outs {
		names[o.Path] = true
		if o.Hashed {
			names[bakefs.HashedName(o.Path, o.blob.SHA256)] = true
		}
	}
	return func(name string) bool { return names[name] }
}

// errNotRegular reports an input that is a directory, device or pipe.
var errNotRegular = errors.New("not a regular file")

// readInput reads a job's file, refusing anything that is not a regular
// file or is larger than limit bytes.
func readInput(job *Job, limit int64) ([]byte, error) {
	if _, err := statInput(job.File, limit); err != nil {
		return nil, inputError(job, err)
	}
	data, err := readLimited(job.File, limit)
	if err != nil {
		return nil, inputError(job, err)
	}
	return data, nil
}

// inputError names the job's logical path in an error about its file,
// dropping the file's own path, which may be a temporary or sandbox one.
func inputError(job *Job, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", job.Path, err)
}
