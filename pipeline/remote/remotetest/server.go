// Package remotetest provides a remote cache server for tests of the
// remote cache's clients, as net/http/httptest does for HTTP clients.
package remotetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// A Server is an httptest server that keeps PUT bodies and answers GETs
// as a Bazel HTTP cache does, recording each request's method, path and
// Authorization header.
type Server struct {
	*httptest.Server
	mu    sync.Mutex
	data  map[string][]byte
	log   []string // "METHOD path auth"
	block chan struct{}
}

// NewServer starts a Server, closed when the test ends. A status of 0
// serves the cache; -1 answers no request until the client gives up; any
// other status answers every request with it.
func NewServer(t testing.TB, status int) *Server {
	s := &Server{data: make(map[string][]byte), block: make(chan struct{})}
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

// Requests returns the requests so far, each "METHOD path Authorization".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}
