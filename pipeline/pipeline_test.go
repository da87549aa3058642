package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bakefs/bakefs/internal/golden"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// Golden files live under testdata/golden (see internal/golden).
func TestMain(m *testing.M) { golden.Main(m) }

// Steps that exist only in tests: they count their runs and fail on demand.
var testStepRuns atomic.Int64

// testMarkRuns counts the runs of the test-mark step.
var testMarkRuns atomic.Int64

type upperOptions struct {
	Suffix string `opt:"suffix" doc:"appended to the name"`
}

func init() {
	transform.Register("test-upper", "1", "upper-cases bytes (tests only)", transform.Content, func(o upperOptions) (transform.Step, error) {
		return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
			testStepRuns.Add(1)
			if bytes.Contains(a.Data, []byte("FAIL")) {
				line := bytes.Count(a.Data[:bytes.Index(a.Data, []byte("FAIL"))], []byte("\n")) + 1
				return nil, &transform.SourceError{File: a.Source, Line: line, Column: 1, Msg: "found FAIL"}
			}
			b := a.Clone()
			b.Data = bytes.ToUpper(a.Data)
			b.Path += o.Suffix
			return []*transform.Asset{b}, nil
		}), nil
	})
	transform.Register("test-mark", "1", "marks assets for hashing (tests only)", transform.Finishing, func(struct{}) (transform.Step, error) {
		return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
			testMarkRuns.Add(1)
			b := a.Clone()
			b.Hashed = true
			b.SetEncoding(transform.Encoding{Name: "gzip", Data: []byte("z" + string(a.Data[:min(3, len(a.Data))]))})
			return []*transform.Asset{b}, nil
		}), nil
	})
}

// writeSources writes files under a new temporary root.
func writeSources(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func jobsFor(t *testing.T, root string, steps ...string) []*Job {
	t.Helper()
	chain, err := transform.ParseChain(steps)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*Job
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			jobs = append(jobs, &Job{Path: filepath.ToSlash(rel), File: p, Chain: chain})
		}
		return nil
	})
	return jobs
}

// readTreeFiles returns every file under dir with its bytes.
func readTreeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := make(map[string]string)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var sampleSources = map[string]string{
	"a.txt":        "alpha\n",
	"dir/b.txt":    "bravo\n",
	"dir/sub/c.js": "charlie()\n",
	".well/d.json": "{}\n",
}

func TestPipelineWritesTreeAndManifest(t *testing.T) {
	root := writeSources(t, sampleSources)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper", "test-mark"))
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := res.WriteTree(out); err != nil || !changed {
		t.Fatalf("WriteTree = %v, %v", changed, err)
	}
	files := readTreeFiles(t, out)
	if files["dir/b.txt"] != "BRAVO\n" || files["dir/b.txt.gz"] != "zBRA" {
		t.Fatalf("tree has %q and %q", files["dir/b.txt"], files["dir/b.txt.gz"])
	}
	golden.Check(t, "pipeline/manifest.json", []byte(files["bakefs-manifest.json"]))
	if res.Stats.Files != 4 || res.Stats.Ran != 4 || res.Stats.BytesIn != 25 {
		t.Fatalf("stats = %+v", res.Stats)
	}
}

// TestPipelineDeterministic runs the same sources with shuffled job order
// and GOMAXPROCS 1 and 2: the trees must be byte-identical.
func TestPipelineDeterministic(t *testing.T) {
	root := writeSources(t, sampleSources)
	var trees []map[string]string
	for i, procs := range []int{1, 2, 1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		jobs := jobsFor(t, root, "test-upper", "test-mark")
		rand.New(rand.NewSource(int64(i))).Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
		res, err := (&Pipeline{Root: root}).Run(context.Background(), jobs)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		if _, err := res.WriteTree(out); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, readTreeFiles(t, out))
	}
	for i := 1; i < len(trees); i++ {
		if fmt.Sprint(trees[i]) != fmt.Sprint(trees[0]) {
			t.Fatalf("run %d differs from run 0", i)
		}
	}
}

func TestPipelineCache(t *testing.T) {
	root := writeSources(t, sampleSources)
	cache := &Cache{Dir: t.TempDir()}
	out := filepath.Join(t.TempDir(), "out")
	run := func() *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, root, "test-upper", "test-mark"))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := run()
	if _, err := first.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	before := testStepRuns.Load()
	second := run()
	if n := testStepRuns.Load() - before; n != 0 || second.Stats.Cached != 4 {
		t.Fatalf("second run executed %d steps, cached %d", n, second.Stats.Cached)
	}
	stamp := modTimes(t, out)
	if changed, err := second.WriteTree(out); err != nil || changed {
		t.Fatalf("second WriteTree = %v, %v; want unchanged", changed, err)
	}
	if after := modTimes(t, out); fmt.Sprint(after) != fmt.Sprint(stamp) {
		t.Fatal("an unchanged run touched the tree")
	}

	// One changed file re-runs one chain; the tree gets its bytes from the
	// cache for the others.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("ALPHA two\n"), 0o644)
	before = testStepRuns.Load()
	third := run()
	if n := testStepRuns.Load() - before; n != 1 || third.Stats.Cached != 3 {
		t.Fatalf("after one change: %d steps ran, %d cached", n, third.Stats.Cached)
	}
	if _, err := third.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	if got := readTreeFiles(t, out); got["a.txt"] != "ALPHA TWO\n" || got["dir/b.txt"] != "BRAVO\n" {
		t.Fatalf("tree after change: %q %q", got["a.txt"], got["dir/b.txt"])
	}

	// Different options are a different key.
	before = testStepRuns.Load()
	if _, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, root, "test-upper:suffix=.x")); err != nil {
		t.Fatal(err)
	}
	if n := testStepRuns.Load() - before; n != 4 {
		t.Fatalf("new options ran %d chains, want 4", n)
	}
}

func modTimes(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	times := make(map[string]int64)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			fi, _ := d.Info()
			times[p] = fi.ModTime().UnixNano()
		}
		return nil
	})
	return times
}

func TestPipelineErrorsKeepPreviousTree(t *testing.T) {
	root := writeSources(t, sampleSources)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	good := readTreeFiles(t, out)

	os.WriteFile(filepath.Join(root, "dir/b.txt"), []byte("ok\nsecond FAIL\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("FAIL\n"), 0o644)
	_, err = (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper"))
	want := "a.txt:1:1: error: found FAIL\ndir/b.txt:2:1: error: found FAIL"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want\n%s", err, want)
	}
	if got := readTreeFiles(t, out); fmt.Sprint(got) != fmt.Sprint(good) {
		t.Fatal("a failed run changed the previous tree")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Fatalf("leftovers beside the tree: %v", entries)
	}
}

func TestPipelineInputErrors(t *testing.T) {
	root := writeSources(t, map[string]string{"big.txt": strings.Repeat("x", 100), "dup.txt": "a"})
	chain, _ := transform.ParseChain([]string{"test-upper"})
	rename, _ := transform.ParseChain([]string{"test-upper:suffix=.txt"})
	tests := []struct {
		name string
		jobs []*Job
		p    Pipeline
		want string
		is   error
	}{
		{"missing file", []*Job{{Path: "gone.txt", File: filepath.Join(root, "gone.txt"), Chain: chain}}, Pipeline{}, "gone.txt: no such file or directory", os.ErrNotExist},
		{"too large", []*Job{{Path: "big.txt", File: filepath.Join(root, "big.txt"), Chain: chain}}, Pipeline{MaxInputSize: 10}, "big.txt: transform: input too large: 100 bytes, over the limit of 10", transform.ErrTooLarge},
		{"directory", []*Job{{Path: "d", File: root, Chain: chain}}, Pipeline{}, "d: not a regular file", nil},
		{"two sources one output", []*Job{
			{Path: "dup.txt", File: filepath.Join(root, "dup.txt"), Chain: chain},
			{Path: "dup", File: filepath.Join(root, "dup.txt"), Chain: rename},
		}, Pipeline{}, "dup.txt is produced by both dup.txt and dup", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.p.Run(context.Background(), tt.jobs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v is not %v", err, tt.is)
			}
		})
	}
}

// TestWriteTreeRepairsEditedFile: a file of the tree edited in place (a
// hard link of it appended to, a variant emptied) makes the next
// WriteTree write the tree again, with the bytes of the result, not the
// edited file's.
func TestWriteTreeRepairsEditedFile(t *testing.T) {
	root := writeSources(t, sampleSources)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper", "test-mark"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	want := readTreeFiles(t, out)
	f, err := os.OpenFile(filepath.Join(out, "dir", "b.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("edited\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(out, "dir", "b.txt.gz"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, err := res.WriteTree(out); err != nil || !changed {
		t.Fatalf("WriteTree over the edited tree = %v, %v; want a change", changed, err)
	}
	if got := readTreeFiles(t, out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the tree written again holds\n%q\nwant\n%q", got, want)
	}
}

func TestWriteTreeRefusesForeignDir(t *testing.T) {
	root := writeSources(t, sampleSources)
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(root); !errors.Is(err, ErrNotTree) {
		t.Fatalf("WriteTree into the sources = %v, want ErrNotTree", err)
	}
	if got := readTreeFiles(t, root); fmt.Sprint(got) != fmt.Sprint(sampleSources) {
		t.Fatal("sources were changed")
	}
}

// TestWriteTreeKeepsForeignFiles: a file put into a tree by hand is not
// deleted by the next tree written there, which is refused, naming it;
// CheckTree refuses a directory of other files before any work, and takes
// a tree, an empty directory or none.
func TestWriteTreeKeepsForeignFiles(t *testing.T) {
	root := writeSources(t, sampleSources)
	out := filepath.Join(t.TempDir(), "out")
	for _, dir := range []string{out, t.TempDir()} {
		if err := CheckTree(dir); err != nil {
			t.Fatalf("CheckTree(%s) = %v for a missing or empty directory", dir, err)
		}
	}
	res, err := (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	if err := CheckTree(out); err != nil {
		t.Fatalf("CheckTree of a tree: %v", err)
	}
	mine := filepath.Join(out, "dir", "mine.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = (&Pipeline{Root: root}).Run(context.Background(), jobsFor(t, root, "test-upper:suffix=.up"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(out); !errors.Is(err, ErrNotTree) || !strings.Contains(err.Error(), "holds dir/mine.txt") {
		t.Fatalf("WriteTree over a tree with a file of its own = %v, want ErrNotTree naming dir/mine.txt", err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine" {
		t.Fatalf("the file put into the tree is gone: %v", err)
	}
	if err := CheckTree(root); !errors.Is(err, ErrNotTree) || !strings.Contains(err.Error(), "remove it, or write the tree to another directory") {
		t.Fatalf("CheckTree of the sources = %v, want ErrNotTree saying how to proceed", err)
	}
}

func TestChainOrder(t *testing.T) {
	_, err := transform.ParseChain([]string{"test-mark", "test-upper"})
	if err == nil || !strings.Contains(err.Error(), "step 2: transform: bad option: test-upper changes the bytes, so it must come before test-mark") {
		t.Fatalf("error = %v", err)
	}
	_, err = transform.ParseChain([]string{"test-upper", "tset-upper"})
	if !errors.Is(err, transform.ErrUnknownStep) || !strings.Contains(err.Error(), `step 2: transform: unknown step "tset-upper" (did you mean "test-upper"?)`) {
		t.Fatalf("error = %v", err)
	}
}

// TestCacheFileIndex: files older than the racy window are remembered by
// size and time, and a new modification time makes them hashed again.
func TestCacheFileIndex(t *testing.T) {
	root := writeSources(t, sampleSources)
	old := time.Now().Add(-time.Hour)
	for name := range sampleSources {
		os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), old, old)
	}
	cache := &Cache{Dir: t.TempDir()}
	run := func() *Result {
		t.Helper()
		res, err := (&Pipeline{Root: root, Cache: cache}).Run(context.Background(), jobsFor(t, root, "test-upper"))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	run()
	// The sources, and the test binary when it is old enough (the key's
	// tool identity hashes it through the index).
	if index := readFileIndex(t, cache.files().file); len(index) < len(sampleSources) || len(index) > len(sampleSources)+1 {
		t.Fatalf("index = %v", index)
	}
	if res := run(); res.Stats.Cached != len(sampleSources) || res.Stats.BytesIn != 25 {
		t.Fatalf("second run: %+v", res.Stats)
	}
	a := filepath.Join(root, "a.txt")
	os.WriteFile(a, []byte("omega\n"), 0o644) // same size
	later := old.Add(time.Minute)
	os.Chtimes(a, later, later)
	before := testStepRuns.Load()
	if res := run(); res.Stats.Ran != 1 || testStepRuns.Load()-before != 1 {
		t.Fatalf("after a change: %+v", res.Stats)
	}
}
