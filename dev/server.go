package dev

import (
	"context"
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/report"
	"github.com/bakefs/bakefs/pipeline"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Server. The zero value is ready to use.
type Options struct {
	// Log receives one line per build and the errors of failed builds.
	// Nil means os.Stderr.
	Log io.Writer
	// NoSourcemaps keeps the rules' steps as written: no sourcemap=external
	// is added in dev.
	NoSourcemaps bool
	// Quiet is how long the sources must stay unchanged after an event
	// before a rebuild starts, so that an editor's save (several events)
	// gives one build. Zero means 10ms: the events of one save (a write,
	// or a backup's rename, a write and a chmod, and the editor's swap
	// file) come within a few milliseconds of each other.
	Quiet time.Duration
	// Remote, when set, is the remote cache behind every build's local
	// cache (pipeline.Pipeline.Remote). The Server does not close it.
	Remote *pipeline.RemoteCache
}

// defaultQuiet is Options.Quiet's default.
const defaultQuiet = 10 * time.Millisecond

// A Server builds a project and serves its latest good build. Its methods
// are safe for concurrent use.
type Server struct {
	file string // the project file
	opts Options
	log  io.Writer
	tmp  string // holds the store of the builds' files, and the fallback cache

	buildMu sync.Mutex      // one build at a time; guards the fields below
	gen     uint64          // builds made
	store   *store          // the files of the builds still served
	trees   []*storeFS      // their trees, oldest first
	mem     *memory         // what the last build made, for the next
	jobs    []*pipeline.Job // the jobs of the last build, listed at layout jobsAt
	jobsAt  uint64

	// layout counts the events that may change the jobs: a file or
	// directory of the sources created, removed or renamed, an event of
	// the project file, a watcher error. Run counts them.
	layout atomic.Uint64

	// The files Run saw written or created since the last build's
	// pipeline started (logical paths), and whether that is all that may
	// have changed: see takeChanged.
	changedMu    sync.Mutex
	changed      map[string]bool
	changedKnown bool

	cur    atomic.Pointer[build]
	events *broker

	closeOnce sync.Once
	closed    chan struct{}
	watching  chan struct{} // closed once Run has set up its watches
}

// A build is one successful build: its number and its FS, or the error of
// the last failed attempt together with the build still served.
type build struct {
	gen      uint64
	fs       *bakefs.FS
	manifest *bakefs.Manifest // to skip no-op rebuilds
	src      string           // the project's source root, for messages
	err      error            // the last build failed: fs is the one before
}

// New loads the project file and builds it once. A build that fails is not
// an error of New: the server starts, reports the failure (Err, the
// overlay) and builds again on the next change. New fails only when the
// project file cannot be read or the temporary directory cannot be made.
func New(projectFile string, opts Options) (*Server, error) {
	abs, err := filepath.Abs(projectFile)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "bakefs-dev-")
	if err != nil {
		return nil, err
	}
	s := &Server{file: abs, opts: opts, log: opts.Log, tmp: tmp, store: newStore(filepath.Join(tmp, "files")),
		events: newBroker(), closed: make(chan struct{}), watching: make(chan struct{})}
	if s.log == nil {
		s.log = os.Stderr
	}
	s.log = &lockedWriter{w: s.log}
	if s.opts.Quiet <= 0 {
		s.opts.Quiet = defaultQuiet
	}
	s.cur.Store(&build{err: ErrNoBuild})
	s.Rebuild(context.Background())
	return s, nil
}

// FS returns the runtime FS of the latest successful build, or nil when
// no build has succeeded yet. Each build gives a new FS; hold the one
// returned for the whole of a request.
func (s *Server) FS() *bakefs.FS { return s.cur.Load().fs }

// Generation returns the number of the build that FS returns: 1 for the
// first successful build, 0 before it. A rebuild whose output is unchanged
// keeps the number.
func (s *Server) Generation() uint64 { return s.cur.Load().gen }

// Err returns the error of the last build, or nil when it succeeded.
func (s *Server) Err() error { return s.cur.Load().err }

// Rebuild builds the project now and swaps the new FS in when the build
// succeeds and changed something. It returns the build's error, which is
// also reported to the log and to browsers.
func (s *Server) Rebuild(ctx context.Context) error {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	select {
	case <-s.closed:
		return ErrClosed
	default:
	}
	prev := s.cur.Load()
	start := time.Now()
	res, err := s.buildOnce(ctx)
	if errors.Is(err, pipeline.ErrCacheDamaged) && ctx.Err() == nil && s.mem != nil {
		// A blob of the cache that the last build vouched for is gone,
		// and its entry with it: once more, without that memory.
		s.mem.inc.Reset()
		res, err = s.buildOnce(ctx)
	}
	if err != nil && ctx.Err() != nil {
		return err // cancelled: not a failure of the sources
	}
	if err != nil {
		next := *prev
		next.err = err
		if res != nil && res.src != "" {
			next.src = res.src
		}
		s.cur.Store(&next)
		s.reportError(&next)
		s.events.publish(state{Generation: next.gen, Error: errorText(err, next.src)})
		return err
	}
	if prev.fs != nil && prev.err == nil && sameManifest(prev.manifest, res.manifest) {
		s.store.release(res.data)
		return nil // nothing changed: keep the generation, no reload
	}
	s.gen++
	s.cur.Store(&build{gen: s.gen, fs: res.fs, manifest: res.manifest, src: res.src})
	elapsed := time.Since(start)
	s.events.publish(state{Generation: s.gen})
	// Keep the previous build's files for requests that are still reading
	// them; those of the builds before it go.
	s.trees = append(s.trees, res.data)
	for len(s.trees) > 2 {
		s.store.release(s.trees[0])
		s.trees = s.trees[1:]
	}
	st := res.stats
	for _, w := range res.warnings {
		fmt.Fprintf(s.log, "bakefs dev: %v\n", w)
	}
	fmt.Fprintf(s.log, "bakefs dev: build %d: %s, in %s\n", s.gen, report.Summary(st, s.opts.Remote != nil), elapsed.Round(time.Millisecond))
	return nil
}

// FlushCache writes what the builds taught the cache (its indexes, which
// the builds keep in memory, and its pruning) to disk. Run calls it once
// the sources have been quiet for a while, and Close calls it, so that a
// rebuild never waits for it.
func (s *Server) FlushCache() error {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	return s.flushLocked()
}

func (s *Server) flushLocked() error {
	if s.mem == nil {
		return nil
	}
	if err := s.mem.cache.Flush(); err != nil {
		fmt.Fprintf(s.log, "bakefs dev: writing cache index: %v\n", err)
		return err
	}
	return nil
}

// reportError prints a failed build: compiler-style lines stand alone so
// that editors and terminals can jump to them.
func (s *Server) reportError(b *build) {
	fmt.Fprintf(s.log, "bakefs dev: build failed; still serving build %d\n", b.gen)
	for _, line := range report.ErrorLines(b.err, b.src) {
		fmt.Fprintln(s.log, line)
	}
}

// Close stops the server: event streams end, Run returns, the cache's
// indexes are written (FlushCache), and the temporary files of the builds
// are removed. Close waits for a build in progress to finish.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.events.close()
	})
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	if s.mem != nil {
		s.flushLocked()
		s.mem = nil
	}
	return os.RemoveAll(s.tmp)
}

// lockedWriter serialises the writes of the builds, the watcher and the
// handlers to the log.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
