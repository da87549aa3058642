package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bakefs/bakefs/pipeline/remote"
	"github.com/bakefs/bakefs/transform"
)

// memStore is a remote.Store in memory that counts its calls and can be
// made to fail.
type memStore struct {
	mu     sync.Mutex
	data   map[string][]byte // "kind/hash" -> bytes
	gets   int
	puts   int
	failAt error // when set, every call fails with it
}

func newMemStore() *memStore { return &memStore{data: make(map[string][]byte)} }

func (m *memStore) Get(ctx context.Context, kind remote.Kind, hash string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	if m.failAt != nil {
		return nil, m.failAt
	}
	b, ok := m.data[string(kind)+"/"+hash]
	if !ok {
		return nil, remote.ErrMiss
	}
	return append([]byte(nil), b...), nil
}

func (m *memStore) Put(ctx context.Context, kind remote.Kind, hash string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.puts++
	if m.failAt != nil {
		return m.failAt
	}
	m.data[string(kind)+"/"+hash] = append([]byte(nil), data...)
	return nil
}

func (m *memStore) keys(kind remote.Kind) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []string
	for k := range m.data {
		if h, ok := strings.CutPrefix(k, string(kind)+"/"); ok {
			keys = append(keys, h)
		}
	}
	return keys
}

// warnings collects the lines a RemoteCache warns with.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(msg string) {
	w.mu.Lock()
	w.lines = append(w.lines, msg)
	w.mu.Unlock()
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

// remoteRun runs the jobs of root with a fresh local cache (unless cache
// is given) and remote, and writes the tree to a new directory, which it
// returns with the result.
func remoteRun(t *testing.T, root string, cache *Cache, remote *RemoteCache, p Pipeline, steps ...string) (*Result, string) {
	t.Helper()
	if cache == nil {
		cache = &Cache{Dir: t.TempDir()}
	}
	p.Root, p.Cache, p.Remote = root, cache, remote
	res, err := p.Run(context.Background(), jobsFor(t, root, steps...))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	return res, out
}

// TestRemoteCacheSharedBetweenRoots: a second copy of the sources at
// another path, with an empty local cache, gets every job from the
// remote cache, writes the same tree, and fills its local cache.
func TestRemoteCacheSharedBetweenRoots(t *testing.T) {
	store := newMemStore()
	root1 := writeSources(t, sampleSources)
	up := NewRemoteCache(store, RemoteOptions{Name: "mem"})
	first, out1 := remoteRun(t, root1, nil, up, Pipeline{}, "test-upper", "test-mark")
	up.Close(time.Minute)
	if first.Stats.Ran != 4 || first.Stats.Remote != 0 {
		t.Fatalf("first run: %+v", first.Stats)
	}
	// One for each job and one for each output's finishing steps.
	if n := len(store.keys(remote.AC)); n != 8 {
		t.Fatalf("%d action results uploaded, want 8", n)
	}

	root2 := writeSources(t, sampleSources)
	cache2 := &Cache{Dir: t.TempDir()}
	down := NewRemoteCache(store, RemoteOptions{Name: "mem"})
	marks := testMarkRuns.Load()
	second, out2 := remoteRun(t, root2, cache2, down, Pipeline{}, "test-upper", "test-mark")
	down.Close(time.Minute)
	if second.Stats.Ran != 0 || second.Stats.Cached != 4 || second.Stats.Remote != 4 {
		t.Fatalf("second run: %+v; want 4 from the remote cache", second.Stats)
	}
	if n := testMarkRuns.Load() - marks; n != 0 {
		t.Fatalf("second run: the finishing step ran %d times, want its results from the remote cache", n)
	}
	if got, want := readTreeFiles(t, out2), readTreeFiles(t, out1); !equalMaps(got, want) {
		t.Fatalf("trees differ:\n%v\n%v", got, want)
	}
	gets := store.gets
	third, _ := remoteRun(t, root2, cache2, NewRemoteCache(store, RemoteOptions{}), Pipeline{}, "test-upper", "test-mark")
	if third.Stats.Cached != 4 || third.Stats.Remote != 0 || store.gets != gets {
		t.Fatalf("third run: %+v, %d remote lookups; want all from the local cache", third.Stats, store.gets-gets)
	}
}

// TestRemoteCacheChecksDependencies: an entry whose recorded dependency
// has other bytes here is not used.
func TestRemoteCacheChecksDependencies(t *testing.T) {
	store := newMemStore()
	files := map[string]string{"in/a.txt": "a:", "side.txt": "one"}
	root1 := writeSources(t, files)
	ageAll(t, root1)
	up := NewRemoteCache(store, RemoteOptions{})
	jobs := func(root string) []*Job { return jobsFor(t, filepath.Join(root, "in"), "test-side") }
	run := func(root string, remote *RemoteCache) *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: &Cache{Dir: t.TempDir()}, Remote: remote}).Run(context.Background(), jobs(root))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run(root1, up)
	up.Close(time.Minute)

	same := writeSources(t, files)
	if res := run(same, NewRemoteCache(store, RemoteOptions{})); res.Stats.Remote != 1 {
		t.Fatalf("same dependency: %+v, want a remote hit", res.Stats)
	}
	files["side.txt"] = "two"
	other := writeSources(t, files)
	res := run(other, NewRemoteCache(store, RemoteOptions{}))
	if res.Stats.Remote != 0 || res.Stats.Ran != 1 {
		t.Fatalf("changed dependency: %+v, want the job to run", res.Stats)
	}
	if got := string(outputBytes(t, res, res.outputs[0].Path)); got != "a:two" {
		t.Fatalf("output %q, want a:two", got)
	}
}

// TestRemoteCacheDamagedBlob: a blob whose bytes do not match its hash is
// a miss; the job runs, and its upload puts the right bytes back.
func TestRemoteCacheDamagedBlob(t *testing.T) {
	store := newMemStore()
	root := writeSources(t, sampleSources)
	up := NewRemoteCache(store, RemoteOptions{})
	_, clean := remoteRun(t, root, nil, up, Pipeline{}, "test-upper")
	up.Close(time.Minute)
	want := transform.SHA256Hex([]byte("BRAVO\n"))
	store.mu.Lock()
	store.data["cas/"+want] = []byte("BRAVO!\n")
	store.mu.Unlock()

	down := NewRemoteCache(store, RemoteOptions{})
	res, out := remoteRun(t, writeSources(t, sampleSources), nil, down, Pipeline{}, "test-upper")
	down.Close(time.Minute)
	if res.Stats.Ran != 1 || res.Stats.Remote != 3 {
		t.Fatalf("stats %+v; want the damaged job to run and 3 remote hits", res.Stats)
	}
	if got, w := readTreeFiles(t, out), readTreeFiles(t, clean); !equalMaps(got, w) {
		t.Fatalf("tree differs from a clean one:\n%v\n%v", got, w)
	}
	store.mu.Lock()
	repaired := string(store.data["cas/"+want])
	store.mu.Unlock()
	if repaired != "BRAVO\n" {
		t.Fatalf("the damaged blob holds %q after the rebuild's upload", repaired)
	}
}

func TestRemoteCacheReadOnly(t *testing.T) {
	store := newMemStore()
	r := NewRemoteCache(store, RemoteOptions{ReadOnly: true})
	res, _ := remoteRun(t, writeSources(t, sampleSources), nil, r, Pipeline{}, "test-upper")
	r.Close(time.Minute)
	if res.Stats.Ran != 4 || store.gets == 0 || store.puts != 0 {
		t.Fatalf("read-only: %+v, %d gets, %d puts; want lookups and no upload", res.Stats, store.gets, store.puts)
	}
}

// TestRemoteCacheFailureWarnsOnce: a store that fails every call costs one
// warning and one call; the build goes on with the local cache.
func TestRemoteCacheFailureWarnsOnce(t *testing.T) {
	store := newMemStore()
	store.failAt = errors.New("connection refused")
	var w warnings
	r := NewRemoteCache(store, RemoteOptions{Name: "http://cache.example", Warn: w.add})
	res, _ := remoteRun(t, writeSources(t, sampleSources), nil, r, Pipeline{Workers: 1}, "test-upper")
	r.Close(time.Minute)
	if res.Stats.Ran != 4 || !r.Failed() {
		t.Fatalf("stats %+v, failed %v", res.Stats, r.Failed())
	}
	lines := w.all()
	if len(lines) != 1 || !strings.Contains(lines[0], "http://cache.example") || !strings.Contains(lines[0], "connection refused") {
		t.Fatalf("warnings %q; want one naming the server and the cause", lines)
	}
	if store.gets+store.puts != 1 {
		t.Fatalf("%d gets and %d puts after the failure; want the first call only", store.gets, store.puts)
	}
}

// TestRemoteCacheBoundsPending: a result larger than MaxPending is not
// uploaded, and Close says so.
func TestRemoteCacheBoundsPending(t *testing.T) {
	store := newMemStore()
	var w warnings
	r := NewRemoteCache(store, RemoteOptions{Name: "mem", Warn: w.add, MaxPending: 4})
	remoteRun(t, writeSources(t, sampleSources), nil, r, Pipeline{}, "test-upper")
	r.Close(time.Minute)
	if store.puts != 0 {
		t.Fatalf("%d puts over the bound", store.puts)
	}
	if lines := w.all(); len(lines) != 1 || !strings.Contains(lines[0], "4 results were not uploaded") {
		t.Fatalf("warnings %q", lines)
	}
}

// TestRemoteCacheClosed: after Close nothing is looked up or uploaded.
func TestRemoteCacheClosed(t *testing.T) {
	store := newMemStore()
	r := NewRemoteCache(store, RemoteOptions{})
	r.Close(time.Second)
	res, _ := remoteRun(t, writeSources(t, sampleSources), nil, r, Pipeline{}, "test-upper")
	if res.Stats.Ran != 4 || store.gets+store.puts != 0 {
		t.Fatalf("closed: %+v, %d gets, %d puts", res.Stats, store.gets, store.puts)
	}
}
