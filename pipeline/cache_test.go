package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// TestCacheKeyCoversEverything: a change in any part of what makes the
// bytes (the tool's identity, the profile, the path, the input, the
// steps and their options) is a different key.
func TestCacheKeyCoversEverything(t *testing.T) {
	chain, err := transform.ParseChain([]string{"test-upper"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := transform.ParseChain([]string{"test-upper:suffix=.x"})
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Path: "a.txt", Chain: chain}
	ref := cacheKey("tool1", job, transform.Release, "sum1")
	if cacheKey("tool1", &Job{Path: "a.txt", Chain: chain}, transform.Release, "sum1") != ref {
		t.Fatal("the same inputs give different keys")
	}
	for name, key := range map[string]string{
		"tool identity": cacheKey("tool2", job, transform.Release, "sum1"),
		"profile":       cacheKey("tool1", job, transform.Dev, "sum1"),
		"input bytes":   cacheKey("tool1", job, transform.Release, "sum2"),
		"path":          cacheKey("tool1", &Job{Path: "b.txt", Chain: chain}, transform.Release, "sum1"),
		"source":        cacheKey("tool1", &Job{Path: "a.txt", Source: "a.ts", Chain: chain}, transform.Release, "sum1"),
		"options":       cacheKey("tool1", &Job{Path: "a.txt", Chain: other}, transform.Release, "sum1"),
	} {
		if key == ref {
			t.Errorf("a change of %s keeps the key", name)
		}
	}
}

// TestCacheKeyBytes: cacheKey, written without fmt, hashes the bytes its
// format names, so that the keys of earlier versions still hit; quoted
// paths with spaces, quotes and non-ASCII runes included.
func TestCacheKeyBytes(t *testing.T) {
	chain, err := transform.ParseChain([]string{"test-upper:suffix=.x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, job := range []*Job{
		{Path: "a.txt", Chain: chain},
		{Path: "img/phöto \"1\".txt", Source: "src/日本.ts", Width: 960, Height: 640, Chain: chain},
		{Path: "tab\there.txt"},
	} {
		for _, profile := range []transform.Profile{transform.Release, transform.Dev} {
			h := sha256.New()
			fmt.Fprintf(h, "%s\ntool %s\nprofile %s\npath %q\nsource %q\nsize %dx%d\nsha256 %s\n%s",
				cacheFormat, "tool1", profile, job.Path, job.source(), job.Width, job.Height, "sum1", job.Chain.Key())
			if want, got := hex.EncodeToString(h.Sum(nil)), cacheKey("tool1", job, profile, "sum1"); got != want {
				t.Errorf("%q, %s: key %s, want %s", job.Path, profile, got, want)
			}
		}
	}
}

// A test step that depends on a file beside its input, and can rewrite
// that file while it runs, as an editor saving during a build does.
var (
	sideRuns    atomic.Int64
	sideRewrite atomic.Pointer[string] // when set, the step writes this into the file once
)

func init() {
	transform.Register("test-side", "1", "appends side.txt (tests only)", transform.Content, func(struct{}) (transform.Step, error) {
		return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
			sideRuns.Add(1)
			file := filepath.Join(ctx.Root, "side.txt")
			ctx.Depend(file)
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			if text := sideRewrite.Swap(nil); text != nil {
				time.Sleep(10 * time.Millisecond) // a modification time after the start
				os.WriteFile(file, []byte(*text), 0o644)
			}
			b := a.Clone()
			b.Data = append(append([]byte(nil), a.Data...), data...)
			return []*transform.Asset{b}, nil
		}), nil
	})
}

// TestCacheDependencyEditedDuringRun: a dependency rewritten while the
// step runs makes the job run again, and the bytes kept and cached are
// those of the new content, never the old output under the new file's
// hash.
func TestCacheDependencyEditedDuringRun(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a:"})
	side := filepath.Join(root, "side.txt")
	os.WriteFile(side, []byte("old"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(side, old, old)
	cache := &Cache{Dir: t.TempDir()}
	jobs := jobsFor(t, filepath.Join(root, "in"), "test-side")
	run := func() string {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		data, err := fetch(res.outputs[0].data, res.outputs[0].blob, cache)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	text := "new"
	sideRewrite.Store(&text)
	before := sideRuns.Load()
	if got := run(); got != "a:new" {
		t.Fatalf("output %q, want the new content a:new", got)
	}
	if n := sideRuns.Load() - before; n != 2 {
		t.Fatalf("the step ran %d times, want 2 (once more after the edit)", n)
	}
	// The file is now recent: the result is not cached until it is older
	// than the racy window (see racy), so the next run may run again, and
	// gives the same.
	if got := run(); got != "a:new" {
		t.Fatalf("next output %q", got)
	}
	os.Chtimes(side, old, old) // as if time had passed
	run()
	before = sideRuns.Load()
	if got := run(); got != "a:new" || sideRuns.Load() != before {
		t.Fatalf("a settled dependency: output %q, %d runs", got, sideRuns.Load()-before)
	}
}

// TestCacheKeepsRecentDependency: a dependency written just before the
// build (as a checkout writes every file) but not within its file
// system's timestamp granularity of it makes a result that the cache
// keeps: the next run runs nothing.
func TestCacheKeepsRecentDependency(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a:", "side.txt": "side"})
	fi, err := os.Stat(filepath.Join(root, "side.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.ModTime().Nanosecond() == 0 {
		t.Skip("a file system with whole-second times: its racy window is racyWindow")
	}
	time.Sleep(2 * fineRacyWindow)
	cache := &Cache{Dir: t.TempDir()}
	for i, want := range []int{1, 0} {
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, filepath.Join(root, "in"), "test-side"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Ran != want {
			t.Errorf("run %d: %+v, want %d ran", i+1, res.Stats, want)
		}
	}
}

// TestRacy: a time within the granularity before a moment, or after it,
// is racy; whole seconds have the coarse window.
func TestRacy(t *testing.T) {
	now := time.Date(2026, 12, 4, 10, 0, 0, 500_000_000, time.UTC)
	for _, c := range []struct {
		mtime time.Time
		want  bool
	}{
		{now.Add(time.Millisecond), true},
		{now.Add(-fineRacyWindow / 2), true},
		{now.Add(-2 * fineRacyWindow), false},
		{now.Add(-500 * time.Millisecond), true}, // whole seconds: within racyWindow
		{now.Add(-3500 * time.Millisecond), false},
	} {
		if got := racy(c.mtime, now); got != c.want {
			t.Errorf("racy(%v, %v) = %v, want %v", c.mtime, now, got, c.want)
		}
	}
}

// TestCacheDamage: a damaged blob or entry is discarded and the job runs
// again, instead of copying wrong bytes: a damaged entry is a miss; a
// damaged blob fails the tree with ErrCacheDamaged, after which a second
// run makes the bytes anew (bakefs build does that by itself).
func TestCacheDamage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"blob flipped", func(t *testing.T, dir string) {
			eachFile(t, filepath.Join(dir, "blobs"), func(file string) {
				data, _ := os.ReadFile(file)
				data[0] ^= 1
				os.WriteFile(file, data, 0o644)
			})
		}},
		{"blob removed", func(t *testing.T, dir string) {
			eachFile(t, filepath.Join(dir, "blobs"), func(file string) { os.Remove(file) })
		}},
		{"entry garbage", func(t *testing.T, dir string) {
			eachFile(t, filepath.Join(dir, "entries"), func(file string) {
				os.WriteFile(file, []byte(`{"outputs":[{"path":"x","blob":{"sha256":"zz"}}]}`), 0o644)
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeSources(t, sampleSources)
			cache := &Cache{Dir: t.TempDir()}
			run := func(out string) *Result {
				t.Helper()
				for attempt := 1; ; attempt++ {
					res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, root, "test-upper"))
					if err != nil {
						t.Fatal(err)
					}
					_, err = res.WriteTree(out)
					if errors.Is(err, ErrCacheDamaged) && attempt == 1 {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
			}
			clean := filepath.Join(t.TempDir(), "clean")
			run(clean)
			tc.damage(t, cache.Dir)
			out := filepath.Join(t.TempDir(), "out") // a new tree: every blob is needed
			res := run(out)
			if res.Stats.Ran != len(sampleSources) {
				t.Errorf("after the damage %d jobs ran, want %d", res.Stats.Ran, len(sampleSources))
			}
			if got, want := readTreeFiles(t, out), readTreeFiles(t, clean); !equalMaps(got, want) {
				t.Errorf("tree after damage differs from a clean one:\n%v\n%v", got, want)
			}
			if res := run(filepath.Join(t.TempDir(), "again")); res.Stats.Cached != len(sampleSources) {
				t.Errorf("the rebuilt entries are not cached: %+v", res.Stats)
			}
		})
	}
}

func eachFile(t *testing.T, dir string, f func(file string)) {
	t.Helper()
	n := 0
	walkFiles(dir, func(file string, fi os.FileInfo) {
		if !strings.HasPrefix(fi.Name(), ".tmp-") {
			f(file)
			n++
		}
	})
	if n == 0 {
		t.Fatalf("no file under %s", dir)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCachePrune: prune keeps the most recently used entries that fit,
// removes the blobs nothing refers to, and a run past the bound prunes by
// itself.
func TestCachePrune(t *testing.T) {
	root := writeSources(t, map[string]string{"a.txt": strings.Repeat("a", 4000), "b.txt": strings.Repeat("b", 4000)})
	cache := &Cache{Dir: t.TempDir()}
	run := func(jobs []*Job) *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := jobsFor(t, root, "test-upper")
	run(all)
	// Make b.txt's entry the older one.
	eachFile(t, filepath.Join(cache.Dir, "entries"), func(file string) {
		data, _ := os.ReadFile(file)
		if strings.Contains(string(data), `"b.txt"`) {
			old := time.Now().Add(-48 * time.Hour)
			os.Chtimes(file, old, old)
		}
	})
	st, err := cache.Prune(6000) // room for one entry and its blob
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 1 || st.Blobs != 1 || st.Kept > 6000 {
		t.Fatalf("Prune(6000) = %+v, want one entry and one blob removed", st)
	}
	if res := run(all); res.Stats.Cached != 1 || res.Stats.Ran != 1 {
		t.Fatalf("after pruning the older entry: %+v, want a.txt cached and b.txt run", res.Stats)
	}
	if st, err := cache.Prune(0); err != nil || st.Kept != 0 {
		t.Fatalf("Prune(0) = %+v, %v", st, err)
	}
	if res := run(all); res.Stats.Ran != 2 {
		t.Fatalf("after emptying: %+v", res.Stats)
	}
	// A bound smaller than what a run stores prunes at the end of the run.
	bounded := &Cache{Dir: t.TempDir(), MaxSize: 5000}
	if _, err := (&Pipeline{Root: root, Cache: bounded}).Run(context.Background(), all); err != nil {
		t.Fatal(err)
	}
	var size int64
	walkFiles(bounded.Dir, func(file string, fi os.FileInfo) {
		if strings.Contains(file, string(filepath.Separator)+"blobs"+string(filepath.Separator)) {
			size += fi.Size()
		}
	})
	if size > 5000 {
		t.Fatalf("blobs take %d bytes, over the bound 5000", size)
	}
}

// TestCacheSharedByProjects: two projects with one cache directory keep
// their own file-hash index, so neither makes the other hash again.
func TestCacheSharedByProjects(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	roots := []string{writeSources(t, map[string]string{"a.txt": "one"}), writeSources(t, map[string]string{"b.txt": "two"})}
	for _, r := range roots {
		eachFile(t, r, func(file string) { os.Chtimes(file, old, old) })
	}
	for i := 0; i < 2; i++ {
		for _, r := range roots {
			c := &Cache{Dir: dir}
			if _, err := (&Pipeline{Root: r, Cache: c}).Run(context.Background(), jobsFor(t, r, "test-upper")); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range roots {
		c := &Cache{Dir: dir}
		c.bind(r)
		stamps := readFileIndex(t, c.files().file)
		if len(stamps) == 0 {
			t.Fatalf("the index of %s is empty", r)
		}
		for file := range stamps {
			for _, other := range roots {
				if other != r && strings.HasPrefix(file, other) {
					t.Errorf("the index of %s holds %s, a file of %s", r, file, other)
				}
			}
		}
	}
}

// TestRunCanceledReportsOnce: a cancelled run returns the context's error
// alone, not one error per job.
func TestRunCanceledReportsOnce(t *testing.T) {
	files := make(map[string]string)
	for i := 0; i < 200; i++ {
		files[filepath.Join("d", strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+".txt")+string(rune('0'+i%10))] = "x"
	}
	root := writeSources(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&Pipeline{Root: root}).Run(ctx, jobsFor(t, root, "test-upper"))
	if !errors.Is(err, context.Canceled) || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("error %q, want context.Canceled alone", err)
	}
}

// TestCacheVariantsPerKey: two projects whose inputs are the same bytes
// but whose dependencies differ keep a variant each under one key, instead
// of evicting each other's.
func TestCacheVariantsPerKey(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	var roots []string
	for _, side := range []string{"one", "two"} {
		root := writeSources(t, map[string]string{"in/a.txt": "a:", "side.txt": side})
		eachFile(t, root, func(file string) { os.Chtimes(file, old, old) })
		roots = append(roots, root)
	}
	run := func(root string) Stats {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: &Cache{Dir: dir}}).Run(context.Background(), jobsFor(t, filepath.Join(root, "in"), "test-side"))
		if err != nil {
			t.Fatal(err)
		}
		return res.Stats
	}
	run(roots[0])
	run(roots[1])
	for _, r := range roots {
		if st := run(r); st.Cached != 1 {
			t.Errorf("%s after both were built: %+v, want cached", r, st)
		}
	}
}
