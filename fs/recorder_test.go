package fs_test

import (
	"bytes"
	"net/http"
	"runtime"
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

// mallocsPerRun returns the average number of heap allocations of f over
// runs calls, as a fraction: unlike testing.AllocsPerRun, which rounds
// down, it shows an allocation made once every hundred calls.
func mallocsPerRun(runs int, f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f() // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(runs)
}
