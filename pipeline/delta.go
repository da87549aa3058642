package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// Deltas (Compression Dictionary Transport, RFC 9842) are made after the
// finishing steps, from each output's final bytes: for each hashed output
// of a dictionary type (bakefs.DictionaryType) and each kept file of an
// earlier release that was the same logical file, a dcz variant against
// the kept file's bytes, kept when it saves the usual margin
// (transform.WorthKeeping) over the output's smallest ordinary variant.
// The encoder is the one a step family registered (transform/compress),
// so that the engine links no compression library.
// They are cached by the two files' bytes alone, so that a build with the
// same previous release makes none again, and one whose previous release
// is the next one makes only those of the files that changed. The dev
// profile makes none (see Pipeline.Previous).

// A deltaOutput is the delta of an output against a kept file.
type deltaOutput struct {
	dictionary string // the kept file's SHA-256
	blob       blobRef
	data       []byte
	key        string // the cache entry that holds blob
}

// deltaCoding is the content coding of the deltas.
const deltaCoding = "dcz"

// makeDeltas gives the outputs their deltas against kept, in parallel.
func (p *Pipeline) makeDeltas(ctx context.Context, outs []*output, kept []*keptFile) error {
	if len(kept) == 0 {
		return nil
	}
	versions := make(map[string][]*keptFile) // logical path -> its kept files
	for _, k := range kept {
		versions[k.entry.Previous] = append(versions[k.entry.Previous], k)
	}
	type work struct {
		o *output
		k *keptFile
	}
	var todo []work
	for _, o := range outs {
		if !o.Hashed || !bakefs.DictionaryType(o.Type) {
			continue
		}
		for _, k := range versions[o.Path] {
			todo = append(todo, work{o, k})
		}
	}
	if len(todo) == 0 {
		return nil
	}
	enc, ok := transform.LookupDeltaEncoder(deltaCoding)
	if !ok {
		return fmt.Errorf("pipeline: no %s delta encoder is linked into this program; import github.com/bakefs/bakefs/transform/compress", deltaCoding)
	}
	made := make([]*deltaOutput, len(todo))
	errs := make([]error, len(todo))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, w := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			made[i], errs[i] = p.delta(ctx, enc, w.o, w.k)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, d := range made {
		if d != nil {
			o := todo[i].o
			o.deltas = append(o.deltas, *d)
		}
	}
	for _, o := range outs {
		sort.Slice(o.deltas, func(i, j int) bool { return o.deltas[i].dictionary < o.deltas[j].dictionary })
	}
	return nil
}

// delta returns the delta of o against k made by enc, or nil when it does
// not pay for itself or k is too large to be a dictionary.
func (p *Pipeline) delta(ctx context.Context, enc transform.DeltaEncoder, o *output, k *keptFile) (*deltaOutput, error) {
	if k.entry.Size > int64(enc.MaxDictionary) {
		return nil, nil
	}
	var key string
	if p.Cache != nil {
		tool, err := p.Cache.toolIdentity()
		if err != nil {
			return nil, err
		}
		key = deltaKey(tool, enc, o.blob.SHA256, k.entry.SHA256)
		if e, _, ok := p.lookup(ctx, key); ok && len(e.Outputs) <= 1 {
			if len(e.Outputs) == 0 {
				return nil, nil // made before, and not worth keeping
			}
			return &deltaOutput{dictionary: k.entry.SHA256, blob: e.Outputs[0].Blob, key: key}, nil
		}
	}
	p.startWork()
	started := time.Now()
	data, err := p.load(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Path, err)
	}
	dict, err := k.read()
	if err != nil {
		return nil, err
	}
	delta, err := enc.Encode(ctx, data, dict)
	if err != nil {
		return nil, fmt.Errorf("%s: delta against %s: %w", o.Path, k.entry.Path, err)
	}
	best := o.blob.Size
	for _, e := range o.encodings {
		best = min(best, e.blob.Size)
	}
	var d *deltaOutput
	var stored []*output
	if transform.WorthKeeping(int(best), len(delta)) {
		d = &deltaOutput{dictionary: k.entry.SHA256, blob: newBlobRef(delta, false), data: delta}
		stored = []*output{{Path: bakefs.DeltaPath(o.Path, k.entry.SHA256), Type: "application/octet-stream", blob: d.blob, data: delta}}
	}
	if p.Cache == nil {
		return d, nil
	}
	err = p.keep(key, started, nil, nil, stored)
	if err != nil && !errors.Is(err, errUncacheable) && !errors.Is(err, errRacyDep) {
		return nil, fmt.Errorf("%s: writing cache: %w", o.Path, err)
	}
	if d != nil && err == nil {
		d.data, d.key = nil, key // the cache holds the bytes now
	}
	return d, nil
}

// deltaKey is the cache key of enc's delta of the bytes whose SHA-256 is
// sum against the dictionary whose SHA-256 is dict.
func deltaKey(tool string, enc transform.DeltaEncoder, sum, dict string) string {
	h := sha256.Sum256([]byte(cacheFormat + " " + enc.Name + " " + enc.Version + "\ntool " + tool + "\nsha256 " + sum + "\ndictionary " + dict + "\n"))
	return hex.EncodeToString(h[:])
}

// read returns the kept file's bytes from its release, checked against
// the release's manifest.
func (k *keptFile) read() ([]byte, error) {
	return readReleaseFile(k.dir, k.from, k.entry.Size, k.entry.SHA256)
}
