package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"sync"

	"github.com/bakefs/bakefs/internal/streamfile"
	"github.com/bakefs/bakefs/pipeline/refs"
)

// A rewriteMemo remembers, per project, what the rewrite pass learned of
// each output it scanned, so that a run reads and scans only the outputs
// whose bytes are new, and rewrites only those whose bytes or whose
// targets changed. It is kept beside the project's other index files
// (index/<p>.rewrite) and holds the records of the last run's outputs
// only.
//
// A record is found by the output's scanKey: the code, the output's path,
// the reader of its type, the base and its bytes' SHA-256, everything that
// decides its references. It holds those references (the local ones,
// resolved) and the outcome of the last rewrite of these bytes: the digest
// of the states of the targets it was made for (see targetsDigest) and the
// bytes made, kept as a blob of the cache. When the targets are as they
// were, the outcome is taken as it is; otherwise the output alone is read,
// scanned and rewritten again.
type rewriteMemo struct {
	Records map[string]*scanRecord

	// used holds the records of this run's outputs, which replace Records
	// when the memo is saved; changed says whether saving is needed.
	used    map[string]*scanRecord
	changed bool
}

// A scanRecord is what the pass knows of one output's bytes.
type scanRecord struct {
	Refs    []refNote // the references to other local files, in order
	Targets string    // the targetsDigest that Result was made for; "" for none yet
	Result  blobRef   // the rewritten bytes; zero when they are the output's own
}

// A refNote is a reference to a local file other than the referring one.
type refNote struct {
	Target string    // the logical path it names
	URL    string    // as written, decoded
	Kind   refs.Kind // what it is for
	At     int       // where it (or the region holding it) starts in the bytes
}

// rewriteMemoKey is the cache key that the outputs answered by the memo
// carry: a blob of theirs that turns out damaged when the tree is written
// discards the memo (see Cache.discard), and the next run scans again.
const rewriteMemoKey = "rewrite-memo"

// rewriteMemoFormat starts the memo file; a file of another format is
// ignored.
const rewriteMemoFormat = cacheFormat + " rewrite memo 3\n"

// scanKey returns the key of an output's record: the code's identity, the
// reader kind, the output's path, the base and the SHA-256 of its bytes.
func scanKey(tool, kind string, o *output, base string) string {
	b := make([]byte, 0, 256)
	b = append(b, rewriteMemoFormat...)
	for _, s := range []string{tool, kind, o.Path, base, o.blob.SHA256} {
		b = appendKeyPart(b, s)
	}
	b = strconv.AppendInt(b, o.blob.Size, 10)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// targetsDigest returns the digest of what a rewrite of f reads besides
// its own bytes: for each of its references, whether the target is an
// output, a page (whose bytes do not matter) or, if neither, its hashing
// and its bytes, by then final: targets are rewritten first.
func targetsDigest(notes []refNote, files map[string]*refFile) string {
	h := sha256.New()
	b := make([]byte, 0, 256)
	for _, n := range notes {
		b = appendKeyPart(b[:0], n.Target)
		b = append(b, byte('0'+n.Kind))
		switch tf, ok := files[n.Target]; {
		case !ok:
			b = append(b, '-')
		case isPage(tf.o):
			b = append(b, 'p')
		default:
			b = appendTargetKey(b, tf.o)
			if n.Kind == refs.ScriptStart {
				css, chunks := scriptNeeds(tf.o, files)
				for _, d := range append(css, chunks...) {
					b = appendTargetKey(b, d.o)
				}
			}
		}
		b = append(b, '\n')
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// appendTargetKey appends what a reference to o is rewritten by: its
// path (a source names its output), hashing and bytes.
func appendTargetKey(b []byte, o *output) []byte {
	b = appendKeyPart(b, o.Path)
	b = strconv.AppendBool(b, o.Hashed)
	b = strconv.AppendBool(b, o.Fingerprinted)
	b = appendKeyPart(b, o.blob.SHA256)
	b = appendKeyPart(b, o.blob.Integrity)
	return strconv.AppendInt(b, o.blob.Size, 10)
}

// appendKeyPart appends s to b with its length before it, so that no two
// sequences of fields give the same bytes.
func appendKeyPart(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// memoFile is where the cache keeps its project's rewrite memo.
func (c *Cache) memoFile() string {
	c.files()
	return c.project + ".rewrite"
}

var memoMu sync.Mutex // serialises the memo's file of one process

// loadRewriteMemo returns the project's memo, empty when there is none or
// it cannot be read.
func (c *Cache) loadRewriteMemo() *rewriteMemo {
	m := &rewriteMemo{}
	memoMu.Lock()
	data, err := streamfile.ReadString(c.memoFile())
	memoMu.Unlock()
	if err == nil {
		m.Records, _ = decodeIndex(data, rewriteMemoFormat, (*indexReader).scanRecord) // nil when damaged
	}
	if m.Records == nil {
		m.Records = make(map[string]*scanRecord)
	}
	m.used = make(map[string]*scanRecord, len(m.Records)) // a run uses about what the last one did
	return m
}

// record returns the record under key, from the last run or made in this
// one, and whether there is one.
func (m *rewriteMemo) record(key string) (*scanRecord, bool) {
	if r, ok := m.used[key]; ok {
		return r, true
	}
	r, ok := m.Records[key]
	if ok {
		m.used[key] = r
	}
	return r, ok
}

// put records what a scan learned.
func (m *rewriteMemo) put(key string, r *scanRecord) {
	m.used[key] = r
	m.changed = true
}

// rewriteResult returns the rewritten bytes that r remembers for targets,
// when it has them and the cache still holds them: ok false means the
// output is to be rewritten again.
func (c *Cache) rewriteResult(r *scanRecord, targets string) (ref blobRef, ok bool) {
	if r.Targets != targets {
		return blobRef{}, false
	}
	if r.Result == (blobRef{}) {
		return blobRef{}, true
	}
	if fi, err := os.Stat(c.blobFile(r.Result.SHA256)); err != nil || fi.Size() != r.Result.Size {
		return blobRef{}, false
	}
	return r.Result, true
}

// saveRewriteMemo stores the records of this run's outputs, with the
// rewritten bytes they name (put into the cache's blobs from outs), when
// anything changed since the memo was loaded.
func (c *Cache) saveRewriteMemo(m *rewriteMemo, outs []*output) error {
	if !m.changed && len(m.used) == len(m.Records) {
		return nil
	}
	for _, o := range outs {
		if o.rewritten && o.data != nil {
			if _, err := c.putBlob(o.blob, o.data); err != nil {
				return err
			}
		}
	}
	data := encodeIndex(rewriteMemoFormat, m.used, (*indexWriter).scanRecord)
	memoMu.Lock()
	defer memoMu.Unlock()
	return writeFileAtomic(c.memoFile(), data)
}

// dropRewriteMemo removes the memo, one of whose blobs turned out damaged.
func (c *Cache) dropRewriteMemo() {
	memoMu.Lock()
	defer memoMu.Unlock()
	os.Remove(c.memoFile())
}
