// Package nginxtest starts nginx on loopback as a Bazel HTTP remote cache
// (its WebDAV module: GET and PUT of /ac/<hash> and /cas/<hash>), with a
// temporary root, for tests that need a real server.
//
//	srv := nginxtest.Start(t) // skipped, or failed under CI, without nginx
//	... --remote-cache srv.URL ...
//	srv.Kill()                // the server dies mid-run
//
// nginx is looked for in $NGINX, then on PATH and in /usr/sbin;
// tools/nginx-setup.sh installs Debian's nginx-light.
package nginxtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Server is a running nginx.
type Server struct {
	URL  string // http://127.0.0.1:PORT, no final slash
	Root string // the directory served: Root/ac/<hash>, Root/cas/<hash>

	dir  string
	cmd  *exec.Cmd
	once sync.Once
	done chan struct{}
}

// Binary returns the nginx executable, or "" when there is none.
func Binary() string {
	if p := os.Getenv("NGINX"); p != "" {
		return p
	}
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// Start runs nginx as a WebDAV cache on a free loopback port and stops it
// when the test ends. Without nginx the test is skipped, or fails when the
// CI variable is set (CI must run it).
func Start(t testing.TB) *Server {
	t.Helper()
	if os.Getenv("TEST_TARGET") != "" {
		// Bazel's sandbox maps only root, so nginx cannot give its
		// temporary directories to its worker user; make test-go runs
		// these tests.
		t.Skip("nginx does not start in Bazel's sandbox; go test runs the remote-cache tests")
	}
	bin := need(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "cache")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return start(t, bin, dir, root, davServer)
}

// StartStatic runs nginx on a free loopback port serving the directory
// root with StaticServer, and stops it when the test ends; without nginx
// it skips or fails as Start does.
func StartStatic(t testing.TB, root string) *Server {
	t.Helper()
	return start(t, need(t), t.TempDir(), root, StaticServer)
}

// need returns the nginx executable; without one it skips the test, or
// fails it when the CI variable is set (CI must run it).
func need(t testing.TB) string {
	t.Helper()
	bin := Binary()
	if bin == "" {
		msg := "nginx not found (set $NGINX or run tools/nginx-setup.sh, which installs Debian's nginx-light)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// start runs nginx with the server block server (of a port and root).
func start(t testing.TB, bin, dir, root, server string) *Server {
	t.Helper()
	s := &Server{Root: root, dir: dir, done: make(chan struct{})}
	var lastErr string
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.start(bin, port, server); err != nil {
			lastErr = err.Error()
			continue // the port was taken between the probe and nginx
		}
		t.Cleanup(s.Kill)
		return s
	}
	t.Fatalf("nginx did not start: %s", lastErr)
	return nil
}

// config is the whole configuration: one process (so that Kill stops
// everything), logs and temporary files in the test's directory; its
// server block is davServer or StaticServer.
const config = `daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	client_max_body_size 0;
	include /etc/nginx/mime.types;
	%[2]s
}
`

// davServer is the server block of a remote cache (Start).
const davServer = `server {
		listen 127.0.0.1:%[1]d;
		root %[2]s;
		dav_methods PUT;
		create_full_put_path on;
	}`

// StaticServer is the server block that serves a bakefs output tree as
// a static site, the way the README advises: the tree's root at /,
// precompressed .gz siblings to clients that accept gzip, hashed names
// (app.3f2a1b9c0d.js) and the content names of esbuild's chunks and
// assets (chunk-7P6HTTJZ.js) cached for a year as immutable, every other
// file revalidated (no-cache). %[1]d is the port, %[2]s the tree.
const StaticServer = `map $uri $bakefs_cache_control {
		"~\.[0-9a-f]{10}\.[^/]+$" "public, max-age=31536000, immutable";
		"~-[A-Z2-7]{8}\.[^/]+$" "public, max-age=31536000, immutable";
		default "no-cache";
	}
	server {
		listen 127.0.0.1:%[1]d;
		root %[2]s;
		gzip_static on;
		gzip_vary on;
		add_header Cache-Control $bakefs_cache_control;
		location / {
			try_files $uri $uri/index.html =404;
		}
	}`

func (s *Server) start(bin string, port int, server string) error {
	conf := filepath.Join(s.dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(config, s.dir, fmt.Sprintf(server, port, s.Root))), 0o644); err != nil {
		return err
	}
	os.Remove(filepath.Join(s.dir, "error.log"))
	cmd := exec.Command(bin, "-c", conf, "-p", s.dir, "-e", filepath.Join(s.dir, "error.log"))
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; i < 200; i++ { // up to 10s
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "error.log"))
			return fmt.Errorf("nginx exited: %s", strings.TrimSpace(string(log)))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			s.cmd, s.done, s.URL = cmd, exited, "http://"+addr
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	<-exited
	return fmt.Errorf("nginx did not listen on %s within 10s", addr)
}

// Kill stops the server at once (SIGKILL) and waits for it to exit.
func (s *Server) Kill() {
	s.once.Do(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
}

// Files returns the hashes stored under kind ("ac" or "cas").
func (s *Server) Files(kind string) []string {
	entries, _ := os.ReadDir(filepath.Join(s.Root, kind))
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
