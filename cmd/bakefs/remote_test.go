package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/nginxtest"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cloneExample copies the example web application's sources and project
// file into a new directory, as a second checkout at another path would
// have them, and returns the project file. The sources are dated an hour
// back: a result whose dependencies changed within two seconds of its run
// is not cached, locally or remotely.
func cloneExample(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	from := filepath.Join("..", "..", "examples", "webapp")
	if _, err := os.Stat(from); err != nil && os.Getenv("TEST_TARGET") != "" {
		t.Skip("needs the repository's examples/webapp, which Bazel's sandbox does not hold; go test runs it")
	}
	err := filepath.WalkDir(filepath.Join(from, "web"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	toml, err := os.ReadFile(filepath.Join(from, "bakefs.toml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "bakefs.toml")
	writeFile(t, file, extra+string(toml))
	return file
}

var summaryCounts = regexp.MustCompile(`(\d+) ran, (\d+) cached(?: \((\d+) remote\))?, `)

// counts returns the ran, cached and remote counts of a build's summary;
// remote is -1 when the summary has none.
func counts(t *testing.T, stderr string) (ran, cached, remote int) {
	t.Helper()
	m := summaryCounts.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary in:\n%s", stderr)
	}
	ran, _ = strconv.Atoi(m[1])
	cached, _ = strconv.Atoi(m[2])
	remote = -1
	if m[3] != "" {
		remote, _ = strconv.Atoi(m[3])
	}
	return ran, cached, remote
}

// buildOK runs bakefs build and fails the test unless it exits 0.
func buildOK(t *testing.T, args ...string) string {
	t.Helper()
	code, _, stderr := runCLI(t, append([]string{"build"}, args...)...)
	if code != 0 {
		t.Fatalf("bakefs build %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stderr
}

// outputsOf returns every file of a project's output tree and Go package,
// by path relative to the project's directory.
func outputsOf(t *testing.T, project string) map[string]string {
	t.Helper()
	dir := filepath.Dir(project)
	files := make(map[string]string)
	for _, sub := range []string{"build/assets", "internal/assets"} {
		err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

func sameOutputs(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := outputsOf(t, a), outputsOf(t, b)
	if len(fa) == 0 || len(fa) != len(fb) {
		t.Fatalf("%d files against %d", len(fa), len(fb))
	}
	for name, data := range fa {
		if fb[name] != data {
			t.Fatalf("%s differs between the clones", name)
		}
	}
}

// TestRemoteCacheNginx builds the example application in clones at
// different paths against a real nginx.
func TestRemoteCacheNginx(t *testing.T) {
	srv := nginxtest.Start(t)
	first := cloneExample(t, "")
	stderr := buildOK(t, "-f", first, "--remote-cache", srv.URL)
	jobs, _, remote := counts(t, stderr)
	if remote != 0 || strings.Contains(stderr, "warning") {
		t.Fatalf("first build:\n%s", stderr)
	}
	// One action result for each job, and one for the finishing steps
	// (compression) of each output that has them.
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(first), "build", "assets", bakefs.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bakefs.ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Files("ac")); n <= jobs || n > jobs+len(m.Files) {
		t.Fatalf("the server holds %d action results after %d jobs ran, which made %d files", n, jobs, len(m.Files))
	}

	t.Run("second clone runs nothing", func(t *testing.T) {
		second := cloneExample(t, "")
		stderr := buildOK(t, "-f", second, "--remote-cache", srv.URL)
		if ran, cached, remote := counts(t, stderr); ran != 0 || cached != jobs || remote != jobs {
			t.Fatalf("second clone: %d ran, %d cached, %d remote; want 0, %d, %d\n%s", ran, cached, remote, jobs, jobs, stderr)
		}
		sameOutputs(t, first, second)
		// The hits went into the local cache: no server needed now.
		srvless := buildOK(t, "-f", second, "--remote-cache=")
		if ran, _, remote := counts(t, srvless); ran != 0 || remote != -1 {
			t.Fatalf("again without the remote cache:\n%s", srvless)
		}
	})

	t.Run("damaged blob is rebuilt", func(t *testing.T) {
		css, err := os.ReadFile(filepath.Join(filepath.Dir(first), "build/assets/static/css/print.css"))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(css)
		blob := filepath.Join(srv.Root, "cas", hex.EncodeToString(sum[:]))
		if err := os.WriteFile(blob, append([]byte("/* damaged */"), css...), 0o644); err != nil {
			t.Fatal(err)
		}
		third := cloneExample(t, "")
		stderr := buildOK(t, "-f", third, "--remote-cache", srv.URL)
		if ran, cached, remote := counts(t, stderr); ran != 1 || remote != jobs-1 || cached != jobs-1 {
			t.Fatalf("with a damaged blob: %d ran, %d cached, %d remote; want 1, %d, %d\n%s", ran, cached, remote, jobs-1, jobs-1, stderr)
		}
		sameOutputs(t, first, third)
		if got, _ := os.ReadFile(blob); string(got) != string(css) {
			t.Fatal("the rebuild did not upload the right bytes over the damaged blob")
		}
	})

	t.Run("read-only uploads nothing", func(t *testing.T) {
		empty := nginxtest.Start(t)
		stderr := buildOK(t, "-f", cloneExample(t, ""), "--remote-cache", empty.URL, "--remote-cache-read-only")
		if ran, _, remote := counts(t, stderr); ran != jobs || remote != 0 || strings.Contains(stderr, "warning") {
			t.Fatalf("read-only:\n%s", stderr)
		}
		if ac, cas := empty.Files("ac"), empty.Files("cas"); len(ac)+len(cas) != 0 {
			t.Fatalf("read-only uploaded %d action results and %d blobs", len(ac), len(cas))
		}
	})

	t.Run("the flag wins over the project file", func(t *testing.T) {
		project := cloneExample(t, "remote_cache = \""+closedPort(t)+"\"\n")
		stderr := buildOK(t, "-f", project, "--remote-cache", srv.URL)
		if ran, _, remote := counts(t, stderr); ran != 0 || remote != jobs || strings.Contains(stderr, "warning") {
			t.Fatalf("flag over project file:\n%s", stderr)
		}
	})
}

// closedPort returns the URL of a loopback port that nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	return url
}

// TestRemoteCacheUnreachable: a server that refuses connections costs one
// warning that names it and none of the credentials, and the build
// succeeds with the local cache.
func TestRemoteCacheUnreachable(t *testing.T) {
	url := closedPort(t)
	t.Setenv(remoteHeaderEnv, "Authorization: Bearer env-s3cret\nX-Tenant: team-a")
	project := cloneExample(t, "remote_cache = \""+url+"\"\n")
	stderr := buildOK(t, "-f", project, "--remote-header", "X-Tenant: flag-s3cret")
	ran, _, remote := counts(t, stderr)
	if ran == 0 || remote != 0 {
		t.Fatalf("unreachable server:\n%s", stderr)
	}
	if n := strings.Count(stderr, "warning"); n != 1 || !strings.Contains(stderr, "bakefs: warning: remote cache "+url+": ") {
		t.Fatalf("%d warnings; want one naming %s:\n%s", n, url, stderr)
	}
	if strings.Contains(stderr, "s3cret") {
		t.Fatalf("a credential was printed:\n%s", stderr)
	}
	// Off with an empty flag: no warning, no remote count.
	stderr = buildOK(t, "-f", project, "--remote-cache=")
	if _, _, remote := counts(t, stderr); remote != -1 || strings.Contains(stderr, "warning") {
		t.Fatalf("--remote-cache= did not turn the project's remote cache off:\n%s", stderr)
	}
}

func TestRemoteFlagErrors(t *testing.T) {
	project := cloneExample(t, "")
	for _, tc := range []struct {
		name, env string
		args      []string
		want      string
	}{
		{"bad URL", "", []string{"--remote-cache", "ftp://cache"}, "--remote-cache: remote: bad remote cache URL: ftp://cache: want an http:// or https:// URL"},
		{"bad header flag", "", []string{"--remote-cache", "http://127.0.0.1:1", "--remote-header", "Authorization Bearer s3cret"}, "--remote-header number 1: want 'Name: value'"},
		{"bad header variable", "X-Ok: 1\nBearer s3cret", []string{"--remote-cache", "http://127.0.0.1:1"}, "$BAKEFS_REMOTE_HEADER, line 2: want 'Name: value'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(remoteHeaderEnv, tc.env)
			code, _, stderr := runCLI(t, append([]string{"build", "-f", project}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "s3cret") {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 2 and %q, no credential", code, stderr, tc.want)
			}
		})
	}
}

func TestRemoteHeaders(t *testing.T) {
	h, err := remoteHeaders("authorization: Bearer a\n\nX-Tenant: t1\r\nX-Tenant: t2\n", []string{"X-Tenant: flag", "x-extra:  spaced  "})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Authorization": "[Bearer a]", "X-Tenant": "[flag]", "X-Extra": "[spaced]"}
	if len(h) != len(want) {
		t.Fatalf("headers %v, want %v", h, want)
	}
	for k, v := range want {
		if got := fmt.Sprint(h[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	for _, bad := range []string{"No colon", ": no name", "Bad Name: x", "X-Ctl: a\x01b"} {
		if _, _, ok := parseHeader(bad); ok {
			t.Errorf("parseHeader(%q) accepted", bad)
		}
	}
}
