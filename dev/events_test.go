package dev

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// readState reads the next "state" event of a Server-Sent Events stream.
func readState(t *testing.T, r *bufio.Reader) state {
	t.Helper()
	event := ""
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the event stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "state":
			var st state
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &st); err != nil {
				t.Fatalf("bad event data %q: %v", line, err)
			}
			return st
		}
	}
}

func TestEvents(t *testing.T) {
	file := writeProject(t, testProject)
	msg := filepath.Join(filepath.Dir(file), "web", "msg.ts")
	s, _ := newTestServer(t, file, Options{})
	ts := httptest.NewServer(devHandler(s))
	defer ts.Close()
	// The deadline bounds a hang; nothing here measures time.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+ReservedPrefix+"events", nil)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	r := bufio.NewReader(res.Body)

	steps := []struct {
		name    string
		msgTS   string
		want    uint64
		wantErr string
	}{
		{"the current state first", "", 1, ""},
		{"a failed build", "export const msg = ;\n", 1, "msg.ts:1:20: error:"},
		{"a good build", "export const msg = \"ok\", filler = 1;\n", 2, ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.msgTS != "" {
				writeFile(t, msg, st.msgTS)
				s.Rebuild(ctx)
			}
			got := readState(t, r)
			if got.Generation != st.want || !strings.Contains(got.Error, st.wantErr) || (st.wantErr == "") != (got.Error == "") {
				t.Errorf("state %+v, want generation %d and error %q", got, st.want, st.wantErr)
			}
		})
	}
	s.Close()
	// The stream ends when the server closes; a hang ends at the deadline
	// with an error.
	if _, err := io.ReadAll(r); err != nil {
		t.Errorf("the event stream did not end when the server closed: %v", err)
	}
}

func TestRun(t *testing.T) {
	file := writeProject(t, testProject)
	root := filepath.Dir(file)
	s, log := newTestServer(t, file, Options{Quiet: 20 * time.Millisecond})
	states, ctx, stop := startRun(t, s)

	// waitFor waits for the state of generation gen, failing if the
	// deadline of ctx passes first.
	// waitFor waits for a build numbered gen or later whose app.js holds
	// inApp (when not empty): the writes of one step may reach the
	// watcher apart, each starting a build of its own.
	waitFor := func(t *testing.T, gen uint64, inApp string) {
		t.Helper()
		for {
			select {
			case st := <-states:
				if st.Error != "" {
					t.Fatalf("build failed: %s", st.Error)
				}
				if st.Generation >= gen && (inApp == "" || strings.Contains(readFile(t, s, "app.js"), inApp)) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no build %d with %s in app.js; log:\n%s", gen, inApp, log)
			}
		}
	}
	filler := strings.Repeat("bread and butter ", 40) // enough for a variant
	steps := []struct {
		name   string
		writes [][2]string // file relative to the project directory, text
		want   uint64
		inApp  string // in app.js afterwards
	}{
		{"an edited module", [][2]string{{"web/msg.ts", "export const msg = \"watched\", filler = \"" + filler + "\";\n"}}, 2, `"watched"`},
		// A file that no rule matches and nothing imports changes no
		// output, so the module is edited too, to see a build.
		{"a new directory", [][2]string{
			{"web/lib/extra.ts", "export const extra = \"first\";\n"},
			{"web/msg.ts", "export const msg = \"again\", filler = \"" + filler + "\";\n"},
		}, 3, `"again"`},
		{"importing from it", [][2]string{{"web/app.ts", "import { msg, filler } from \"./msg\";\nimport { extra } from \"./lib/extra\";\ndocument.title = msg + extra + filler;\n"}}, 4, `"first"`},
		{"a file in the new directory", [][2]string{{"web/lib/extra.ts", "export const extra = \"second\";\n"}}, 5, `"second"`},
		{"the project file", [][2]string{{"bakefs.toml", strings.Replace(testProject["bakefs.toml"], `compress = ["br"]`, `compress = ["gzip"]`, 1)}}, 6, ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			for _, w := range st.writes {
				writeFile(t, filepath.Join(root, w[0]), w[1])
			}
			waitFor(t, st.want, st.inApp)
		})
	}
	if e, ok := s.FS().Entry("app.js"); !ok || len(e.Encodings) != 1 || e.Encodings[0].Name != "gzip" {
		t.Errorf("after the project file changed, app.js encodings = %+v, want gzip only", e.Encodings)
	}
	if err := stop(); err != nil {
		t.Errorf("Run = %v", err)
	}
	if _, err := os.Stat(s.tmp); err != nil {
		t.Errorf("Run must leave the builds to Close: %v", err)
	}
}

// startRun runs s.Run until stop is called (or the test's two minutes are
// up, when ctx is done), waits until it watches the sources, and returns
// the states it publishes, the current one already read. stop ends Run
// and returns its error.
func startRun(t *testing.T, s *Server) (states <-chan state, ctx context.Context, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	select {
	case <-s.watching:
	case err := <-done:
		cancel()
		t.Fatalf("Run = %v", err)
	}
	states, unsubscribe := s.events.subscribe()
	t.Cleanup(unsubscribe)
	<-states // the current state
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { stop() })
	return states, ctx, stop
}
