package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// The finishing steps of a chain (compression, hash) run in Pipeline.Run
// after the rewrite pass, on each output's final bytes: a job runs its
// content steps, the rewrite pass may change the bytes of what it made,
// and only then are variants made of them.
//
// They are cached apart from the content steps, by the output's path,
// media type and final bytes, the finishing steps and the profile (see
// finishKey), so that a file whose references changed is compressed again
// without its chain running again, and one whose bytes are unchanged is
// not compressed again at all. Their entries are a job's in every other
// way: they go through the project's entry index and the remote cache,
// and their blobs are read only when the tree is written.

// hashes reports whether chain c has the hash step.
func hashes(c transform.Chain) bool {
	for _, s := range c {
		if s.Name == "hash" {
			return true
		}
	}
	return false
}

// finishingOf returns the finishing steps that a job's outputs are to go
// through, hash left out (runChain applied it already).
func finishingOf(job *Job) transform.Chain {
	_, finishing := job.Chain.Split()
	var c transform.Chain
	for _, s := range finishing {
		if s.Name != "hash" {
			c = append(c, s)
		}
	}
	return c
}

// finish runs each output's finishing steps on its final bytes, in
// parallel, answering from the cache (local, then remote) when it can. An
// output the rewrite pass changed loses the variants it carried from an
// earlier tree (a merge), which are made again from the new bytes by the
// step of their name with its default options.
func (p *Pipeline) finish(ctx context.Context, outs []*output) error {
	profile := p.Profile
	if profile == "" {
		profile = transform.Release
	}
	workers := p.Workers
	if workers <= 0 {
		workers = max(1, min(len(outs), runtime.GOMAXPROCS(0)))
	}
	errs := make([]error, len(outs))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, o := range outs {
		chain := o.finishing
		if o.rewritten && len(o.encodings) > 0 {
			var again transform.Chain
			for _, e := range o.encodings {
				s, err := transform.NewStep(e.name)
				if err != nil {
					return fmt.Errorf("%s: variant %s: %w", o.Path, e.name, err)
				}
				again = append(again, s)
			}
			chain = append(again, chain...)
			o.encodings = nil
		}
		if len(chain) == 0 {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = p.finishRemembered(ctx, o, chain, profile)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// finishOne runs chain on one output and keeps the variants it makes. A
// cached result leaves its bytes in the cache until the tree is written,
// like a job's (see Result.PrepareTree), under the key of its own entry.
func (p *Pipeline) finishOne(ctx context.Context, o *output, chain transform.Chain, profile transform.Profile) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var key string
	if p.Cache != nil {
		tool, err := p.Cache.toolIdentity()
		if err != nil {
			return err
		}
		key = finishKey(tool, o, chain, profile)
		if e, _, ok := p.lookup(ctx, key); ok && len(e.Outputs) == 1 && e.Outputs[0].Blob == o.blob {
			cached := outputFromCache(e.Outputs[0], key)
			o.encodings = cached.encodings
			o.Hashed = o.Hashed || cached.Hashed
			return nil
		}
	}
	data, err := p.load(ctx, o)
	if err != nil {
		return fmt.Errorf("%s: %w", o.Path, err)
	}
	a := &transform.Asset{Path: o.Path, Source: o.Source, Data: data, Type: o.Type, Width: o.Width, Height: o.Height,
		Hashed: o.Hashed, Fingerprinted: o.Fingerprinted}
	for i := range o.encodings {
		enc, err := p.loadEncoding(ctx, o, i)
		if err != nil {
			return fmt.Errorf("%s: %w", o.Path, err)
		}
		a.SetEncoding(transform.Encoding{Name: o.encodings[i].name, Data: enc})
	}
	started := time.Now()
	out, err := chain.Run(p.stepContext(ctx, profile), []*transform.Asset{a})
	if err != nil {
		return err
	}
	if len(out) != 1 || out[0].Path != o.Path {
		return fmt.Errorf("%s: a finishing step renamed, added or dropped a file", o.Path)
	}
	done := newOutput(out[0], o.Source)
	o.encodings = done.encodings
	o.Hashed = o.Hashed || done.Hashed
	if p.Cache == nil {
		return nil
	}
	// The entry holds the identity bytes too, so that a remote cache can
	// answer for it alone; they keep the key they came with.
	o.data = data
	err = p.keep(key, started, nil, nil, []*output{o})
	if err != nil && !errors.Is(err, errUncacheable) && !errors.Is(err, errRacyDep) {
		return fmt.Errorf("%s: writing cache: %w", o.Path, err)
	}
	return nil
}

// finishKey is the cache key of the finishing steps of an output: its
// path, type, size and bytes, the bytes of the variants it carries, the
// steps and the profile, and the code that makes the bytes.
func finishKey(tool string, o *output, chain transform.Chain, profile transform.Profile) string {
	// Written without fmt: a no-change build computes one per output.
	b := appendKeyStart(make([]byte, 0, 512), cacheFormat+" finish", tool, profile, o.Path)
	b = append(b, "\ntype "...)
	b = strconv.AppendQuote(b, o.Type)
	b = append(b, "\nsize "...)
	b = strconv.AppendInt(b, int64(o.Width), 10)
	b = append(b, 'x')
	b = strconv.AppendInt(b, int64(o.Height), 10)
	b = append(b, "\nsha256 "...)
	b = append(b, o.blob.SHA256...)
	b = append(b, '\n')
	for _, e := range o.encodings {
		b = append(b, "carried "...)
		b = append(b, e.name...)
		b = append(b, ' ')
		b = append(b, e.blob.SHA256...)
		b = append(b, '\n')
	}
	b = chain.AppendKey(b)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// load returns an output's identity bytes: those in memory, else the
// blob of the cache entry it came from, verified. It does not keep them:
// the tree reads them again, or links the old tree's copy.
func (p *Pipeline) load(ctx context.Context, o *output) ([]byte, error) {
	return p.repair(ctx, o, func() ([]byte, error) { return fetchEntry(o.data, o.blob, p.Cache, o.key) })
}

// loadEncoding is load for the output's variant i.
func (p *Pipeline) loadEncoding(ctx context.Context, o *output, i int) ([]byte, error) {
	return p.repair(ctx, o, func() ([]byte, error) {
		e := o.encodings[i]
		return fetchEntry(e.data, e.blob, p.Cache, e.key)
	})
}

// repair calls read, which reads bytes of o. When they turn out missing
// or damaged in the cache (the entry is removed by then), it runs the job
// that made o again, once for all of the job's outputs, takes o's bytes
// from that run and reads again. The run must make the same bytes: other
// bytes (a source changed meanwhile) fail with ErrCacheDamaged, which
// makes the caller of Pipeline.Run run it once more.
func (p *Pipeline) repair(ctx context.Context, o *output, read func() ([]byte, error)) ([]byte, error) {
	data, err := read()
	if !errors.Is(err, ErrCacheDamaged) || o.src == nil {
		return data, err
	}
	r := o.src
	r.again.Do(func() {
		redo := &jobResult{job: r.job}
		redo.jobOutcome, redo.err = p.runJob(ctx, r.job)
		if p.Explain && redo.from == fromRun {
			redo.why = []string{"cache entry damaged"}
		}
		r.redo = redo
	})
	if r.redo.err != nil {
		return nil, r.redo.err
	}
	var n *output
	for _, x := range r.redo.outs {
		if x.Path == o.Path {
			n = x
		}
	}
	if n == nil || n.blob != o.blob || len(n.encodings) != len(o.encodings) {
		return nil, fmt.Errorf("%w: %v; its job, run again, made other bytes", ErrCacheDamaged, err)
	}
	for i := range n.encodings {
		if n.encodings[i].name != o.encodings[i].name || n.encodings[i].blob != o.encodings[i].blob {
			return nil, fmt.Errorf("%w: %v; its job, run again, made other bytes", ErrCacheDamaged, err)
		}
	}
	o.data, o.key = n.data, n.key
	for i := range n.encodings {
		o.encodings[i].data, o.encodings[i].key = n.encodings[i].data, n.encodings[i].key
	}
	return read()
}
