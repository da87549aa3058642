//go:build !bakefs_dev

package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/examples/webapp/internal/assets"
)

// TestApp serves the pages and files of the embedded build (make assets
// writes it) without a browser; tests/browser loads them in one.
func TestApp(t *testing.T) {
	h, err := newApp(embedded{})
	if err != nil {
		t.Fatal(err)
	}
	// served is the URL of a file of static/: its hashed name.
	served := func(name string) string {
		return "/static/" + strings.TrimPrefix(assets.Path("static/"+name), "static/")
	}
	// cssURL is the url() by which css/app.css names a file of static/.
	cssURL := func(rel, name string) string {
		return regexp.QuoteMeta("url(" + path.Join(rel, path.Base(served(name))) + ")")
	}
	script, sheet := served("js/app.js"), served("css/app.css")
	tests := []struct {
		name, path, acceptEncoding string
		wantCode                   int
		wantHeader                 map[string]string
		wantBody                   []string // regular expressions
	}{
		{
			name: "index", path: "/", wantCode: 200,
			wantHeader: map[string]string{"Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": contentSecurityPolicy},
			wantBody: []string{
				`<script type="module" src="/static/js/app\.[0-9a-f]{10}\.js" integrity="sha384-`,
				`<link rel="stylesheet" href="/static/css/app\.[0-9a-f]{10}\.css" integrity="sha384-`,
				`<picture><source type="image/avif" srcset="/static/img/lake-480w\.[0-9a-f]{10}\.avif 480w, /static/img/lake-960w\.[0-9a-f]{10}\.avif 960w" sizes="\(min-width: 68rem\) 60rem, calc\(100vw - 4rem\)">`,
				`<source type="image/webp" srcset="/static/img/lake-480w\.[0-9a-f]{10}\.webp 480w, /static/img/lake-960w\.[0-9a-f]{10}\.webp 960w"`,
				`<img src="/static/img/lake-960w\.[0-9a-f]{10}\.jpg" srcset="/static/img/lake-480w\.[0-9a-f]{10}\.jpg 480w, /static/img/lake-960w\.[0-9a-f]{10}\.jpg 960w" sizes="[^"]*" width="960" height="640" alt="A lake at sunset[^"]*" loading="eager" decoding="async" fetchpriority="high"></picture>`,
				`data-bakes="/static/data/bakes\.[0-9a-f]{10}\.json"`,
				`embedded in the binary with //go:embed`,
			},
		},
		{
			name: "about lists the files", path: "/about", wantCode: 200,
			wantBody: []string{`<td>js/app\.js</td>`, `br \d+, gzip \d+, zstd \d+`},
		},
		{
			name: "fingerprinted script", path: script, acceptEncoding: "gzip, br", wantCode: 200,
			wantHeader: map[string]string{"Content-Encoding": "br", "Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"},
		},
		{
			name: "style sheet names the font and images by their hashed names", path: sheet, wantCode: 200,
			wantHeader: map[string]string{"Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable"},
			wantBody: []string{
				cssURL("../fonts", "fonts/dejavu-serif-bold.woff2"),
				cssURL("art", "css/art/crumb.png"),
				cssURL("art", "css/art/grain.svg"),
			},
		},
		{
			name: "font by its hashed name", path: served("fonts/dejavu-serif-bold.woff2"), wantCode: 200,
			wantHeader: map[string]string{"Content-Type": "font/woff2", "Cache-Control": "public, max-age=31536000, immutable"},
		},
		{
			name: "script by its logical name", path: "/static/js/app.js", wantCode: 200,
			wantHeader: map[string]string{"Content-Encoding": "", "Cache-Control": "no-cache"},
		},
		{name: "templates are not served", path: "/static/templates/index.html", wantCode: 404},
		{name: "nor above static", path: "/templates/index.html", wantCode: 404},
		{name: "sources are not embedded", path: "/static/js/app.ts", wantCode: 404},
		{name: "health", path: "/healthz", wantCode: 200, wantBody: []string{`^ok\n$`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.wantCode {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantCode)
			}
			for k, v := range tt.wantHeader {
				if got := res.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, re := range tt.wantBody {
				if !regexp.MustCompile(re).Match(body) {
					t.Errorf("body does not match %s:\n%s", re, body)
				}
			}
		})
	}
	post := httptest.NewRecorder()
	h.ServeHTTP(post, httptest.NewRequest("POST", "/", nil))
	if post.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", post.Code)
	}
}
