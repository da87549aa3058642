package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is an output stream that the test reads while the server
// writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestDevServes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bakefs.toml"), "src = \"web\"\nout = \"build\"\ncompress = [\"gzip\"]\n[[rule]]\nmatch = [\"*.html\", \"*.css\"]\nsteps = [\"minify\"]\n")
	writeFile(t, filepath.Join(dir, "web", "index.html"), "<!doctype html>\n<title>t</title>\n<link rel=stylesheet href=style.css>\n<body>\n<p>dev   page</p>\n</body>\n")
	writeFile(t, filepath.Join(dir, "web", "style.css"), "body {\n  color: #123456;\n}\n")
	stderr := &lockedBuffer{}
	env := &environment{stdout: io.Discard, stderr: stderr}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveDev(ctx, env, []string{"-f", filepath.Join(dir, "bakefs.toml"), "-addr", "127.0.0.1:0"})
	}()
	serving := regexp.MustCompile(`bakefs dev: serving (http://\S+)`)
	var base string
	// The bound ends a hang; nothing here measures time.
	for deadline := time.Now().Add(time.Minute); base == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("bakefs dev ended: %v\n%s", err, stderr)
		default:
		}
		if m := serving.FindStringSubmatch(stderr.String()); m != nil {
			base = strings.TrimSuffix(m[1], "/")
		}
	}
	if base == "" {
		t.Fatalf("bakefs dev did not start:\n%s", stderr)
	}
	tests := []struct {
		name, path, accept string
		want               []string
	}{
		{"page with the reload script", "/", "text/html", []string{"<p>dev page</p>", `src="/_bakefs/dev/client.js"`}},
		{"stylesheet", "/style.css", "text/css", []string{"color:#123456"}},
		{"client script", "/_bakefs/dev/client.js", "*/*", []string{"EventSource"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", base+tt.path, nil)
			req.Header.Set("Accept", tt.accept)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("body lacks %q:\n%s", w, body)
				}
			}
		})
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("bakefs dev returned %v after interruption", err)
	}
}

func TestDevUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"relative prefix", []string{"-prefix", "static"}, `-prefix "static" must start with /`},
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"unknown flag", []string{"-frobnicate"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := serveDev(context.Background(), &environment{stdout: io.Discard, stderr: io.Discard}, tt.args)
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a usage error with %q", err, tt.want)
			}
		})
	}
}
