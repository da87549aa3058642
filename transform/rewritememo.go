package transform

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
)

// A rewriteMemo remembers, per project, the outcome of the last rewrite
// pass: the digest of everything the pass read (every output's path,
// kind, flags and bytes, the base, strict, the tool), the new bytes of the
// files it rewrote (kept as blobs of the cache) and its warnings. The pass
// is a function of that digest alone, so a run whose outputs all come back
// the same, as in a build with nothing changed, takes the outcome from the
// memo instead of reading and scanning every output again.
type rewriteMemo struct {
	Digest   string
	Results  map[string]blobRef // rewritten output path -> its new bytes
	Warnings []SourceError
}

// rewriteMemoKey is the cache key that the outputs answered by the memo
// carry: a blob of theirs that turns out damaged when the tree is written
// discards the memo (see Cache.discard), and the next run scans again.
const rewriteMemoKey = "rewrite-memo"

// rewriteMemoFormat starts the memo file; a file of another format is
// ignored.
const rewriteMemoFormat = cacheFormat + " rewrite memo 1\n"

// rewriteDigest returns the digest of the rewrite pass's inputs.
func rewriteDigest(tool string, outs []*output, base string, strict bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%stool %s\nbase %q\nstrict %v\n", rewriteMemoFormat, tool, base, strict)
	for _, o := range outs {
		fmt.Fprintf(h, "%q %q %q %s %d %v %v %v\n", o.Path, o.Source, o.Type, o.blob.SHA256, o.blob.Size, o.Hashed, o.Fingerprinted, o.keepRefs)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// memoFile is where the cache keeps its project's rewrite memo.
func (c *Cache) memoFile() string {
	c.files()
	return c.project + ".rewrite"
}

var memoMu sync.Mutex // serialises the memo's file of one process

// loadRewriteMemo returns the memo when its digest is digest and every
// blob it names is in the cache.
func (c *Cache) loadRewriteMemo(digest string) (*rewriteMemo, bool) {
	memoMu.Lock()
	defer memoMu.Unlock()
	data, err := os.ReadFile(c.memoFile())
	if err != nil || !bytes.HasPrefix(data, []byte(rewriteMemoFormat)) {
		return nil, false
	}
	var m rewriteMemo
	if gob.NewDecoder(bytes.NewReader(data[len(rewriteMemoFormat):])).Decode(&m) != nil || m.Digest != digest {
		return nil, false
	}
	for _, ref := range m.Results {
		if fi, err := os.Stat(c.blobFile(ref.SHA256)); err != nil || fi.Size() != ref.Size {
			return nil, false
		}
	}
	return &m, true
}

// saveRewriteMemo stores the outcome of a pass: the outputs it rewrote
// (their new bytes go into the cache's blobs) and its warnings.
func (c *Cache) saveRewriteMemo(digest string, outs []*output, warnings []error) error {
	m := rewriteMemo{Digest: digest, Results: make(map[string]blobRef)}
	for _, o := range outs {
		if !o.rewritten {
			continue
		}
		if o.data == nil {
			return nil // bytes not in memory: nothing to remember them by
		}
		if _, err := c.putBlob(o.blob, o.data); err != nil {
			return err
		}
		m.Results[o.Path] = o.blob
	}
	for _, w := range warnings {
		se, ok := w.(*SourceError)
		if !ok {
			return nil // a warning the memo cannot hold: do not remember
		}
		m.Warnings = append(m.Warnings, *se)
	}
	var buf bytes.Buffer
	buf.WriteString(rewriteMemoFormat)
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		return err
	}
	memoMu.Lock()
	defer memoMu.Unlock()
	return writeFileAtomic(c.memoFile(), buf.Bytes())
}

// dropRewriteMemo removes the memo, one of whose blobs turned out damaged.
func (c *Cache) dropRewriteMemo() {
	memoMu.Lock()
	defer memoMu.Unlock()
	os.Remove(c.memoFile())
}

// applyRewriteMemo gives the outputs the memo's outcome, as rewriteRefs
// would have, and returns its warnings.
func applyRewriteMemo(m *rewriteMemo, outs []*output) []error {
	for _, o := range outs {
		if ref, ok := m.Results[o.Path]; ok {
			o.data, o.blob, o.key = nil, ref, rewriteMemoKey
			o.rewritten = true
		}
	}
	var warnings []error
	for i := range m.Warnings {
		warnings = append(warnings, &m.Warnings[i])
	}
	return warnings
}
