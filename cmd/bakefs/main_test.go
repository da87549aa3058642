package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCLI runs a command line in process and returns its exit status and
// output streams.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(&environment{stdout: &stdout, stderr: &stderr}, args)
	return code, stdout.String(), stderr.String()
}

func writeFile(t *testing.T, name, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "Usage:"},
		{"unknown command", []string{"bild"}, `unknown command "bild"`},
		{"unknown flag", []string{"transform", "--frobnicate"}, "flag provided but not defined: -frobnicate"},
		{"missing out", []string{"transform", "--step", "minify"}, "transform: --out is required"},
		{"bad step syntax", []string{"transform", "--out", "x", "--step", "resize:width"}, `step 1: step "resize:width": column 13: expected '=' after option name "width"`},
		{"unknown step", []string{"transform", "--out", "x", "--step", "minfy"}, `unknown step "minfy" (did you mean "minify"?)`},
		{"bad compress", []string{"transform", "--out", "x", "--compress", "br,,gzip"}, "--compress: empty item in list"},
		{"no inputs", []string{"transform", "--out", "x", "--step", "minify"}, "no inputs"},
		{"bad file flag", []string{"transform", "--out", "x", "--file", "nopath"}, `--file "nopath": want LOGICAL=PATH`},
		{"escaping logical path", []string{"transform", "--out", "x", "--file", "../a.js=a.js"}, `logical path "../a.js" is not valid`},
		{"non-UTF-8 logical path", []string{"transform", "--out", "x", "--file", "a\xff.js=a.js"}, `logical path "a\xff.js" is not UTF-8`},
		{"embed missing flags", []string{"embed", "--tree", "x"}, "embed: --tree, --out and --package are required"},
		{"steps unknown", []string{"steps", "nope"}, `steps: no step named "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
}

func TestHelpTeaches(t *testing.T) {
	for _, cmd := range []string{"build", "transform", "embed", "steps"} {
		t.Run(cmd, func(t *testing.T) {
			code, stdout, _ := runCLI(t, "help", cmd)
			if code != 0 || !strings.Contains(stdout, "Usage: bakefs "+cmd) || !strings.Contains(stdout, "Flags:") {
				t.Fatalf("exit %d, help:\n%s", code, stdout)
			}
			if cmd != "steps" && !strings.Contains(stdout, "Example") {
				t.Fatalf("help for %s has no examples:\n%s", cmd, stdout)
			}
		})
	}
	if code, stdout, _ := runCLI(t, "help", "project"); code != 0 || !strings.Contains(stdout, "strip_prefix") || !strings.Contains(stdout, "concat") {
		t.Fatalf("bakefs help project: exit %d\n%s", code, stdout)
	}
	code, stdout, _ := runCLI(t, "steps", "resize")
	if code != 0 || !strings.Contains(stdout, "width") {
		t.Fatalf("bakefs steps resize: exit %d\n%s", code, stdout)
	}
}

// TestTypeScriptErrorKeepsOutput: a syntax error is reported as
// file:line:col, exits 1, and the previous tree stays as it was.
func TestTypeScriptErrorKeepsOutput(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "web"), filepath.Join(dir, "out")
	writeFile(t, filepath.Join(src, "js/app.ts"), "const n: number = 1;\nexport default n;\n")
	args := []string{"transform", "--no-cache", "--root", src, "--out", out, "--step", "typescript", "--compress", "gzip", filepath.Join(src, "js/app.ts")}
	if code, _, stderr := runCLI(t, args...); code != 0 {
		t.Fatalf("first build: exit %d\n%s", code, stderr)
	}
	before, err := os.ReadFile(filepath.Join(out, "js/app.js"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "js/app.ts"), "const n: number = 1;\n\nlet x = (;\n")
	code, _, stderr := runCLI(t, args...)
	if code != 1 || !strings.HasPrefix(stderr, "js/app.ts:3:10: error: ") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 and js/app.ts:3:10: error: …", code, stderr)
	}
	after, err := os.ReadFile(filepath.Join(out, "js/app.js"))
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("previous output changed: %v", err)
	}
}

func TestTransformChainsTrees(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src/a.json"), `{ "a" : [ 1, 2, 3 ] }`)
	stage1, stage2 := filepath.Join(dir, "s1"), filepath.Join(dir, "s2")
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", stage1, "--file", "data/a.json="+filepath.Join(dir, "src/a.json"), "--step", "minify"); code != 0 {
		t.Fatalf("stage 1: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", stage2, "--tree", stage1, "--hash"); code != 0 {
		t.Fatalf("stage 2: exit %d\n%s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(stage2, "data/a.json"))
	if err != nil || string(got) != `{"a":[1,2,3]}` {
		t.Fatalf("chained output = %q, %v", got, err)
	}
	manifest, _ := os.ReadFile(filepath.Join(stage2, "bakefs-manifest.json"))
	if !bytes.Contains(manifest, []byte(`"hashed": "data/a.`)) {
		t.Fatalf("manifest of stage 2 has no hashed name:\n%s", manifest)
	}
}

// TestTransformMergeKeepsVariants: a transform of trees without content
// steps is a merge, and gives back each tree's manifest entries as they
// were, variants and hashed names included.
func TestTransformMergeKeepsVariants(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src/a.css"), strings.Repeat("body { color: red; }\n", 40))
	writeFile(t, filepath.Join(dir, "src/b.txt"), strings.Repeat("plain text, kept as it is\n", 40))
	first, second, merged := filepath.Join(dir, "t1"), filepath.Join(dir, "t2"), filepath.Join(dir, "merged")
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", first, "--file", "a.css="+filepath.Join(dir, "src/a.css"), "--compress", "br,gzip", "--hash"); code != 0 {
		t.Fatalf("first: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", second, "--file", "b.txt="+filepath.Join(dir, "src/b.txt")); code != 0 {
		t.Fatalf("second: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", merged, "--tree", first, "--tree", second); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	m, _ := os.ReadFile(filepath.Join(merged, "bakefs-manifest.json"))
	m1, _ := os.ReadFile(filepath.Join(first, "bakefs-manifest.json"))
	entryA := string(m1[strings.Index(string(m1), "    {") : strings.LastIndex(string(m1), "    }")+5])
	if !strings.Contains(string(m), entryA) || !strings.Contains(string(m), `"path": "b.txt"`) || strings.Contains(string(m), `"b.txt.gz"`) {
		t.Fatalf("merged manifest:\n%s\nwant a.css as in:\n%s", m, m1)
	}
	for _, f := range []string{"a.css.br", "a.css.gz"} {
		want, _ := os.ReadFile(filepath.Join(first, f))
		got, err := os.ReadFile(filepath.Join(merged, f))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s not carried over: %v", f, err)
		}
	}
	// A content step makes the variants again rather than carry stale ones.
	restep := filepath.Join(dir, "restep")
	if code, _, stderr := runCLI(t, "transform", "--no-cache", "--out", restep, "--tree", first, "--step", "minify"); code != 0 {
		t.Fatalf("restep: exit %d\n%s", code, stderr)
	}
	if r, _ := os.ReadFile(filepath.Join(restep, "bakefs-manifest.json")); strings.Contains(string(r), "encodings") || strings.Contains(string(r), "hashed") {
		t.Fatalf("a content step kept stale variants:\n%s", r)
	}
}

// TestBuildRefusesForeignOut: a project whose out holds files bakefs did
// not write fails before any work (no step runs, no cache is made),
// leaves the files as they are and says how to proceed.
func TestBuildRefusesForeignOut(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "web", "a.css"), "a { color: red }\n")
	writeFile(t, filepath.Join(dir, "dist", "notes.txt"), "mine\n")
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, "src = \"web\"\nout = \"dist\"\n\n[[rule]]\nmatch = \"*.css\"\nsteps = [\"minify\"]\n")
	code, _, stderr := runCLI(t, "build", "-f", project)
	if code != 1 || !strings.Contains(stderr, "bakefs.toml: out: pipeline: not a bakefs output tree") || !strings.Contains(stderr, "remove it, or write the tree to another directory") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 naming out and saying how to proceed", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".bakefs-cache")); !os.IsNotExist(err) {
		t.Errorf("the build did work before refusing: the cache exists (%v)", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "dist", "notes.txt")); err != nil || string(b) != "mine\n" {
		t.Errorf("dist/notes.txt: %q, %v", b, err)
	}
}

// TestBuildWithoutOut: a project with a [package] and no out writes the
// package, keeps the tree in the cache directory (outside the source root's
// walk when src = "."), builds unchanged the second time, and --check
// compares the package alone, so it holds after the cache is removed; git
// sees the package and nothing of the cache.
func TestBuildWithoutOut(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.css"), "a { color: red }\n")
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, "src = \".\"\n\n[package]\ndir = \"assets\"\nname = \"assets\"\n\n[[rule]]\nmatch = \"*.css\"\nsteps = [\"minify\"]\n")
	for i, verb := range []string{"wrote", "unchanged"} {
		code, _, stderr := runCLI(t, "build", "-f", project)
		if code != 0 || !strings.Contains(stderr, verb+" "+filepath.Join(dir, "assets")) {
			t.Fatalf("build %d: exit %d, stderr:\n%s\nwant %q and the package directory", i+1, code, stderr, verb)
		}
	}
	tree, err := os.ReadFile(filepath.Join(dir, ".bakefs-cache", "tree", "a.css"))
	if err != nil {
		t.Fatalf("the tree is not in the cache directory: %v", err)
	}
	embedded, err := os.ReadFile(filepath.Join(dir, "assets", "_data", "a.css"))
	if err != nil || string(embedded) != string(tree) || strings.Contains(string(tree), " ") {
		t.Errorf("the package embeds %q (%v), the tree holds %q", embedded, err, tree)
	}
	// The cache directory keeps itself, and the tree in it, out of git.
	if git, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command(git, "init", "-q", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		cmd = exec.Command(git, "-C", dir, "status", "--porcelain", "--untracked-files=all")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), ".bakefs-cache") || !strings.Contains(string(out), "assets/") {
			t.Errorf("git status (%v):\n%s\nwant the package and no file of the cache", err, out)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, ".bakefs-cache")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "build", "--check", "-f", project); code != 0 {
		t.Fatalf("check after the cache was removed: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestOutInsideSrcSettles: with src = "." the output tree, the package
// and the cache sit in the directory a bundle lists while it resolves
// imports; writing them does not make the next build run the bundle again.
func TestOutInsideSrcSettles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.css"), "a { color: red }\n")
	writeFile(t, filepath.Join(dir, "app.ts"), "import \"./a.css\";\nexport const x = 1;\n")
	project := filepath.Join(dir, "bakefs.toml")
	writeFile(t, project, "src = \".\"\nout = \"build\"\nhash = true\n[package]\ndir = \"assets\"\nname = \"assets\"\n[[rule]]\nmatch = \"app.ts\"\nsteps = [\"bundle\"]\n[[rule]]\nmatch = \"*.css\"\nsteps = [\"minify\"]\n")
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"a.css", "app.ts", "bakefs.toml"} {
		os.Chtimes(filepath.Join(dir, f), old, old)
	}
	for i, want := range []string{"2 ran, 0 cached", "0 ran, 2 cached", "0 ran, 2 cached"} {
		code, _, stderr := runCLI(t, "build", "-f", project)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Fatalf("build %d: exit %d, stderr:\n%s\nwant %q", i+1, code, stderr, want)
		}
	}
}
