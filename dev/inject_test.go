package dev

import (
	"bytes"
	bakefs "github.com/bakefs/bakefs/fs"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestInjectScript(t *testing.T) {
	tag := []byte("<script></script>")
	tests := []struct {
		name, page, want string
	}{
		{"before the end of body", "<p>a</p></body></html>", "<p>a</p><script></script></body></html>"},
		{"upper case", "<P>a</BODY></HTML>", "<P>a<script></script></BODY></HTML>"},
		{"the last of two", "<p></body></p></body>", "<p></body></p><script></script></body>"},
		{"appended without body end tag", "<!doctype html><p>a", "<!doctype html><p>a<script></script>"},
		{"empty page", "", "<script></script>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(injectScript([]byte(tt.page), tag)); got != tt.want {
				t.Errorf("injectScript(%q) = %q, want %q", tt.page, got, tt.want)
			}
		})
	}
}

// devHandler serves the test project's files at / with Middleware, as
// bakefs dev does.
func devHandler(s *Server) http.Handler {
	return s.Middleware(s.Handler(func(f *bakefs.FS) (http.Handler, error) {
		return f.Handler(bakefs.WithIndex("index.html")), nil
	}))
}

func TestMiddleware(t *testing.T) {
	s, _ := newTestServer(t, writeProject(t, testProject), Options{})
	h := devHandler(s)
	js := s.FS().Path("app.js")
	tests := []struct {
		name       string
		path       string
		header     map[string]string
		wantCode   int
		wantBody   []string // substrings
		wantNot    []string
		wantHeader map[string]string // "" means absent
	}{
		{
			name:     "page load gets the script, uncompressed and uncached",
			path:     "/",
			header:   map[string]string{"Accept": "text/html,*/*", "Accept-Encoding": "br"},
			wantCode: 200,
			wantBody: []string{"hello page", `<script src="/_bakefs/dev/client.js" data-generation="1"`},
			wantHeader: map[string]string{
				"Content-Encoding": "", "ETag": "", "Cache-Control": "no-store",
				"Content-Type": "text/html; charset=utf-8",
			},
		},
		{
			name:     "a revalidated page load still gets the page",
			path:     "/index.html",
			header:   map[string]string{"Accept": "text/html", "If-None-Match": "*"},
			wantCode: 200,
			wantBody: []string{"data-generation=\"1\""},
		},
		{
			name:       "a fetch of the page is passed through",
			path:       "/index.html",
			header:     map[string]string{"Accept": "*/*"},
			wantCode:   200,
			wantNot:    []string{"client.js"},
			wantHeader: map[string]string{"Cache-Control": "no-cache"},
		},
		{
			name:       "a script is passed through, precompressed",
			path:       "/" + js,
			header:     map[string]string{"Accept": "*/*", "Accept-Encoding": "br"},
			wantCode:   200,
			wantHeader: map[string]string{"Content-Encoding": "br", "Cache-Control": "public, max-age=31536000, immutable"},
		},
		{
			name:       "the client script",
			path:       "/_bakefs/dev/client.js",
			wantCode:   200,
			wantBody:   []string{"new EventSource", "location.reload()"},
			wantHeader: map[string]string{"Content-Type": "text/javascript; charset=utf-8"},
		},
		{
			name:     "other reserved paths",
			path:     "/_bakefs/dev/nothing",
			wantCode: 404,
		},
		{
			name:     "a missing file",
			path:     "/missing.js",
			header:   map[string]string{"Accept": "*/*"},
			wantCode: 404,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.wantCode {
				t.Fatalf("status %d, want %d; body %q", res.StatusCode, tt.wantCode, body)
			}
			for _, want := range tt.wantBody {
				if !strings.Contains(string(body), want) {
					t.Errorf("body lacks %q:\n%s", want, body)
				}
			}
			for _, not := range tt.wantNot {
				if strings.Contains(string(body), not) {
					t.Errorf("body has %q:\n%s", not, body)
				}
			}
			for k, want := range tt.wantHeader {
				if got := res.Header.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if cl := res.Header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s for %d bytes", cl, len(body))
			}
		})
	}
}

func TestMiddlewareNoBuild(t *testing.T) {
	files := map[string]string{}
	for k, v := range testProject {
		files[k] = v
	}
	files["web/msg.ts"] = "export const msg = <;\n"
	s, _ := newTestServer(t, writeProject(t, files), Options{})
	for _, path := range []string{"/", "/app.js"} {
		t.Run(path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			devHandler(s).ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
			body := rec.Body.String()
			if rec.Code != http.StatusServiceUnavailable {
				t.Errorf("status %d, want 503", rec.Code)
			}
			for _, want := range []string{"msg.ts:1:", "error:", `data-generation="0"`} {
				if !strings.Contains(body, want) {
					t.Errorf("body lacks %q:\n%s", want, body)
				}
			}
		})
	}
}

func FuzzInjectScript(f *testing.F) {
	f.Add([]byte("<!doctype html><body><p>a</p></body></html>"))
	f.Add([]byte("<p>no end tag"))
	f.Fuzz(func(t *testing.T, page []byte) {
		tag := scriptTag(7)
		out := injectScript(page, tag)
		if len(out) != len(page)+len(tag) {
			t.Fatalf("len %d, want %d", len(out), len(page)+len(tag))
		}
		i := bytes.Index(out, tag)
		if i < 0 {
			t.Fatal("tag missing")
		}
		if rest := append(append([]byte(nil), out[:i]...), out[i+len(tag):]...); !bytes.Equal(rest, page) {
			t.Fatal("page changed beyond the inserted tag")
		}
	})
}
