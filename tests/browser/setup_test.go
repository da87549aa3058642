package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bakefs "github.com/bakefs/bakefs/fs"
)

// The test builds everything it runs from the sources, once per process,
// into one temporary directory, and never writes into the repository:
//
//	bakefs           the CLI, go build ./cmd/bakefs
//	webapp/          a copy of examples/webapp's project file and web/,
//	                 built there with bakefs build (build/assets, internal/assets)
//	webapp-prod      go build ./examples/webapp, with the generated package
//	                 put in place by go build -overlay
//	webapp-dev       go build -tags bakefs_dev ./examples/webapp
type fixture struct {
	dir      string
	root     string // repository root
	bakefs   string
	project  string // the copied project file
	prod     string
	devBin   string
	manifest *bakefs.Manifest
	timings  []string
}

var (
	fixtureMu sync.Mutex
	shared    = &fixture{}
	built     = make(map[string]error) // what the fixture has built, and how it went
)

// TestMain removes the fixture's directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// setup returns the shared fixture with the given parts built ("prod",
// "dev"), building each on first use. The prod part needs the CLI and the
// example's assets, which it builds first.
func setup(t *testing.T, parts ...string) *fixture {
	t.Helper()
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	f := shared
	if f.dir == "" {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		dir, err := os.MkdirTemp("", "bakefs-browser-")
		if err != nil {
			t.Fatal(err)
		}
		f.dir, f.root = dir, root
	}
	for _, part := range parts {
		err, done := built[part]
		if !done {
			err = f.build(part)
			built[part] = err
		}
		if err != nil {
			t.Fatalf("building the example (%s): %v", part, err)
		}
	}
	return f
}

// build builds one part of the fixture.
func (f *fixture) build(part string) error {
	step := func(what string, run func() error) error {
		start := time.Now()
		if err := run(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		f.timings = append(f.timings, fmt.Sprintf("%s: %s", what, time.Since(start).Round(time.Millisecond)))
		return nil
	}
	switch part {
	case "dev":
		f.devBin = filepath.Join(f.dir, "webapp-dev")
		return step("go build -tags bakefs_dev ./examples/webapp", func() error {
			return f.goCmd("build", "-tags", "bakefs_dev", "-o", f.devBin, "./examples/webapp")
		})
	case "prod":
	default:
		return fmt.Errorf("unknown part %q", part)
	}
	f.bakefs = filepath.Join(f.dir, "bakefs")
	if err := step("go build ./cmd/bakefs", func() error {
		return f.goCmd("build", "-o", f.bakefs, "./cmd/bakefs")
	}); err != nil {
		return err
	}
	example := filepath.Join(f.dir, "webapp")
	f.project = filepath.Join(example, "bakefs.toml")
	if err := copyExample(filepath.Join(f.root, "examples", "webapp"), example); err != nil {
		return err
	}
	if err := step("bakefs build -f examples/webapp/bakefs.toml (a copy, cold cache)", func() error {
		return run(f.root, nil, f.bakefs, "build", "-f", f.project)
	}); err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(example, "build", "assets", bakefs.ManifestName))
	if err != nil {
		return err
	}
	if f.manifest, err = bakefs.ParseManifest(raw); err != nil {
		return err
	}
	overlay, err := writeOverlay(filepath.Join(example, "internal", "assets"), filepath.Join(f.root, "examples", "webapp", "internal", "assets"), filepath.Join(f.dir, "overlay.json"))
	if err != nil {
		return err
	}
	f.prod = filepath.Join(f.dir, "webapp-prod")
	return step("go build ./examples/webapp (generated package by -overlay)", func() error {
		return f.goCmd("build", "-overlay", overlay, "-o", f.prod, "./examples/webapp")
	})
}

// goCmd runs the go command in the repository root.
func (f *fixture) goCmd(args ...string) error {
	return run(f.root, nil, goBin(), args...)
}

// goBin returns the go command: the one on PATH, or the one of GOROOT.
func goBin() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(os.Getenv("GOROOT"), "bin", "go")
}

// run runs a command in dir and returns an error with its output when it
// fails.
func run(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return nil
}

// copyExample copies the example's project file and sources: what bakefs
// build reads.
func copyExample(from, to string) error {
	if err := copyFile(filepath.Join(from, "bakefs.toml"), filepath.Join(to, "bakefs.toml")); err != nil {
		return err
	}
	web := filepath.Join(from, "web")
	return filepath.WalkDir(web, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		return copyFile(p, filepath.Join(to, rel))
	})
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// writeOverlay writes a go build -overlay file that puts every file of the
// generated package pkg at the same place under target, where the example
// imports it from.
func writeOverlay(pkg, target, file string) (string, error) {
	replace := make(map[string]string)
	err := filepath.WalkDir(pkg, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(pkg, p)
		if err != nil {
			return err
		}
		replace[filepath.Join(target, rel)] = p
		return nil
	})
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	return file, os.WriteFile(file, data, 0o644)
}

// A server is a running example binary.
type server struct {
	URL    string // http://127.0.0.1:PORT or https://…
	cmd    *exec.Cmd
	stderr *lockedBuffer
	done   chan error
}

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

// startServer runs bin with args and a free loopback port, and waits for
// the line that tells its URL. The server is stopped with SIGINT at the end
// of the test, which checks that it shuts down cleanly.
func startServer(t *testing.T, dir, bin string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	s := &server{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = s.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%s printed no address; stderr:\n%s", bin, s.stderr)
	}
	first := lines.Text()
	go io.Copy(io.Discard, stdout)
	go func() { s.done <- cmd.Wait() }()
	// "webapp: serving http://127.0.0.1:PORT/ (mode)"
	fields := strings.Fields(first)
	if len(fields) < 3 || !strings.Contains(fields[2], "://") {
		t.Fatalf("unexpected first line %q", first)
	}
	s.URL = strings.TrimSuffix(fields[2], "/")
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop interrupts the server and checks that it exits with status 0.
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGINT)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("server did not shut down cleanly: %v\nstderr:\n%s", err, s.stderr)
		}
	case <-ctx.Done():
		s.cmd.Process.Kill()
		<-s.done
		t.Errorf("server did not stop within 30s of SIGINT; stderr:\n%s", s.stderr)
	}
}

// artifacts returns the directory for screenshots: $BAKEFS_ARTIFACTS, or
// artifacts/ beside this file.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("BAKEFS_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	return abs
}
