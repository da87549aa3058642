package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/transform"
)

// An explainBuild is how a test of Pipeline.Explain builds: the chain
// of every job under root/in, the tool identity and the profile.
type explainBuild struct {
	steps   []string
	tool    string
	profile transform.Profile
	cache   string // the cache directory
	bundle  string // when set, one job: this file under root with the bundle step
}

// newCache returns a Cache on b.cache whose tool identity is b.tool.
func (b *explainBuild) newCache() *Cache {
	cache := &Cache{Dir: b.cache}
	cache.identityOnce.Do(func() {
		cache.identity, cache.toolInfo = b.tool, "bakefs (devel)\ngo1.26.0\n"
	})
	return cache
}

// run builds root as b says, with a new Cache on b.cache as each bakefs
// build has, and returns the explanations as strings.
func (b *explainBuild) run(t *testing.T, root string) []string {
	t.Helper()
	cache := b.newCache()
	jobs := jobsFor(t, filepath.Join(root, "in"), b.steps...)
	if b.bundle != "" {
		chain, err := transform.ParseChain([]string{"bundle"})
		if err != nil {
			t.Fatal(err)
		}
		jobs = []*Job{{Path: b.bundle, File: filepath.Join(root, filepath.FromSlash(b.bundle)), Chain: chain}}
	}
	res, err := (&Pipeline{Root: root, Cache: cache, Profile: b.profile, Explain: true}).Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, e := range res.Explanations {
		got = append(got, e.String())
	}
	if len(got) != res.Stats.Ran {
		t.Errorf("%d explanations for %d jobs that ran: %q", len(got), res.Stats.Ran, got)
	}
	return got
}

// TestExplain: each change to what a job's cache key covers, or to what
// its entry depends on, is named in the explanation of the build after
// it; a build with nothing changed explains nothing, since nothing runs.
func TestExplain(t *testing.T) {
	aged := func(root, name, text string) {
		write(t, root, name, text)
		ageAll(t, root)
	}
	tests := []struct {
		name   string
		files  map[string]string
		build  explainBuild
		change func(root string, b *explainBuild)
		want   [][]string // the explanations of each build after the change
	}{
		{
			name:   "nothing changed",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(string, *explainBuild) {},
			want:   [][]string{{}},
		},
		{
			name:   "input edited",
			files:  map[string]string{"in/a.txt": "a", "in/b.txt": "b"},
			change: func(root string, _ *explainBuild) { aged(root, "in/a.txt", "A") },
			want:   [][]string{{"a.txt: input a.txt changed"}, {}},
		},
		{
			name:   "option changed",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) { b.steps = []string{"test-upper:suffix=.x"} },
			want:   [][]string{{"a.txt: option test-upper.suffix changed (default → .x)"}, {}},
		},
		{
			name:   "step added",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) { b.steps = []string{"test-upper", "test-mark"} },
			want:   [][]string{{"a.txt: steps changed (test-upper → test-upper | test-mark)"}, {}},
		},
		{
			name:   "tool changed",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) { b.tool = "tool-2" },
			want:   [][]string{{"a.txt: tool changed (bakefs build ID)"}, {}},
		},
		{
			name:   "profile changed",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) { b.profile = transform.Dev },
			want:   [][]string{{"a.txt: profile changed (release → dev)"}, {}},
		},
		{
			name:   "empty cache",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) { b.cache = filepath.Join(b.cache, "other") },
			want:   [][]string{{"a.txt: no earlier build of this job"}, {}},
		},
		{
			name:   "new job",
			files:  map[string]string{"in/a.txt": "a"},
			change: func(root string, _ *explainBuild) { aged(root, "in/b.txt", "b") },
			want:   [][]string{{"b.txt: no earlier build of this job"}, {}},
		},
		{
			name:  "cache entry evicted",
			files: map[string]string{"in/a.txt": "a"},
			change: func(_ string, b *explainBuild) {
				if _, err := (&Cache{Dir: b.cache}).Prune(0); err != nil {
					t.Fatal(err)
				}
			},
			want: [][]string{{"a.txt: cache entry evicted"}, {}},
		},
		{
			name:   "file a step read edited",
			files:  map[string]string{"in/a.txt": "a", "side.txt": "1"},
			build:  explainBuild{steps: []string{"test-side"}},
			change: func(root string, _ *explainBuild) { aged(root, "side.txt", "2") },
			want:   [][]string{{"a.txt: input side.txt changed"}, {}},
		},
		{
			// Written now, the file is racy: the run's result is not
			// cached, and the next build runs it again, saying why. Its
			// stamp is a whole second, which gives the 2 s window of a
			// coarse file system, so that the run is still within it on a
			// loaded machine (a fine-grained stamp is racy for 50 ms).
			name:  "racy file",
			files: map[string]string{"in/a.txt": "a", "side.txt": "1"},
			build: explainBuild{steps: []string{"test-side"}},
			change: func(root string, _ *explainBuild) {
				write(t, root, "side.txt", "2")
				second := time.Now().Truncate(time.Second)
				if err := os.Chtimes(filepath.Join(root, "side.txt"), second, second); err != nil {
					t.Fatal(err)
				}
			},
			want: [][]string{
				{"a.txt: input side.txt changed; not cached: input side.txt was modified too recently (racy)"},
				{"a.txt: input side.txt was modified during the last run (racy)"},
			},
		},
		{
			name:  "file edited while the step ran",
			files: map[string]string{"in/a.txt": "a", "side.txt": "1"},
			build: explainBuild{steps: []string{"test-side"}},
			change: func(root string, _ *explainBuild) {
				aged(root, "in/a.txt", "A")
				text := "2"
				sideRewrite.Store(&text)
			},
			want: [][]string{{"a.txt: input a.txt changed; input side.txt changed while it ran, so it ran again; " +
				"not cached: input side.txt was modified too recently (racy)"}},
		},
		{
			name:  "file added to a directory a bundle lists",
			files: map[string]string{"app.ts": "import {u} from './lib/util'\nexport const x = u\n", "lib/util.js": "export const u = 1\n"},
			build: explainBuild{bundle: "app.ts"},
			change: func(root string, _ *explainBuild) {
				aged(root, "lib/util.ts", "export const u: number = 2\n")
			},
			want: [][]string{{"app.ts: directory listing lib changed"}, {}},
		},
		{
			name:  "file a bundle imports edited",
			files: map[string]string{"app.ts": "import {u} from './lib/util'\nexport const x = u\n", "lib/util.js": "export const u = 1\n"},
			build: explainBuild{bundle: "app.ts"},
			change: func(root string, _ *explainBuild) {
				aged(root, "lib/util.js", "export const u = 2\n")
			},
			want: [][]string{{"app.ts: input lib/util.js changed"}, {}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeSources(t, tc.files)
			ageAll(t, root)
			b := tc.build
			if b.steps == nil {
				b.steps = []string{"test-upper"}
			}
			b.tool, b.cache = "tool-1", t.TempDir()
			first := b.run(t, root)
			if len(first) == 0 || !strings.HasSuffix(first[0], ": no earlier build of this job") {
				t.Fatalf("first build: %q, want no earlier build", first)
			}
			tc.change(root, &b)
			for i, want := range tc.want {
				if got := b.run(t, root); !slices.Equal(got, want) {
					t.Errorf("build %d after the change:\n got %q\nwant %q", i+1, got, want)
				}
				ageAll(t, root)
			}
		})
	}
}

// TestExplainLastRunFailed: a job whose last run failed, run again with
// the same key, says so.
func TestExplainLastRunFailed(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a"})
	ageAll(t, root)
	b := explainBuild{steps: []string{"test-side"}, tool: "tool-1", cache: t.TempDir()}
	_, err := (&Pipeline{Root: root, Cache: b.newCache()}).Run(context.Background(), jobsFor(t, filepath.Join(root, "in"), b.steps...))
	if err == nil {
		t.Fatal("test-side without side.txt did not fail")
	}
	write(t, root, "side.txt", "1")
	ageAll(t, root)
	if got, want := b.run(t, root), []string{"a.txt: its last run failed"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestExplainCostsNoWrite: a build with nothing changed reads and writes
// no job record, and one without Explain keeps the records that a later
// explanation needs.
func TestExplainCostsNoWrite(t *testing.T) {
	root := writeSources(t, map[string]string{"in/a.txt": "a"})
	ageAll(t, root)
	dir := t.TempDir()
	build := func(explain bool) {
		t.Helper()
		p := &Pipeline{Root: root, Cache: &Cache{Dir: dir}, Explain: explain}
		if _, err := p.Run(context.Background(), jobsFor(t, filepath.Join(root, "in"), "test-upper")); err != nil {
			t.Fatal(err)
		}
	}
	build(false)
	records, _ := filepath.Glob(filepath.Join(dir, "index", "*.jobs"))
	if len(records) != 1 {
		t.Fatalf("job records: %q", records)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(records[0], old, old)
	build(false)
	if fi, err := os.Stat(records[0]); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("a build with nothing changed wrote the job records (%v)", err)
	}
	write(t, root, "in/a.txt", "b")
	ageAll(t, root)
	cache := &Cache{Dir: dir}
	res, err := (&Pipeline{Root: root, Cache: cache, Explain: true}).Run(context.Background(), jobsFor(t, filepath.Join(root, "in"), "test-upper"))
	if err != nil || len(res.Explanations) != 1 || res.Explanations[0].String() != "a.txt: input a.txt changed" {
		t.Fatalf("%v, %+v", err, res)
	}
}

// TestCanonicalOptions: the options of a canonical step text, quoted
// values and lists included; a text it cannot read is not ok.
func TestCanonicalOptions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want map[string]string
		ok   bool
	}{
		{"minify", map[string]string{}, true},
		{"bundle:external=a,external=b,format=esm", map[string]string{"external": "a+b", "format": "esm"}, true},
		{`minify:banner="/* a, b */",target=es2017`, map[string]string{"banner": "/* a, b */", "target": "es2017"}, true},
		{`minify:banner="unterminated`, nil, false},
		{"minify:target", nil, false},
	} {
		opts, ok := canonicalOptions(tc.text)
		if ok != tc.ok {
			t.Errorf("%q: ok %v", tc.text, ok)
			continue
		}
		for k, v := range tc.want {
			if got := opts.value(k); got != v {
				t.Errorf("%q: %s = %q, want %q", tc.text, k, got, v)
			}
		}
		if ok && len(opts.keys) != len(tc.want) {
			t.Errorf("%q: keys %q", tc.text, opts.keys)
		}
	}
}

// TestToolChange: a module's new version is named; the same versions
// mean a new executable.
func TestToolChange(t *testing.T) {
	old := "bakefs (devel)\ngo1.26.0\ngithub.com/evanw/esbuild v0.28.1\n"
	for _, tc := range []struct{ cur, want string }{
		{old, "bakefs build ID"},
		{"bakefs (devel)\ngo1.26.0\ngithub.com/evanw/esbuild v0.28.2\n", "github.com/evanw/esbuild v0.28.1 → v0.28.2"},
		{"bakefs v1.0.0\ngo1.26.1\ngithub.com/evanw/esbuild v0.28.1\n", "bakefs (devel) → v1.0.0, go go1.26.0 → go1.26.1"},
	} {
		if got := toolChange(old, tc.cur); got != tc.want {
			t.Errorf("toolChange(…, %q) = %q, want %q", tc.cur, got, tc.want)
		}
	}
}

// TestExplainRemote: a job that neither cache answers says so; one the
// remote cache answers does not run, and explains nothing.
func TestExplainRemote(t *testing.T) {
	store := newMemStore()
	root := writeSources(t, map[string]string{"a.txt": "a"})
	ageAll(t, root)
	for i, want := range [][]string{{"a.txt: no earlier build of this job; not in the remote cache"}, nil} {
		r := NewRemoteCache(store, RemoteOptions{Name: "mem"})
		res, _ := remoteRun(t, root, nil, r, Pipeline{Explain: true}, "test-upper")
		r.Close(time.Minute)
		var got []string
		for _, e := range res.Explanations {
			got = append(got, e.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("build %d: %q, want %q", i+1, got, want)
		}
	}
}
