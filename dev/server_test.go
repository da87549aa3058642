package dev

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

// testProject is a small project: a TypeScript entry that imports a
// module, and a page.
var testProject = map[string]string{
	"bakefs.toml": `
src      = "web"
out      = "build"
cache    = ".cache"
compress = ["br"]
hash     = true

[[rule]]
match = "app.ts"
steps = ["bundle"]

[[rule]]
match = "index.html"
steps = ["minify"]
`,
	"web/app.ts":     "import { msg, filler } from \"./msg\";\ndocument.title = msg;\nconsole.log(filler);\n",
	"web/msg.ts":     "export const msg: string = \"one\";\nexport const filler = \"" + strings.Repeat("bread and butter ", 40) + "\";\n",
	"web/index.html": "<!doctype html>\n<html>\n<head><title>t</title></head>\n<body>\n  <p>hello   page</p>\n</body>\n</html>\n",
}

// writeProject writes files into a new temporary directory and returns the
// path of its project file.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	return filepath.Join(dir, "bakefs.toml")
}

func writeFile(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a log that tests read while the server writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestServer(t *testing.T, file string, opts Options) (*Server, *syncBuffer) {
	t.Helper()
	log := &syncBuffer{}
	opts.Log = log
	s, err := New(file, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}

func readFile(t *testing.T, s *Server, name string) string {
	t.Helper()
	f := s.FS()
	if f == nil {
		t.Fatalf("no FS: %v", s.Err())
	}
	b, err := f.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		wantMaps bool
	}{
		{"source maps added", Options{}, true},
		{"NoSourcemaps", Options{NoSourcemaps: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, log := newTestServer(t, writeProject(t, testProject), tt.opts)
			if err := s.Err(); err != nil {
				t.Fatalf("Err = %v", err)
			}
			if g := s.Generation(); g != 1 {
				t.Errorf("Generation = %d, want 1", g)
			}
			js := readFile(t, s, "app.js")
			if !strings.Contains(js, `"one"`) {
				t.Errorf("app.js does not hold the imported module:\n%s", js)
			}
			_, err := s.FS().Stat("app.js.map")
			if gotMap := err == nil; gotMap != tt.wantMaps {
				t.Errorf("app.js.map exists = %v, want %v (err %v)", gotMap, tt.wantMaps, err)
			}
			// With hash = true the link names the map's hashed name.
			mapName := "app.js.map"
			if tt.wantMaps {
				mapName = s.FS().Path("app.js.map")
			}
			if gotLink := strings.Contains(js, "sourceMappingURL="+mapName); gotLink != tt.wantMaps {
				t.Errorf("sourceMappingURL in app.js = %v, want %v", gotLink, tt.wantMaps)
			}
			if s.FS().Path("app.js") == "app.js" {
				t.Errorf("app.js has no hashed name: the project's hash = true was not applied")
			}
			if !strings.Contains(log.String(), "build 1:") {
				t.Errorf("log does not report build 1:\n%s", log)
			}
		})
	}
}

func TestNewMissingProject(t *testing.T) {
	_, err := New(filepath.Join(t.TempDir(), "nope.toml"), Options{})
	if !errors.Is(err, iofs.ErrNotExist) {
		t.Fatalf("New = %v, want ErrNotExist", err)
	}
}

func TestRebuild(t *testing.T) {
	file := writeProject(t, testProject)
	msg := filepath.Join(filepath.Dir(file), "web", "msg.ts")
	s, log := newTestServer(t, file, Options{})
	first := s.FS()

	steps := []struct {
		name    string
		msgTS   string // new text of web/msg.ts; "" leaves it
		wantGen uint64
		wantErr string // in Err and in the log; "" for success
		wantJS  string // in app.js as served
	}{
		{"unchanged keeps the build", "", 1, "", `"one"`},
		{"an edit makes build 2", "export const msg: string = \"two\";\nexport const filler = \"x\";\n", 2, "", `"two"`},
		{"a syntax error keeps build 2", "export const msg: string = ;\nexport const filler = \"x\";\n", 2, "msg.ts:1:28: error:", `"two"`},
		{"the fix makes build 3", "export const msg: string = \"three\";\nexport const filler = \"x\";\n", 3, "", `"three"`},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.msgTS != "" {
				writeFile(t, msg, st.msgTS)
			}
			err := s.Rebuild(context.Background())
			if st.wantErr == "" && err != nil {
				t.Fatalf("Rebuild = %v", err)
			}
			if st.wantErr != "" {
				if err == nil || !strings.Contains(errorText(s.Err(), filepath.Dir(msg)), st.wantErr) {
					t.Fatalf("Rebuild = %v, Err = %v, want %q", err, s.Err(), st.wantErr)
				}
				var se *transform.SourceError
				if !errors.As(err, &se) {
					t.Errorf("error %v holds no SourceError", err)
				}
				if !strings.Contains(log.String(), st.wantErr) {
					t.Errorf("log lacks %q:\n%s", st.wantErr, log)
				}
			} else if s.Err() != nil {
				t.Errorf("Err = %v after a good build", s.Err())
			}
			if g := s.Generation(); g != st.wantGen {
				t.Errorf("Generation = %d, want %d", g, st.wantGen)
			}
			if js := readFile(t, s, "app.js"); !strings.Contains(js, st.wantJS) {
				t.Errorf("app.js lacks %s:\n%s", st.wantJS, js)
			}
		})
	}
	if s.FS() == first {
		t.Error("the FS was not swapped")
	}
}

func TestRebuildProjectError(t *testing.T) {
	file := writeProject(t, testProject)
	s, _ := newTestServer(t, file, Options{})
	writeFile(t, file, "src = \"web\"\nout = \"build\"\n[[rule]]\nmatch = \"nothing-*.js\"\nsteps = [\"minify\"]\n")
	err := s.Rebuild(context.Background())
	if err == nil || !strings.Contains(err.Error(), "nothing-*.js") {
		t.Fatalf("Rebuild = %v, want an error naming the pattern", err)
	}
	if s.FS() == nil || s.Generation() != 1 {
		t.Errorf("a failed build must keep serving build 1; Generation = %d", s.Generation())
	}
}

func TestFirstBuildFails(t *testing.T) {
	files := map[string]string{}
	for k, v := range testProject {
		files[k] = v
	}
	files["web/msg.ts"] = "export const msg = ;\n"
	s, log := newTestServer(t, writeProject(t, files), Options{})
	if s.FS() != nil || s.Generation() != 0 || s.Err() == nil {
		t.Fatalf("FS = %v, Generation = %d, Err = %v; want nil, 0, an error", s.FS(), s.Generation(), s.Err())
	}
	if !strings.Contains(log.String(), "msg.ts:1:20: error:") {
		t.Errorf("log lacks the file:line:col line:\n%s", log)
	}
}

func TestClose(t *testing.T) {
	s, _ := newTestServer(t, writeProject(t, testProject), Options{})
	tmp := s.tmp
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("temporary directory left behind: %v", err)
	}
	if err := s.Rebuild(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Rebuild after Close = %v, want ErrClosed", err)
	}
}
