package pipeline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/pipeline/remote"
	"github.com/bakefs/bakefs/pipeline/remote/remotetest"
)

// TestHTTPStoreFailuresKeepSecrets: failures (a status, a closed port, a
// server that does not answer) are errors that name the request and the
// server but neither the headers nor the URL's password, and a pipeline
// with such a store warns once and builds.
func TestHTTPStoreFailuresKeepSecrets(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	for _, tc := range []struct {
		name, url, want string
		srv             *remotetest.Server
	}{
		{name: "status 500", srv: remotetest.NewServer(t, http.StatusInternalServerError), want: "unexpected status 500 Internal Server Error"},
		{name: "status 401", srv: remotetest.NewServer(t, http.StatusUnauthorized), want: "unexpected status 401 Unauthorized"},
		{name: "no answer", srv: remotetest.NewServer(t, -1), want: "no answer within 200ms"},
		{name: "closed port", url: closedURL, want: "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.url
			if tc.srv != nil {
				base = tc.srv.URL
			}
			withUser := strings.Replace(base, "http://", "http://user:pa55word@", 1)
			h := http.Header{}
			h.Set("Authorization", "Bearer s3cret")
			store, err := remote.NewHTTPStore(withUser, remote.HTTPOptions{Header: h, Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if store.String() != base {
				t.Errorf("String() = %q, want %q", store.String(), base)
			}
			_, gerr := store.Get(context.Background(), remote.AC, strings.Repeat("0", 64))
			if gerr == nil || errors.Is(gerr, remote.ErrMiss) || !strings.Contains(gerr.Error(), tc.want) || !strings.Contains(gerr.Error(), "GET /ac/") {
				t.Fatalf("Get error %v; want GET /ac/… and %q", gerr, tc.want)
			}
			var w warnings
			r := NewRemoteCache(store, RemoteOptions{Name: store.String(), Warn: w.add})
			res, _ := remoteRun(t, writeSources(t, sampleSources), nil, r, Pipeline{}, "test-upper")
			r.Close(time.Minute)
			lines := w.all()
			if res.Stats.Ran != 4 || len(lines) != 1 || !strings.Contains(lines[0], base) || !strings.Contains(lines[0], tc.want) {
				t.Fatalf("stats %+v, warnings %q; want 4 ran and one warning naming %s", res.Stats, lines, base)
			}
			for _, text := range append(lines, gerr.Error()) {
				if strings.Contains(text, "s3cret") || strings.Contains(text, "pa55word") || strings.Contains(text, "user") {
					t.Errorf("a secret in %q", text)
				}
			}
			if tc.srv != nil {
				if reqs := tc.srv.Requests(); len(reqs) == 0 || !strings.HasSuffix(reqs[0], " Bearer s3cret") {
					t.Errorf("requests %q; want the header sent", reqs)
				}
			}
		})
	}
}

// TestHTTPStoreWithPipeline: the protocol end to end over httptest: the
// second root's jobs come from the server.
func TestHTTPStoreWithPipeline(t *testing.T) {
	srv := remotetest.NewServer(t, 0)
	store, err := remote.NewHTTPStore(srv.URL, remote.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	up := NewRemoteCache(store, RemoteOptions{})
	_, out1 := remoteRun(t, writeSources(t, sampleSources), nil, up, Pipeline{}, "test-upper", "test-mark")
	up.Close(time.Minute)
	down := NewRemoteCache(store, RemoteOptions{})
	res, out2 := remoteRun(t, writeSources(t, sampleSources), nil, down, Pipeline{}, "test-upper", "test-mark")
	down.Close(time.Minute)
	if res.Stats.Remote != 4 || !equalMaps(readTreeFiles(t, out1), readTreeFiles(t, out2)) {
		t.Fatalf("stats %+v; trees equal: %v", res.Stats, equalMaps(readTreeFiles(t, out1), readTreeFiles(t, out2)))
	}
}
