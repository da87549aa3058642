package fs_test

import (
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// benchJS returns about n bytes of deterministic JavaScript-like text.
func benchJS(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "export function f%d(a, b) { const k = %d; return (a * k + b) %% 9973; }\n", i, i*7919%10007)
	}
	return b.String()
}

// BenchmarkHandler serves a 400 KB script with "Accept-Encoding: br, gzip"
// from the bakefs handler (which sends the br variant) and, for
// comparison, from http.FileServer over the same tree in an fstest.MapFS
// (which sends the identity bytes: the variants are stored brotli, so both
// write about the same number of bytes). The ResponseWriter reuses its
// header map and discards the body, so allocations counted are the
// handlers'. Compare ns/op and allocs/op of the sub-benchmarks.
func BenchmarkHandler(b *testing.B) {
	js := benchJS(400 << 10)
	tree, m := buildTree([]treeFile{{path: "js/app.js", typ: typeJS, data: js, hashed: true, encodings: []string{"br", "gzip"}}})
	fsys, err := bakefs.New(tree, m)
	if err != nil {
		b.Fatal(err)
	}
	hashed := "/" + fsys.Path("js/app.js")
	run := func(b *testing.B, h http.Handler, path string, header map[string]string, wantCode int) {
		req := httptest.NewRequest("GET", path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := newRecorder()
		rec.discard = true
		h.ServeHTTP(rec, req)
		if rec.code != wantCode {
			b.Fatalf("status %d, want %d", rec.code, wantCode)
		}
		b.SetBytes(rec.n)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			rec.reset()
			h.ServeHTTP(rec, req)
		}
	}
	ae := map[string]string{"Accept-Encoding": "br, gzip"}
	b.Run("bakefs", func(b *testing.B) {
		run(b, fsys.Handler(), "/js/app.js", ae, 200)
	})
	b.Run("bakefs-hashed", func(b *testing.B) {
		run(b, fsys.Handler(), hashed, ae, 200)
	})
	b.Run("http.FileServer", func(b *testing.B) {
		run(b, http.FileServer(http.FS(tree)), "/js/app.js", ae, 200)
	})
	etag := `"` + m.Files[0].Encodings[0].SHA256[:20] + `-br"`
	b.Run("bakefs-304", func(b *testing.B) {
		run(b, fsys.Handler(), "/js/app.js", map[string]string{"Accept-Encoding": "br, gzip", "If-None-Match": etag}, 304)
	})
}

// BenchmarkWith measures what the hooks of With cost per call: each
// operation on the FS itself ("plain") and on fsys.With with an Allow that
// allows everything and an Observe that counts ("hooks"), so the
// difference is the hooks' own overhead. Compare the pairs of
// sub-benchmarks as ratios, for example with
//
//	go test -run - -bench With -count 6 ./fs | benchstat -col /fs -
func BenchmarkWith(b *testing.B) {
	fsys, _, m := newTestFS(b)
	var events atomic.Int64
	hooked := fsys.With(bakefs.Hooks{
		Allow:   func(name string) error { return nil },
		Observe: func(bakefs.Event) { events.Add(1) },
	})
	app := entryOf(b, m, "js/app.js")
	ops := []struct {
		name string
		run  func(b *testing.B, f *bakefs.FS)
	}{
		{"Open", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				file, err := f.Open("js/vendor/lib.js")
				if err != nil {
					b.Fatal(err)
				}
				file.Close()
			}
		}},
		{"ReadFile", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				if _, err := f.ReadFile("js/vendor/lib.js"); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"Stat", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				if _, err := f.Stat(app.Hashed); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"ReadDir", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				if _, err := f.ReadDir("."); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"Glob", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				if _, err := f.Glob("*/*.js"); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"GlobAll", func(b *testing.B, f *bakefs.FS) {
			for b.Loop() {
				if _, err := bakefs.GlobAll(f, "**/*.js"); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"Handler", func(b *testing.B, f *bakefs.FS) {
			h := f.Handler()
			req := httptest.NewRequest("GET", "/"+app.Hashed, nil)
			req.Header.Set("Accept-Encoding", "br, gzip")
			rec := newRecorder()
			rec.discard = true
			for b.Loop() {
				rec.reset()
				h.ServeHTTP(rec, req)
			}
			if rec.code != 200 {
				b.Fatalf("status %d", rec.code)
			}
		}},
	}
	for _, op := range ops {
		for _, v := range []struct {
			name string
			f    *bakefs.FS
		}{{"plain", fsys}, {"hooks", hooked}} {
			b.Run(op.name+"/fs="+v.name, func(b *testing.B) {
				b.ReportAllocs()
				op.run(b, v.f)
			})
		}
	}
}

// BenchmarkNew builds the FS of 1,200 files with two encodings each (3,600
// blobs), as a generated package does at init.
func BenchmarkNew(b *testing.B) {
	var files []treeFile
	for i := range 1200 {
		files = append(files, treeFile{
			path: fmt.Sprintf("d%d/f%04d.js", i%40, i), typ: "text/javascript; charset=utf-8",
			data: benchJS(200 + i%300), hashed: true, encodings: []string{"br", "gzip"},
		})
	}
	tree, m := buildTree(files)
	for _, c := range []struct {
		name string
		new  func(iofs.FS, *bakefs.Manifest) (*bakefs.FS, error)
	}{{"New", bakefs.New}, {"NewVerified", bakefs.NewVerified}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.new(tree, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
