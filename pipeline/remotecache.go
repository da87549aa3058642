package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/pipeline/remote"
	"github.com/bakefs/bakefs/transform"
)

// RemoteOptions configure a RemoteCache. The zero value uploads, warns
// nowhere and keeps the default bounds.
type RemoteOptions struct {
	// Name is how warnings name the store, such as a server's URL. It
	// must not hold credentials.
	Name string
	// ReadOnly makes the cache look entries up but never upload.
	ReadOnly bool
	// Warn, when set, receives the one line that says the store failed
	// and is no longer used, and the line Close prints when uploads were
	// left undone. It is called from any goroutine, one call at a time.
	Warn func(msg string)
	// Uploaders bounds the uploads in flight; 0 means 4.
	Uploaders int
	// MaxPending bounds the bytes of results waiting for upload; a result
	// that would pass it is not uploaded. 0 means 256 MiB.
	MaxPending int64
}

// A RemoteCache is a second-level cache shared between machines, behind a
// Pipeline's local Cache: a job the local cache cannot answer is looked up
// under the same key in the store, and a hit is copied into the local
// cache; a job that ran is uploaded after its local store, in the
// background. Entries are usable only when the files they record as
// dependencies have the same hashes here, the check the local cache makes,
// and every byte downloaded is verified against its SHA-256, so a damaged
// or foreign entry is a miss and the job runs.
//
// The store's failures never fail a build: the first one (an unreachable
// server, a timeout, an unexpected status) is reported once through Warn,
// the requests in flight are cancelled, and the RemoteCache answers
// nothing and uploads nothing for the rest of its life. A RemoteCache is
// safe for concurrent use and may serve several pipeline runs (a dev
// server's rebuilds); Close ends its life.
type RemoteCache struct {
	store remote.Store
	opts  RemoteOptions

	ctx    context.Context // cancelled on failure and by Close
	cancel context.CancelFunc
	failed atomic.Bool
	closed atomic.Bool

	warnMu sync.Mutex

	slots     chan struct{} // upload concurrency
	uploads   sync.WaitGroup
	pendingMu sync.Mutex
	pending   int64    // bytes queued or in flight
	dropped   int      // results not uploaded because of MaxPending
	sent      sync.Map // CAS hashes uploaded or known present
}

// NewRemoteCache returns a RemoteCache over store.
func NewRemoteCache(store remote.Store, opts RemoteOptions) *RemoteCache {
	if opts.Uploaders <= 0 {
		opts.Uploaders = 4
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = 256 << 20
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &RemoteCache{store: store, opts: opts, ctx: ctx, cancel: cancel, slots: make(chan struct{}, opts.Uploaders)}
}

// Failed reports whether the store failed and the RemoteCache stopped
// using it.
func (r *RemoteCache) Failed() bool { return r.failed.Load() }

// Close waits up to timeout for the uploads started so far, cancels those
// still running after it (an upload cut short leaves no entry: the entry
// is put last), and stops the RemoteCache: later lookups miss and nothing
// more is uploaded. It reports uploads left undone through Warn.
func (r *RemoteCache) Close(timeout time.Duration) {
	if r.closed.Swap(true) {
		return
	}
	done := make(chan struct{})
	go func() { r.uploads.Wait(); close(done) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	cut := false
	select {
	case <-done:
	case <-timer.C:
		cut = true
	}
	r.cancel()
	<-done
	r.pendingMu.Lock()
	dropped := r.dropped
	r.pendingMu.Unlock()
	switch {
	case r.failed.Load():
	case cut:
		r.warn(fmt.Sprintf("remote cache %s: uploads unfinished after %s were abandoned", r.opts.Name, timeout))
	case dropped > 0:
		r.warn(fmt.Sprintf("remote cache %s: %d results were not uploaded (more than %s waiting)", r.opts.Name, dropped, byteCount(r.opts.MaxPending)))
	}
}

func (r *RemoteCache) warn(msg string) {
	if r.opts.Warn == nil {
		return
	}
	r.warnMu.Lock()
	defer r.warnMu.Unlock()
	r.opts.Warn(msg)
}

// fail stops the use of the store after its first failure.
func (r *RemoteCache) fail(err error) {
	if r.failed.Swap(true) {
		return
	}
	r.cancel()
	r.warn(fmt.Sprintf("remote cache %s: %v; using the local cache only", r.opts.Name, err))
}

// usable reports whether the store is still in use.
func (r *RemoteCache) usable() bool { return !r.failed.Load() && !r.closed.Load() }

// call runs one request with a context that ctx, a failure and the end of
// Close all cancel. It returns remote.ErrMiss for a miss, and an error for
// anything else that did not succeed; a failure of the store is reported
// by fail.
func (r *RemoteCache) call(ctx context.Context, f func(ctx context.Context) error) error {
	if r.failed.Load() {
		return remote.ErrMiss
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(r.ctx, cancel)
	defer stop()
	err := f(cctx)
	switch {
	case err == nil, errors.Is(err, remote.ErrMiss):
		return err
	case ctx.Err() != nil || r.ctx.Err() != nil:
		return err // cancelled by the build, an earlier failure or Close
	}
	r.fail(err)
	return err
}

func (r *RemoteCache) get(ctx context.Context, kind remote.Kind, hash string) ([]byte, error) {
	var data []byte
	err := r.call(ctx, func(ctx context.Context) (err error) {
		data, err = r.store.Get(ctx, kind, hash)
		return err
	})
	return data, err
}

// getBlob downloads the bytes of ref and checks them against it.
func (r *RemoteCache) getBlob(ctx context.Context, ref blobRef) ([]byte, bool) {
	data, err := r.get(ctx, remote.CAS, ref.SHA256)
	if err != nil || int64(len(data)) != ref.Size || transform.SHA256Hex(data) != ref.SHA256 {
		return nil, false
	}
	return data, true
}

// fetch looks key up in the store and, on a hit whose dependencies match
// the files under root and whose bytes are whole, copies the entry and its
// blobs into the local cache c and returns the entry.
func (r *RemoteCache) fetch(ctx context.Context, c *Cache, key, root string) (*cacheEntry, bool) {
	if !r.usable() {
		return nil, false
	}
	ar, err := r.get(ctx, remote.AC, key)
	if err != nil {
		return nil, false
	}
	files, err := remote.DecodeActionResult(ar)
	if err != nil || len(files) == 0 || files[0].Path != remote.EntryPath || !validSum(files[0].SHA256) {
		return nil, false // not an entry of bakefs
	}
	raw, ok := r.getBlob(ctx, blobRef{SHA256: files[0].SHA256, Size: files[0].Size})
	if !ok {
		return nil, false
	}
	var e cacheEntry
	if err := json.Unmarshal(raw, &e); err != nil || !e.valid() || !c.depsUnchanged(&e, root) {
		return nil, false
	}
	var written int64
	for _, ref := range e.blobs() {
		if ref.Size == 0 || c.hasBlob(ref) {
			continue
		}
		data, ok := r.getBlob(ctx, ref)
		if !ok {
			return nil, false
		}
		n, err := c.putBlob(ref, data)
		if err != nil {
			return nil, false
		}
		written += n
	}
	n, err := c.putEntry(key, e)
	if err != nil {
		return nil, false
	}
	c.addStored(written + n)
	return &e, true
}

// upload queues a job's result for upload: its blobs, then its entry (the
// bytes store returned), then the ActionResult under key, so that a
// reader never finds an entry whose bytes are not all there. It returns at
// once.
func (r *RemoteCache) upload(key string, entry []byte, outs []*output) {
	if r.opts.ReadOnly || !r.usable() {
		return
	}
	type blob struct {
		ref  blobRef
		data []byte
	}
	var blobs []blob
	files := []remote.File{{Path: remote.EntryPath, SHA256: transform.SHA256Hex(entry), Size: int64(len(entry))}}
	size := int64(len(entry))
	for _, o := range outs {
		blobs = append(blobs, blob{o.blob, o.data})
		files = append(files, remote.File{Path: o.Path, SHA256: o.blob.SHA256, Size: o.blob.Size})
		for _, enc := range o.encodings {
			suffix, _ := bakefs.EncodingSuffix(enc.name)
			blobs = append(blobs, blob{enc.blob, enc.data})
			files = append(files, remote.File{Path: o.Path + suffix, SHA256: enc.blob.SHA256, Size: enc.blob.Size})
		}
	}
	for _, b := range blobs {
		size += b.ref.Size
	}
	blobs = append(blobs, blob{blobRef{SHA256: files[0].SHA256, Size: files[0].Size}, entry})
	r.pendingMu.Lock()
	if r.pending+size > r.opts.MaxPending {
		r.dropped++
		r.pendingMu.Unlock()
		return
	}
	r.pending += size
	r.pendingMu.Unlock()
	r.uploads.Add(1)
	go func() {
		defer r.uploads.Done()
		defer func() {
			r.pendingMu.Lock()
			r.pending -= size
			r.pendingMu.Unlock()
		}()
		select {
		case r.slots <- struct{}{}:
			defer func() { <-r.slots }()
		case <-r.ctx.Done():
			return
		}
		for _, b := range blobs {
			if b.ref.Size == 0 {
				continue // the empty blob is present by definition
			}
			if _, done := r.sent.Load(b.ref.SHA256); done {
				continue
			}
			if r.put(remote.CAS, b.ref.SHA256, b.data) != nil {
				return
			}
			r.sent.Store(b.ref.SHA256, true)
		}
		r.put(remote.AC, key, remote.EncodeActionResult(files))
	}()
}

func (r *RemoteCache) put(kind remote.Kind, hash string, data []byte) error {
	return r.call(r.ctx, func(ctx context.Context) error {
		return r.store.Put(ctx, kind, hash, data)
	})
}

// byteCount formats n in KiB, MiB or GiB.
func byteCount(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	default:
		return fmt.Sprintf("%d KiB", n>>10)
	}
}
