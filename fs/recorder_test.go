package fs_test

import (
	"bytes"
	"net/http"
)

// recorder is a minimal http.ResponseWriter that reuses its header map, so
// that allocations measured around a handler are the handler's own.
type recorder struct {
	h       http.Header
	code    int
	body    bytes.Buffer
	discard bool // count bytes only
	n       int64
}

var _ http.ResponseWriter = (*recorder)(nil)

func newRecorder() *recorder { return &recorder{h: http.Header{}} }

func (r *recorder) Header() http.Header { return r.h }

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	r.n += int64(len(p))
	if !r.discard {
		r.body.Write(p)
	}
	return len(p), nil
}

func (r *recorder) reset() {
	clear(r.h)
	r.code = 0
	r.n = 0
	r.body.Reset()
}
