package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bakefs/bakefs/internal/golden"
	"github.com/bakefs/bakefs/transform"
)

// Golden files live under testdata/golden (see internal/golden).
func TestMain(m *testing.M) { golden.Main(m) }

// esRoot is the source root of the small project that the esbuild-based
// steps are tested on.
const esRoot = "testdata/esbuild"

// esLoad reads the logical source path p under root as a fresh asset.
func esLoad(t testing.TB, root, p string) *transform.Asset {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return &transform.Asset{Path: p, Source: p, Data: data}
}

// esRun builds the step written as text and runs it on the assets in a
// new context rooted at root.
func esRun(t testing.TB, root, text string, in ...*transform.Asset) ([]*transform.Asset, *transform.Context, error) {
	t.Helper()
	s, err := transform.NewStep(text)
	if err != nil {
		t.Fatalf("NewStep(%q): %v", text, err)
	}
	ctx := transform.NewContext(context.Background(), root, transform.Release)
	out, err := s.Step.Run(ctx, in)
	return out, ctx, err
}

// esDump renders assets as text for golden files: a header per asset with
// its path and source, then its bytes, or for binary data its size and
// SHA-256.
func esDump(assets []*transform.Asset) []byte {
	var b bytes.Buffer
	for _, a := range assets {
		fmt.Fprintf(&b, "=== %s (from %s)\n", a.Path, a.Source)
		if utf8.Valid(a.Data) && !bytes.ContainsRune(a.Data, 0) {
			b.Write(a.Data)
			if len(a.Data) > 0 && a.Data[len(a.Data)-1] != '\n' {
				b.WriteString("\n(no newline at end)\n")
			}
		} else {
			fmt.Fprintf(&b, "(binary, %d bytes, sha256 %x)\n", len(a.Data), sha256.Sum256(a.Data))
		}
	}
	return b.Bytes()
}

// esPaths lists the paths of assets.
func esPaths(assets []*transform.Asset) string {
	ps := make([]string, len(assets))
	for i, a := range assets {
		ps[i] = a.Path
	}
	return strings.Join(ps, " ")
}

// esCopyTree copies the directory src to dst.
func esCopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestJSOutputPath(t *testing.T) {
	for in, want := range map[string]string{
		"a.ts":         "a.js",
		"dir/b.tsx":    "dir/b.js",
		"c.jsx":        "c.js",
		"d.mts":        "d.mjs",
		"e.cts":        "e.cjs",
		"f.js":         "f.js",
		"g.mjs":        "g.mjs",
		"h.d.ts":       "h.d.js",
		"dots.in/i.TS": "dots.in/i.js",
	} {
		t.Run(in, func(t *testing.T) {
			if got := jsOutputPath(in); got != want {
				t.Errorf("jsOutputPath(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

// esCheckStep runs step on file of the esbuild testdata and checks the
// output paths (as esPaths lists them), that every output names file as its
// source, and the outputs against a golden file.
func esCheckStep(t *testing.T, step, file, paths, goldenName string) {
	t.Helper()
	out, _, err := esRun(t, esRoot, step, esLoad(t, esRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	if got := esPaths(out); got != paths {
		t.Errorf("output paths\n%s\nwant\n%s", got, paths)
	}
	for _, a := range out {
		if a.Source != file {
			t.Errorf("%s: Source %q, want %q", a.Path, a.Source, file)
		}
	}
	golden.Check(t, goldenName, esDump(out))
}

// TestBannerFooter: banner and footer wrap each JavaScript and CSS output
// of the esbuild steps and of minify, not the inline code of a page; a
// minify step with a banner of its own is not absorbed, and adds it to
// what it minified.
func TestBannerFooter(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a.ts":   "export const x: number = 1;\nconsole.log(x + 1);\n",
		"s.css":  "body { color: red; }\n",
		"p.html": "<p>hi</p><script>var a = 1;  console.log(a)</script>\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	asset := func(name string) *transform.Asset {
		return &transform.Asset{Path: name, Source: name, Data: []byte(files[name])}
	}
	for _, tc := range []struct {
		name   string
		steps  []string
		in     string
		prefix string
		suffix string
	}{
		{"bundle", []string{`bundle:banner="/*! MIT */",footer="//# end"`}, "a.ts", "/*! MIT */\n", "//# end\n"},
		{"bundle absorbs minify", []string{`bundle:banner="/*! MIT */"`, "minify"}, "a.ts", "/*! MIT */\nvar o=1;", ""},
		{"typescript", []string{`typescript:banner="/*! MIT */",footer="/* f */"`}, "a.ts", "/*! MIT */\nexport const x = 1;", "/* f */\n"},
		{"minify js", []string{"typescript", `minify:banner="/*! B */"`}, "a.ts", "/*! B */\nexport const x=1;", ""},
		{"minify css", []string{`minify:banner="/*! B */",footer="/* f */"`}, "s.css", "/*! B */\nbody{color:red}", "/* f */\n"},
		{"minify after bundle is not absorbed", []string{"bundle", `minify:banner="/*! B */"`}, "a.ts", "/*! B */\nvar o=1;", ""},
		{"minify leaves a page's inline code alone", []string{`minify:banner="/*! B */"`}, "p.html", "<p>hi</p><script>var a=1;", "</script>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runChainText(t, root, tc.steps, asset(tc.in))
			got := string(out[0].Data)
			if !strings.HasPrefix(got, tc.prefix) || !strings.HasSuffix(got, tc.suffix) {
				t.Errorf("%s gives\n%s\nwant it to start with %q and end with %q", strings.Join(tc.steps, " | "), got, tc.prefix, tc.suffix)
			}
		})
	}
}
