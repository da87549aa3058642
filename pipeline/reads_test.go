package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

// TestBytesInCountsWhatJobsRead: the summary's input bytes are those of
// every distinct source file the outputs were made from (two bundles'
// entries and the library both import, counted once), the same in a cold
// run, a cached one, and one without a cache.
func TestBytesInCountsWhatJobsRead(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"app.js":   "import {lib} from './lib.js'\nconsole.log(lib('app'))\n",
		"admin.js": "import {lib} from './lib.js'\nconsole.log(lib('admin'))\n",
		"lib.js":   "export function lib(name) { return 'hello, ' + name }\n",
	}
	var want int64
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		want += int64(len(body))
	}
	ageAll(t, root)
	chain, err := transform.ParseChain([]string{"bundle"})
	if err != nil {
		t.Fatal(err)
	}
	jobs := func() []*Job {
		var jobs []*Job
		for _, entry := range []string{"admin.js", "app.js"} {
			jobs = append(jobs, &Job{Path: entry, File: filepath.Join(root, entry), Chain: chain})
		}
		return jobs
	}
	cache := &Cache{Dir: t.TempDir()}
	for _, run := range []struct {
		name  string
		cache *Cache
	}{{"cold", cache}, {"cached", cache}, {"without a cache", nil}} {
		res, err := (&Pipeline{Root: root, Cache: run.cache}).Run(context.Background(), jobs())
		if err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		if res.Stats.BytesIn != want {
			t.Errorf("%s run: BytesIn = %d, want %d (%+v)", run.name, res.Stats.BytesIn, want, res.Stats)
		}
		if run.name == "cached" && res.Stats.Cached != 2 {
			t.Errorf("cached run: %+v", res.Stats)
		}
	}
}
