package main

import (
	"bytes"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/consumer/assets"
)

// scriptTree is the output tree of //:script in the test's runfiles.
const scriptTree = "script"

// get serves path through the program's handler with Accept-Encoding enc.
func get(t *testing.T, path, enc string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if enc != "" {
		req.Header.Set("Accept-Encoding", enc)
	}
	rec := httptest.NewRecorder()
	newHandler().ServeHTTP(rec, req)
	return rec.Result()
}

func TestServesBrotli(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(scriptTree, "js", "app.js.br"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := assets.FS.ReadFile("js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"js/app.js", assets.Path("js/app.js")} {
		t.Run(name, func(t *testing.T) {
			resp := get(t, "/static/"+name, "gzip, br")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, body %q", resp.StatusCode, body)
			}
			if got := resp.Header.Get("Content-Encoding"); got != "br" {
				t.Fatalf("Content-Encoding = %q, want br", got)
			}
			if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("Vary = %q, want Accept-Encoding", resp.Header.Get("Vary"))
			}
			if !bytes.Equal(body, want) {
				t.Errorf("body is not the tree's js/app.js.br (%d bytes, want %d)", len(body), len(want))
			}
			if bytes.Equal(body, plain) || len(body) >= len(plain) {
				t.Errorf("br body (%d bytes) is not smaller than js/app.js (%d bytes)", len(body), len(plain))
			}
		})
	}
	resp := get(t, "/static/js/app.js", "")
	body, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, plain) {
		t.Errorf("without Accept-Encoding: Content-Encoding %q, %d bytes; want identity, %d bytes",
			resp.Header.Get("Content-Encoding"), len(body), len(plain))
	}
}

func TestBundle(t *testing.T) {
	if assets.Path("js/app.js") == "js/app.js" {
		t.Error(`Path("js/app.js") is not a hashed name`)
	}
	js, err := assets.FS.ReadFile("js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), "consumer") || strings.Contains(string(js), ": string") {
		t.Errorf("js/app.js is not the bundled, transpiled script: %q", js)
	}
	css, err := assets.FS.ReadFile("js/app.css")
	if err != nil {
		t.Fatalf("the imported stylesheet: %v", err)
	}
	if !strings.Contains(string(css), "system-ui") || strings.Contains(string(css), "\n  ") {
		t.Errorf("js/app.css is not the minified imported stylesheet: %q", css)
	}
}

func TestSrcset(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
	}{
		{"img/photo-48w.jpg", 48},
		{"img/photo-96w.jpg", 96},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := get(t, "/static/"+tc.name, "")
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			cfg, err := jpeg.DecodeConfig(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != tc.width {
				t.Errorf("width %d, want %d", cfg.Width, tc.width)
			}
		})
	}
	if _, err := assets.FS.ReadFile("img/photo.jpg"); err == nil {
		t.Error("img/photo.jpg is embedded; srcset drops the original")
	}
}
