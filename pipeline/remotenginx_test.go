package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/internal/nginxtest"
	"github.com/bakefs/bakefs/pipeline/remote"
)

// TestRemoteCacheNginxKilledMidRun runs against a real nginx, which is
// killed in the middle of a run, once while the run uploads and once while
// it downloads: each run succeeds, warns once, and writes the tree a clean
// run writes.
func TestRemoteCacheNginxKilledMidRun(t *testing.T) {
	const n, killAt = 30, 10
	files := make(map[string]string)
	for i := range n {
		files[fmt.Sprintf("f/%02d.txt", i)] = fmt.Sprintf("file %d\n", i)
	}
	clean, err := (&Pipeline{}).Run(context.Background(), jobsFor(t, writeSources(t, files), "test-upper", "test-mark"))
	if err != nil {
		t.Fatal(err)
	}
	cleanDir := filepath.Join(t.TempDir(), "clean")
	if _, err := clean.WriteTree(cleanDir); err != nil {
		t.Fatal(err)
	}
	want := readTreeFiles(t, cleanDir)

	// run builds a new copy of the sources with an empty local cache and
	// one worker, killing the server after killAt jobs when kill is set.
	run := func(srv *nginxtest.Server, kill bool) (Stats, []string) {
		t.Helper()
		store, err := remote.NewHTTPStore(srv.URL, remote.HTTPOptions{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var w warnings
		r := NewRemoteCache(store, RemoteOptions{Name: store.String(), Warn: w.add})
		p := Pipeline{Workers: 1}
		if kill {
			p.Progress = func(pr Progress) {
				if pr.Done == killAt {
					srv.Kill()
				}
			}
		}
		res, out := remoteRun(t, writeSources(t, files), nil, r, p, "test-upper", "test-mark")
		r.Close(time.Minute)
		if got := readTreeFiles(t, out); !equalMaps(got, want) {
			t.Fatalf("tree differs from a clean one")
		}
		return res.Stats, w.all()
	}

	t.Run("while uploading", func(t *testing.T) {
		srv := nginxtest.Start(t)
		st, warns := run(srv, true)
		if st.Ran != n || len(warns) != 1 || !strings.Contains(warns[0], srv.URL) {
			t.Fatalf("stats %+v, warnings %q; want %d ran and one warning naming %s", st, warns, n, srv.URL)
		}
	})
	t.Run("while downloading", func(t *testing.T) {
		srv := nginxtest.Start(t)
		if st, warns := run(srv, false); st.Ran != n || len(warns) != 0 {
			t.Fatalf("filling the server: stats %+v, warnings %q", st, warns)
		}
		// One for each job and one for each output's finishing steps.
		if got := len(srv.Files("ac")); got != 2*n {
			t.Fatalf("the server holds %d action results, want %d", got, 2*n)
		}
		st, warns := run(srv, true)
		if st.Remote != killAt || st.Ran != n-killAt || len(warns) != 1 || !strings.Contains(warns[0], srv.URL) {
			t.Fatalf("stats %+v, warnings %q; want %d remote hits, %d ran, one warning", st, warns, killAt, n-killAt)
		}
	})
}
