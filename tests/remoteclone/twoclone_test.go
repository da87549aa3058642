package remoteclone

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bakefs/bakefs/internal/nginxtest"
	"github.com/bakefs/bakefs/pipeline/remote"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps" // the steps the project file names
)

// example is the project file each clone builds, relative to the module
// root.
const example = "examples/webapp/bakefs.toml"

// TestTwoClonesSecondRunsNothing clones the repository twice and builds
// the example in each clone right after its clone, both against one
// remote cache: the second build runs 0 jobs, every one of its jobs is a
// remote hit, and its output tree and package are the first's, byte for
// byte.
func TestTwoClonesSecondRunsNothing(t *testing.T) {
	root := moduleRoot(t)
	top, rel := gitWorkTree(t, root)
	bin := buildCLI(t, root)
	srv := nginxtest.Start(t)
	tmp := t.TempDir()

	first := cloneAndBuild(t, bin, srv.URL, top, rel, filepath.Join(tmp, "clone1"))
	t.Logf("clone1: %s", first.line)
	firstAC := remoteEntries(t, srv)
	if first.ran == 0 || first.cached != 0 {
		t.Fatalf("clone1 (empty local and remote cache): %d ran, %d cached; want every job to run\n%s", first.ran, first.cached, first.stderr)
	}
	if len(firstAC) == 0 || len(srv.Files("cas")) == 0 {
		t.Fatalf("clone1 ran %d jobs but uploaded nothing: the remote cache holds %d entries (ac) and %d blobs (cas)\n%s",
			first.ran, len(firstAC), len(srv.Files("cas")), first.stderr)
	}
	t.Logf("clone1 uploaded %d entries and %d blobs", len(firstAC), len(srv.Files("cas")))

	second := cloneAndBuild(t, bin, srv.URL, top, rel, filepath.Join(tmp, "clone2"))
	t.Logf("clone2: %s", second.line)
	jobs := first.ran + first.cached
	if second.ran != 0 || second.cached != jobs || second.remote != jobs {
		t.Errorf("clone2: %d ran, %d cached (%d remote); want 0 ran, %d cached (%d remote)\n%s\nclone2's stderr:\n%s",
			second.ran, second.cached, second.remote, jobs, jobs, whatRan(t, srv, firstAC, first, second), second.stderr)
	}

	for _, d := range []struct{ name, a, b string }{
		{"output tree", first.proj.Out, second.proj.Out},
		{"package", packageDir(first.proj), packageDir(second.proj)},
	} {
		if d.a == "" {
			continue
		}
		if diff := compareTrees(t, d.a, d.b); diff != "" {
			t.Errorf("clone2's %s %s differs from clone1's %s:\n%s", d.name, d.b, d.a, diff)
		}
	}
}

// moduleRoot returns the directory of the go.mod that holds this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		t.Fatal("go env GOMOD: not inside a module")
	}
	return filepath.Dir(mod)
}

// gitWorkTree returns the top of the git work tree that holds root and
// root's path below it. Outside a work tree the test fails: CI runs on a
// clone, and the test has nothing to clone otherwise.
func gitWorkTree(t *testing.T, root string) (top, rel string) {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "--show-toplevel")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s is not a git work tree (git rev-parse: %v: %s): this test clones the repository, so it must run in a git clone of it",
			root, err, bytes.TrimSpace(out))
	}
	top = strings.TrimSpace(string(out))
	if rel, err = filepath.Rel(evalSymlinks(t, top), evalSymlinks(t, root)); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		t.Fatalf("module root %s is not below the git work tree %s", root, top)
	}
	return top, rel
}

func evalSymlinks(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// buildCLI builds the bakefs CLI from the working tree at root.
func buildCLI(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bakefs")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bakefs")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/bakefs: %v\n%s", err, out)
	}
	return bin
}

// A build is how one clone's build went.
type build struct {
	proj                *project.Project // the clone's project file
	ran, cached, remote int              // from the summary line
	line                string           // the summary line
	explained           []string         // from --explain: "PATH: REASON; REASON" of each job that ran
	stderr              string
}

// summaryRE matches the end of a build's summary line (report.Summary)
// with a remote cache: "16 ran, 0 cached (0 remote)".
var summaryRE = regexp.MustCompile(`(\d+) ran, (\d+) cached \((\d+) remote\)`)

// cloneAndBuild clones the work tree top into dir and, at once, builds
// the example in the clone (rel is the module's path in the work tree)
// against the remote cache url, with the clone's own local cache, which
// must not exist yet.
func cloneAndBuild(t *testing.T, bin, url, top, rel, dir string) build {
	t.Helper()
	clone := exec.Command("git", "clone", "--quiet", "--no-hardlinks", top, dir)
	if out, err := clone.CombinedOutput(); err != nil {
		t.Fatalf("git clone %s %s: %v\n%s", top, dir, err, out)
	}
	mod := filepath.Join(dir, rel)
	proj, err := project.Load(filepath.Join(mod, filepath.FromSlash(example)))
	if err != nil {
		t.Fatalf("%s: %v", example, err)
	}
	if proj.Cache == "" {
		t.Fatalf("%s: the project has no local cache (cache = \"\"); a remote cache needs one", proj.File)
	}
	if _, err := os.Stat(proj.Cache); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("local cache %s exists in a fresh clone (stat: %v); want an empty one", proj.Cache, err)
	}

	var stdout, stderr bytes.Buffer
	args := []string{"build", "-f", example, "--remote-cache", url, "--explain"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = mod
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "CI=true") // no progress line
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	out := stderr.String()
	if err != nil {
		t.Fatalf("bakefs %s in %s: %v\nstdout:\n%sstderr:\n%s", strings.Join(args, " "), mod, err, stdout.String(), out)
	}
	if strings.Contains(out, "warning: remote cache") {
		t.Fatalf("clone %s: the remote cache failed:\n%s", dir, out)
	}
	m := summaryRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("clone %s: no summary line (%q) in the build's stderr:\n%s", dir, summaryRE, out)
	}
	b := build{proj: proj, stderr: out}
	b.ran, _ = strconv.Atoi(m[1])
	b.cached, _ = strconv.Atoi(m[2])
	b.remote, _ = strconv.Atoi(m[3])
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, explainPrefix) {
			b.explained = append(b.explained, strings.TrimPrefix(line, explainPrefix))
		}
		if summaryRE.MatchString(line) {
			b.line = fmt.Sprintf("%s [process %s]", strings.TrimSpace(line), elapsed.Round(time.Millisecond))
		}
	}
	return b
}

// packageDir returns the directory of the project's Go package, "" when
// it has none.
func packageDir(p *project.Project) string {
	if p.Package == nil {
		return ""
	}
	return p.Package.Dir
}

// explainPrefix starts the line that --explain prints for each job that
// ran: "bakefs: ran PATH: REASON; REASON".
const explainPrefix = "bakefs: ran "

// remoteEntries returns the entries (ac) of the remote cache with their
// modification times, which change when an entry is uploaded again.
func remoteEntries(t *testing.T, srv *nginxtest.Server) map[string]time.Time {
	t.Helper()
	entries := map[string]time.Time{}
	for _, key := range srv.Files("ac") {
		info, err := os.Stat(filepath.Join(srv.Root, "ac", key))
		if err != nil {
			t.Fatal(err)
		}
		entries[key] = info.ModTime()
	}
	return entries
}

// whatRan names the jobs the second clone ran and what may have made
// them run: the jobs with --explain (the second clone's, and the first
// clone's whose results were not cached, so not uploaded), and the
// entries the second clone uploaded: under keys the first did not upload
// (the job's key differs between the clones), or again under one it did
// (the entry was there but not usable).
func whatRan(t *testing.T, srv *nginxtest.Server, firstAC map[string]time.Time, first, second build) string {
	t.Helper()
	var b strings.Builder
	for _, e := range second.explained {
		fmt.Fprintf(&b, "clone2 ran %s\n", e)
	}
	for _, e := range first.explained {
		if strings.Contains(e, "not cached") {
			fmt.Fprintf(&b, "clone1 ran %s\n", e)
		}
	}
	var added, again []string
	for key, mtime := range remoteEntries(t, srv) {
		was, ok := firstAC[key]
		if ok && mtime.Equal(was) {
			continue
		}
		sources, err := entrySources(srv, key)
		desc := strings.Join(sources, ", ")
		if err != nil {
			desc = err.Error()
		}
		if ok {
			again = append(again, fmt.Sprintf("clone2 uploaded entry %s again (clone1's was not used): %s", key, desc))
		} else {
			added = append(added, fmt.Sprintf("clone2 uploaded entry %s, a key clone1 did not upload: %s", key, desc))
		}
	}
	slices.Sort(added)
	slices.Sort(again)
	for _, l := range append(added, again...) {
		b.WriteString(l + "\n")
	}
	if len(added)+len(again) == 0 {
		b.WriteString("clone2 uploaded no entry: what it ran it did not cache, or it had the keys of results clone1 did not cache\n")
	}
	return b.String()
}

// entrySources returns the sources of the outputs of the remote entry
// under key: its ActionResult names the cache entry (remote.EntryPath),
// whose JSON lists the outputs.
func entrySources(srv *nginxtest.Server, key string) ([]string, error) {
	raw, err := os.ReadFile(filepath.Join(srv.Root, "ac", key))
	if err != nil {
		return nil, err
	}
	files, err := remote.DecodeActionResult(raw)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(files, func(f remote.File) bool { return f.Path == remote.EntryPath })
	if i < 0 {
		return nil, fmt.Errorf("no %s", remote.EntryPath)
	}
	raw, err = os.ReadFile(filepath.Join(srv.Root, "cas", files[i].SHA256))
	if err != nil {
		return nil, err
	}
	var entry struct {
		Outputs []struct{ Path, Source string }
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		return nil, fmt.Errorf("%s: %v", remote.EntryPath, err)
	}
	var sources []string
	for _, o := range entry.Outputs {
		s := o.Source
		if s == "" {
			s = o.Path
		}
		if !slices.Contains(sources, s) {
			sources = append(sources, s)
		}
	}
	return sources, nil
}

// compareTrees compares every file under a with the file of the same
// name under b, and returns the differences, one a line ("" when none):
// files only in one, and files whose bytes or mode differ.
func compareTrees(t *testing.T, a, b string) string {
	t.Helper()
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) == 0 {
		return fmt.Sprintf("%s holds no file\n", a)
	}
	var diff []string
	for name, fa := range ta {
		fb, ok := tb[name]
		switch {
		case !ok:
			diff = append(diff, "only in clone1: "+name)
		case !bytes.Equal(fa.data, fb.data):
			diff = append(diff, fmt.Sprintf("bytes differ: %s (%d bytes in clone1, %d in clone2)", name, len(fa.data), len(fb.data)))
		case fa.mode != fb.mode:
			diff = append(diff, fmt.Sprintf("mode differs: %s (%v in clone1, %v in clone2)", name, fa.mode, fb.mode))
		}
	}
	for name := range tb {
		if _, ok := ta[name]; !ok {
			diff = append(diff, "only in clone2: "+name)
		}
	}
	slices.Sort(diff)
	if len(diff) == 0 {
		return ""
	}
	return strings.Join(diff, "\n") + "\n"
}

// A treeFile is a file of a tree: its bytes and its type and permissions.
type treeFile struct {
	data []byte
	mode fs.FileMode
}

// readTree returns the files under dir by slash-separated relative path;
// a symbolic link is read as its target's name.
func readTree(t *testing.T, dir string) map[string]treeFile {
	t.Helper()
	files := map[string]treeFile{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var data []byte
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			data = []byte(target)
			if err != nil {
				return err
			}
		} else if data, err = os.ReadFile(path); err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = treeFile{data: data, mode: info.Mode()}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return files
}
