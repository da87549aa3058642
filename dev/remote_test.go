package dev

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/pipeline/remote"
)

// mapStore is a remote.Store in memory.
type mapStore struct {
	mu   sync.Mutex
	data map[string][]byte
}

func (m *mapStore) Get(_ context.Context, kind remote.Kind, hash string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.data[string(kind)+"/"+hash]
	if !ok {
		return nil, remote.ErrMiss
	}
	return b, nil
}

func (m *mapStore) Put(_ context.Context, kind remote.Kind, hash string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[string(kind)+"/"+hash] = append([]byte(nil), data...)
	return nil
}

// TestRemoteCache: a dev server for a second copy of a project, with its
// own empty cache, gets its first build from the remote cache that the
// first copy's server filled, and serves the same bytes.
func TestRemoteCache(t *testing.T) {
	store := &mapStore{data: make(map[string][]byte)}
	var pages []string
	for i, want := range []string{"2 ran, 0 cached (0 remote)", "0 ran, 2 cached (2 remote)"} {
		file := writeProject(t, testProject)
		old := time.Now().Add(-time.Hour) // out of the cache's racy window
		filepath.WalkDir(filepath.Dir(file), func(p string, d os.DirEntry, err error) error {
			if err == nil {
				os.Chtimes(p, old, old)
			}
			return err
		})
		remote := pipeline.NewRemoteCache(store, pipeline.RemoteOptions{})
		s, log := newTestServer(t, file, Options{Remote: remote})
		remote.Close(time.Minute)
		if !strings.Contains(log.String(), want) {
			t.Fatalf("server %d log:\n%s\nwant %q", i+1, log, want)
		}
		pages = append(pages, readFile(t, s, "app.js"))
	}
	if pages[0] != pages[1] {
		t.Fatalf("the servers serve different bytes:\n%s\n%s", pages[0], pages[1])
	}
}
