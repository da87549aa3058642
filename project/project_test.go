package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// writeProject writes a project file and source files into a temporary
// directory and returns the project file's path.
func writeProject(t *testing.T, toml string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, "web", filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("body of "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, DefaultFile)
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

const goodProject = `# a project
src = "web"
out = "build"
compress = ["gzip"]
hash = true

[[rule]]
match = "js/*.js"
steps = ["minify"]

[[rule]]
match = ["**/*.css", "img/**"]
steps = []
compress = []
`

func TestJobs(t *testing.T) {
	file := writeProject(t, goodProject, "js/app.js", "js/lib/deep.js", "css/a.css", "b.css", "img/x/y.png", "other.txt")
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, j.Path+" => "+j.Chain.String())
	}
	want := []string{
		"b.css => hash",
		"css/a.css => hash",
		"img/x/y.png => hash",
		"js/app.js => minify | gzip | hash",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("jobs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Cache != filepath.Join(filepath.Dir(file), ".bakefs-cache") || p.Profile != transform.Release {
		t.Fatalf("defaults: cache %q profile %q", p.Cache, p.Profile)
	}
}

// TestAbsolutePaths: src, out, cache and the package's dir may be
// absolute; relative ones are relative to the project file.
func TestAbsolutePaths(t *testing.T) {
	elsewhere := t.TempDir()
	toml := "src = \"web\"\nout = \"" + filepath.ToSlash(filepath.Join(elsewhere, "out")) + "\"\ncache = \"" +
		filepath.ToSlash(filepath.Join(elsewhere, "cache")) + "\"\n[package]\ndir = \"pkg\"\nname = \"assets\"\n[[rule]]\nmatch = \"*.css\"\nsteps = []\n"
	file := writeProject(t, toml, "a.css")
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(file)
	if p.Out != filepath.Join(elsewhere, "out") || p.Cache != filepath.Join(elsewhere, "cache") ||
		p.Src != filepath.Join(dir, "web") || p.Package.Dir != filepath.Join(dir, "pkg") {
		t.Errorf("src %s, out %s, cache %s, package %s", p.Src, p.Out, p.Cache, p.Package.Dir)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, toml, want string
	}{
		{"toml syntax", "src = \"web\"\nout = \n", "bakefs.toml:2: "},
		{"unknown key", "src = \"web\"\nout = \"b\"\ncompres = [\"br\"]\n[[rule]]\nmatch=\"*\"\nsteps=[]\n", `bakefs.toml:3: unknown key "compres"`},
		{"missing src", "out = \"b\"\n", "bakefs.toml: src is required"},
		{"missing out", "src = \"web\"\n", "out is required: without a [package]"},
		{"missing out, no cache", "src = \"web\"\ncache = \"\"\n[package]\ndir = \"p\"\nname = \"p\"\n", `bakefs.toml:2: out is required with cache = ""`},
		{"bad compress", "src = \"web\"\nout = \"b\"\ncompress = [\"lzma\"]\n", `bakefs.toml:3: compress: "lzma" is not br, gzip or zstd`},
		{"bad profile", "src = \"web\"\nout = \"b\"\nprofile = \"fast\"\n", `bakefs.toml:3: profile "fast" is not release or dev`},
		{"no rules", "src = \"web\"\nout = \"b\"\n", "no [[rule]]"},
		{"unknown step", "src = \"web\"\nout = \"b\"\n\n[[rule]]\nmatch = \"*\"\nsteps = [\n  \"minify\",\n  \"minfy\",\n]\n", `bakefs.toml:8: rule 1: steps[1]: transform: unknown step "minfy"`},
		{"step syntax", "src = \"web\"\nout = \"b\"\n[[rule]]\nmatch = \"*\"\nsteps = [\"gzip:level\"]\n", `bakefs.toml:5: rule 1: steps[0]: step "gzip:level": column 11: expected '=' after option name "level"`},
		{"bad pattern", "src = \"web\"\nout = \"b\"\n[[rule]]\nmatch = \"../*\"\nsteps = []\n", `bakefs.toml:4: rule 1: match: bad pattern "../*"`},
		{"match missing", "src = \"web\"\nout = \"b\"\n[[rule]]\nsteps = []\n", "rule 1: match (or concat and output) is required"},
		{"remote cache scheme", "src = \"web\"\nout = \"b\"\nremote_cache = \"grpc://cache:9092\"\n[[rule]]\nmatch = \"*\"\nsteps = []\n", `bakefs.toml:3: remote_cache: remote: bad remote cache URL: grpc://cache:9092: want an http:// or https:// URL`},
		{"remote cache credentials", "src = \"web\"\nout = \"b\"\nremote_cache = \"https://ci:tok@cache\"\n[[rule]]\nmatch = \"*\"\nsteps = []\n", `bakefs.toml:3: remote_cache: credentials do not belong in the project file; give them in $BAKEFS_REMOTE_HEADER or --remote-header`},
		{"step order", "src = \"web\"\nout = \"b\"\n\n[[rule]]\nmatch = \"steps/*\"\n\nsteps = [\"gzip\", \"minify\"]\n", `bakefs.toml:7: rule 1: steps: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeProject(t, tt.toml))
			if !errors.Is(err, ErrProject) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestRemoteCache(t *testing.T) {
	for _, tt := range []struct{ toml, want string }{
		{goodProject, ""},
		{"remote_cache = \"http://127.0.0.1:9090/bakefs\"\n" + goodProject, "http://127.0.0.1:9090/bakefs"},
	} {
		p, err := Load(writeProject(t, tt.toml, "js/app.js", "css/a.css"))
		if err != nil {
			t.Fatal(err)
		}
		if p.RemoteCache != tt.want {
			t.Fatalf("RemoteCache = %q, want %q", p.RemoteCache, tt.want)
		}
	}
}

func TestJobsErrors(t *testing.T) {
	t.Run("pattern matches nothing", func(t *testing.T) {
		p, err := Load(writeProject(t, goodProject, "js/app.js", "css/a.css"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Jobs()
		if err == nil || !strings.Contains(err.Error(), `bakefs.toml:12: pattern "img/**" matches no file`) {
			t.Fatalf("error = %v", err)
		}
	})
	t.Run("pattern shadowed in its rule", func(t *testing.T) {
		toml := "src = \"web\"\nout = \"b\"\n\n[[rule]]\nmatch = [\n  \"js/**\",\n  \"js/*.js\",\n]\nsteps = []\n"
		p, err := Load(writeProject(t, toml, "js/app.js", "js/lib/x.js"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Jobs()
		want := `bakefs.toml:7: pattern "js/*.js" is shadowed by "js/**" (line 6), which comes first and takes every file it matches, such as js/app.js`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v\nwant it to contain %q", err, want)
		}
	})
	t.Run("symlink out of root", func(t *testing.T) {
		file := writeProject(t, goodProject, "js/app.js", "css/a.css", "img/a.png")
		secret := filepath.Join(t.TempDir(), "secret.js")
		os.WriteFile(secret, []byte("x"), 0o644)
		if err := os.Symlink(secret, filepath.Join(filepath.Dir(file), "web/js/leak.js")); err != nil {
			t.Fatal(err)
		}
		p, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Jobs()
		if err == nil || !strings.Contains(err.Error(), "js/leak.js: symlink points outside the source root") {
			t.Fatalf("error = %v", err)
		}
	})
	t.Run("missing source root", func(t *testing.T) {
		p, err := Load(writeProject(t, goodProject))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Jobs(); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("error = %v", err)
		}
	})
}
