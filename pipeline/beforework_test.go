package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestBeforeWork: BeforeWork is called once per Run in which a step runs
// that no cache answered, however many jobs run, and not at all in a run
// the cache answers whole.
func TestBeforeWork(t *testing.T) {
	files := map[string]string{}
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"} {
		files["in/"+name] = name
	}
	root := writeSources(t, files)
	in := filepath.Join(root, "in")
	old := time.Now().Add(-time.Hour)
	for name := range files {
		os.Chtimes(filepath.Join(root, name), old, old)
	}
	jobs := jobsFor(t, in, "test-upper", "gzip")
	cache := &Cache{Dir: t.TempDir()}
	for _, st := range []struct {
		name   string
		change func()
		cache  *Cache
		want   int32
	}{
		{"cold", func() {}, cache, 1},
		{"nothing changed", func() {}, cache, 0},
		{"one input edited", func() {
			file := filepath.Join(in, "c.txt")
			os.WriteFile(file, []byte("edited"), 0o644)
			os.Chtimes(file, old.Add(time.Minute), old.Add(time.Minute))
		}, cache, 1},
		{"nothing changed again", func() {}, cache, 0},
		{"no cache", func() {}, nil, 1},
	} {
		t.Run(st.name, func(t *testing.T) {
			st.change()
			var calls atomic.Int32
			p := &Pipeline{Root: in, Cache: st.cache, Workers: 3, BeforeWork: func() { calls.Add(1) }}
			res, err := p.Run(context.Background(), jobs)
			if err != nil {
				t.Fatal(err)
			}
			if got := calls.Load(); got != st.want {
				t.Errorf("BeforeWork called %d times (%d jobs ran), want %d", got, res.Stats.Ran, st.want)
			}
		})
	}
}
