package dev

import (
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"net/http"
	"sync"
)

// Handler returns a handler that serves each request with the handler
// that newHandler makes from the current FS: the same code that serves
// the embedded FS in production, such as
//
//	func(f *fs.FS) (http.Handler, error) { return f.Handler(fs.WithPrefix("/static/")), nil }
//
// newHandler is called once per build, on the first request that build
// serves. Before the first successful build, requests get 503 Service
// Unavailable (Middleware answers them first with the errors). An error
// from newHandler is logged and answered with 500 and its text: the dev
// server runs on the developer's machine.
func (s *Server) Handler(newHandler func(*bakefs.FS) (http.Handler, error)) http.Handler {
	var (
		mu   sync.Mutex
		made *bakefs.FS
		h    http.Handler
		err  error
	)
	current := func(f *bakefs.FS) (http.Handler, error) {
		mu.Lock()
		defer mu.Unlock()
		if f != made {
			made = f
			h, err = newHandler(f)
			if err != nil {
				fmt.Fprintf(s.log, "bakefs dev: handler: %v\n", err)
			}
		}
		return h, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := s.FS()
		if f == nil {
			http.Error(w, ErrNoBuild.Error(), http.StatusServiceUnavailable)
			return
		}
		h, err := current(f)
		if err != nil {
			http.Error(w, "bakefs dev: "+err.Error(), http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	})
}
