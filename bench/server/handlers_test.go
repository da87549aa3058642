package main

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/pipeline"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// buildTree runs the real pipeline over one JavaScript file with the given
// finishing steps and returns the output tree.
func buildTree(t *testing.T, steps ...string) string {
	t.Helper()
	src := t.TempDir()
	js := []byte(strings.Repeat("export function f(a) { return a * 2 + 1; }\n", 400))
	file := filepath.Join(src, "app.js")
	if err := os.WriteFile(file, js, 0o644); err != nil {
		t.Fatal(err)
	}
	chain, err := transform.ParseChain(steps)
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Root: src, Profile: transform.Dev}
	res, err := p.Run(context.Background(), []*pipeline.Job{{Path: "js/app.js", File: file, Chain: chain}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "tree")
	if _, err := res.WriteTree(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestHandlers(t *testing.T) {
	dir := buildTree(t, "br", "gzip")
	tree := os.DirFS(dir)
	h, err := newHandlers(tree, "js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "js/app.js"))
	br, _ := os.ReadFile(filepath.Join(dir, "js/app.js.br"))
	if h.size != int64(len(raw)) || h.br != int64(len(br)) || h.gzip == 0 {
		t.Errorf("sizes %d/%d/%d, want %d/%d/>0", h.size, h.br, h.gzip, len(raw), len(br))
	}
	tests := []struct {
		name     string
		handler  http.Handler
		encoding string
		body     []byte
	}{
		{"bakefs sends br", h.bakefs, "br", br},
		{"file server sends identity", h.plain, "", raw},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/js/app.js", nil)
			req.Header.Set("Accept-Encoding", "br, gzip")
			rec := httptest.NewRecorder()
			tt.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.encoding)
			}
			if !bytes.Equal(rec.Body.Bytes(), tt.body) {
				t.Errorf("body of %d bytes, want %d", rec.Body.Len(), len(tt.body))
			}
		})
	}
}

func TestHandlersErrors(t *testing.T) {
	tests := []struct {
		name string
		tree string
		file string
		want error
	}{
		{"no manifest", t.TempDir(), "js/app.js", iofs.ErrNotExist},
		{"no such file", buildTree(t, "br"), "js/other.js", iofs.ErrNotExist},
		{"no br variant", buildTree(t, "gzip"), "js/app.js", errNoVariant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newHandlers(os.DirFS(tt.tree), tt.file)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8081", true},
		{"127.1.2.3:0", true},
		{"[::1]:80", true},
		{"localhost:9000", true},
		{"0.0.0.0:8081", false},
		{":8081", false},
		{"10.0.0.1:80", false},
		{"example.invalid:80", false},
		{"no-port", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if err := checkLoopback(tt.addr); (err == nil) != tt.ok {
				t.Errorf("checkLoopback(%q) = %v, want ok=%v", tt.addr, err, tt.ok)
			}
		})
	}
}

// TestServe starts both listeners on free loopback ports and stops them.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	go func() {
		done <- serve(ctx, map[string]http.Handler{"127.0.0.1:0": ok}, cancel)
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := serve(context.Background(), map[string]http.Handler{"0.0.0.0:0": ok}, func() {}); err == nil {
		t.Fatal("serve accepted a non-loopback address")
	}
}
