package transform

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// davServer is an httptest server that keeps PUT bodies and answers GETs
// as a Bazel HTTP cache does, recording each request's method, path and
// Authorization header.
type davServer struct {
	*httptest.Server
	mu    sync.Mutex
	data  map[string][]byte
	log   []string // "METHOD path auth"
	block chan struct{}
}

func newDAVServer(t *testing.T, status int) *davServer {
	s := &davServer{data: make(map[string][]byte), block: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		s.mu.Unlock()
		switch {
		case status == -1: // hang until the client gives up
			select {
			case <-r.Context().Done():
			case <-s.block:
			}
			return
		case status != 0:
			http.Error(w, "Authorization: "+r.Header.Get("Authorization"), status)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		switch r.Method {
		case http.MethodPut:
			b, _ := io.ReadAll(r.Body)
			s.data[r.URL.Path] = b
			w.WriteHeader(http.StatusCreated)
		case http.MethodGet:
			b, ok := s.data[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(b)
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(func() { close(s.block); s.Close() })
	return s
}

func (s *davServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func TestHTTPStoreProtocol(t *testing.T) {
	srv := newDAVServer(t, 0)
	h := http.Header{}
	h.Set("Authorization", "Bearer s3cret")
	store, err := NewHTTPStore(srv.URL+"/prefix/", HTTPOptions{Header: h})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sum := SHA256Hex([]byte("bytes"))
	if _, err := store.Get(ctx, RemoteCAS, sum); !errors.Is(err, ErrRemoteMiss) {
		t.Fatalf("Get of a missing blob: %v, want ErrRemoteMiss", err)
	}
	if err := store.Put(ctx, RemoteCAS, sum, []byte("bytes")); err != nil {
		t.Fatal(err)
	}
	if got, err := store.Get(ctx, RemoteCAS, sum); err != nil || string(got) != "bytes" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	want := []string{
		"GET /prefix/cas/" + sum + " Bearer s3cret",
		"PUT /prefix/cas/" + sum + " Bearer s3cret",
		"GET /prefix/cas/" + sum + " Bearer s3cret",
	}
	if got := srv.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

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
		srv             *davServer
	}{
		{name: "status 500", srv: newDAVServer(t, http.StatusInternalServerError), want: "unexpected status 500 Internal Server Error"},
		{name: "status 401", srv: newDAVServer(t, http.StatusUnauthorized), want: "unexpected status 401 Unauthorized"},
		{name: "no answer", srv: newDAVServer(t, -1), want: "no answer within 200ms"},
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
			store, err := NewHTTPStore(withUser, HTTPOptions{Header: h, Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if store.String() != base {
				t.Errorf("String() = %q, want %q", store.String(), base)
			}
			_, gerr := store.Get(context.Background(), RemoteAC, strings.Repeat("0", 64))
			if gerr == nil || errors.Is(gerr, ErrRemoteMiss) || !strings.Contains(gerr.Error(), tc.want) || !strings.Contains(gerr.Error(), "GET /ac/") {
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
				if reqs := tc.srv.requests(); len(reqs) == 0 || !strings.HasSuffix(reqs[0], " Bearer s3cret") {
					t.Errorf("requests %q; want the header sent", reqs)
				}
			}
		})
	}
}

func TestNewHTTPStoreRefuses(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"grpc://cache:9092", "want an http:// or https:// URL"},
		{"cache.example.com", "want an http:// or https:// URL"},
		{"http:///ac", "no host"},
		{"http://cache/?x=1", "a query or fragment is not allowed"},
		{"http://u:secret@cache:port:x/", "bad remote cache URL"},
	} {
		_, err := NewHTTPStore(tc.url, HTTPOptions{})
		if !errors.Is(err, ErrRemoteURL) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("NewHTTPStore(%q) = %v; want ErrRemoteURL, %q and no password", tc.url, err, tc.want)
		}
	}
}

// TestHTTPStoreWithPipeline: the protocol end to end over httptest: the
// second root's jobs come from the server.
func TestHTTPStoreWithPipeline(t *testing.T) {
	srv := newDAVServer(t, 0)
	store, err := NewHTTPStore(srv.URL, HTTPOptions{})
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
