package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCache(t *testing.T) {
	c, err := newCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	defer srv.Close()

	blob := "the bytes of an action output"
	sum := sha256.Sum256([]byte(blob))
	casKey := hex.EncodeToString(sum[:])
	acKey := strings.Repeat("ab", 32)

	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	steps := []struct {
		name, method, path, body string
		code                     int
		want                     string
	}{
		{"miss", "GET", "/cas/" + casKey, "", 404, ""},
		{"put cas", "PUT", "/cas/" + casKey, blob, 200, ""},
		{"hit cas", "GET", "/cas/" + casKey, "", 200, blob},
		{"cas digest mismatch", "PUT", "/cas/" + strings.Repeat("0", 64), blob, 400, ""},
		{"put ac (no digest check)", "PUT", "/ac/" + acKey, "result", 200, ""},
		{"hit ac", "GET", "/ac/" + acKey, "", 200, "result"},
		{"bad kind", "GET", "/other/" + acKey, "", 404, ""},
		{"bad key", "GET", "/cas/../../etc/passwd", "", 404, ""},
		{"bad method", "DELETE", "/ac/" + acKey, "", 405, ""},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, body := do(s.method, s.path, s.body)
			if code != s.code {
				t.Fatalf("%s %s: %d, want %d", s.method, s.path, code, s.code)
			}
			if s.want != "" && body != s.want {
				t.Errorf("body = %q, want %q", body, s.want)
			}
		})
	}
	if gets, hits, puts := c.counts(); gets != 3 || hits != 2 || puts != 2 {
		t.Errorf("counts = %d gets, %d hits, %d puts; want 3, 2, 2", gets, hits, puts)
	}
}

func TestShardedLayout(t *testing.T) {
	dir := t.TempDir()
	c, err := newCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	k := strings.Repeat("cd", 32)
	if err := os.MkdirAll(filepath.Join(dir, "ac", "cd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ac", "cd", k), []byte("sharded"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	c.ServeHTTP(rec, httptest.NewRequest("GET", "/ac/"+k, nil))
	if rec.Code != 200 || rec.Body.String() != "sharded" {
		t.Errorf("GET of a sharded blob: %d %q", rec.Code, rec.Body.String())
	}
}

func TestRunRefusesNonLoopback(t *testing.T) {
	if err := run("0.0.0.0:0", t.TempDir(), t.TempDir()+"/port"); err == nil {
		t.Fatal("run accepted a non-loopback address")
	}
}
