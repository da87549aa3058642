package transform

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
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
// not compressed again at all.

// split returns the steps of c up to its last content step, and those
// after it: the finishing ones, which ParseChain puts last.
func (c Chain) split() (content, finishing Chain) {
	last := -1
	for i, s := range c {
		if s.Kind == Content {
			last = i
		}
	}
	return c[:last+1], c[last+1:]
}

// hashes reports whether the chain has the hash step.
func (c Chain) hashes() bool {
	for _, s := range c {
		if s.Name == "hash" {
			return true
		}
	}
	return false
}

// finishingOf returns the finishing steps that a job's outputs are to go
// through, hash left out (runChain applied it already).
func finishingOf(job *Job) Chain {
	_, finishing := job.Chain.split()
	var c Chain
	for _, s := range finishing {
		if s.Name != "hash" {
			c = append(c, s)
		}
	}
	return c
}

// finish runs each output's finishing steps on its final bytes, in
// parallel, answering from the cache when it can. An output the rewrite
// pass changed loses the variants it carried from an earlier tree (a
// merge), which are made again from the new bytes by the step of their
// name with its default options.
func (p *Pipeline) finish(ctx context.Context, outs []*output, previous *tree) error {
	profile := p.Profile
	if profile == "" {
		profile = Release
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
			var again Chain
			for _, e := range o.encodings {
				s, err := NewStep(e.name)
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
			errs[i] = p.finishOne(ctx, o, chain, profile, previous)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// finishOne runs chain on one output and keeps the variants it makes.
func (p *Pipeline) finishOne(ctx context.Context, o *output, chain Chain, profile Profile, previous *tree) error {
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
		if e, ok := p.Cache.load(key, p.Root); ok && len(e.Outputs) == 1 && e.Outputs[0].Blob == o.blob {
			if cached, ok := p.fromCache(e, previous); ok {
				o.encodings = cached[0].encodings
				o.Hashed = o.Hashed || cached[0].Hashed
				return nil
			}
			p.Cache.discard(key)
		}
	}
	data, err := p.load(o, previous)
	if err != nil {
		return fmt.Errorf("%s: %w", o.Path, err)
	}
	a := &Asset{Path: o.Path, Source: o.Source, Data: data, Type: o.Type, Width: o.Width, Height: o.Height,
		Hashed: o.Hashed, Fingerprinted: o.Fingerprinted}
	for _, e := range o.encodings {
		enc, err := fetch(e.data, e.blob, p.Cache)
		if err != nil {
			return fmt.Errorf("%s: %w", o.Path, err)
		}
		a.SetEncoding(Encoding{Name: e.name, Data: enc})
	}
	out, err := chain.Run(NewContext(ctx, p.Root, profile), []*Asset{a})
	if err != nil {
		return err
	}
	if len(out) != 1 || out[0].Path != o.Path {
		return fmt.Errorf("%s: a finishing step renamed, added or dropped a file", o.Path)
	}
	done := newOutput(out[0], o.Source)
	o.encodings = done.encodings
	o.Hashed = o.Hashed || done.Hashed
	if p.Cache != nil {
		if err := p.Cache.store(key, p.Root, time.Now(), nil, nil, []*output{o}); err != nil {
			return fmt.Errorf("%s: writing cache: %w", o.Path, err)
		}
	}
	return nil
}

// finishKey is the cache key of the finishing steps of an output: its
// path, type, size and bytes, the bytes of the variants it carries, the
// steps and the profile, and the code that makes the bytes.
func finishKey(tool string, o *output, chain Chain, profile Profile) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s finish\ntool %s\nprofile %s\npath %q\ntype %q\nsize %dx%d\nsha256 %s\n",
		cacheFormat, tool, profile, o.Path, o.Type, o.Width, o.Height, o.blob.SHA256)
	for _, e := range o.encodings {
		fmt.Fprintf(h, "carried %s %s\n", e.name, e.blob.SHA256)
	}
	fmt.Fprint(h, chain.Key())
	return hex.EncodeToString(h.Sum(nil))
}

// load returns an output's identity bytes: those in memory, else the
// cache's blob, else the copy in the output tree being replaced, checked
// against the hash.
func (p *Pipeline) load(o *output, previous *tree) ([]byte, error) {
	if o.data != nil || o.blob.Size == 0 {
		return o.data, nil
	}
	if p.Cache != nil {
		if data, err := p.Cache.readBlob(o.blob); err == nil {
			o.data = data
			return data, nil
		}
	}
	if previous != nil && p.Out != "" && previous.sum(o.Path) == o.blob.SHA256 {
		data, err := os.ReadFile(filepath.Join(p.Out, filepath.FromSlash(o.Path)))
		if err == nil && SHA256Hex(data) == o.blob.SHA256 {
			o.data = data
			return data, nil
		}
	}
	return nil, fmt.Errorf("bytes of %s are neither in memory, in the cache nor in the output tree", o.blob.SHA256)
}
