package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

// concatRoot writes files under a new source root and returns it.
func concatRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		file := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// runConcat runs one concat step on an asset named out under root.
func runConcat(t *testing.T, root, text, out string) ([]*transform.Asset, *transform.Context, error) {
	t.Helper()
	s, err := transform.NewStep(text)
	if err != nil {
		t.Fatalf("NewStep(%q): %v", text, err)
	}
	ctx := transform.NewContext(context.Background(), root, transform.Release)
	res, err := s.Step.Run(ctx, []*transform.Asset{{Path: out, Source: out}})
	return res, ctx, err
}

// TestConcat: the parts are joined in the order given, a part without a
// final newline gets one before the next, the banner and footer sit on
// lines of their own, and every part is a dependency.
func TestConcat(t *testing.T) {
	root := concatRoot(t, map[string]string{
		"js/gestures.js": "class Gestures {}\n// no newline after this comment",
		"js/app.js":      "new Gestures()\n",
	})
	out, ctx, err := runConcat(t, root, `concat:files=js/gestures.js+js/app.js,banner="/*! app */",footer="/*! end */"`, "js/all.js")
	if err != nil {
		t.Fatal(err)
	}
	want := "/*! app */\nclass Gestures {}\n// no newline after this comment\nnew Gestures()\n/*! end */\n"
	if len(out) != 1 || out[0].Path != "js/all.js" || string(out[0].Data) != want {
		t.Fatalf("got %d assets, first %q:\n%q\nwant js/all.js:\n%q", len(out), out[0].Path, out[0].Data, want)
	}
	wantDeps := []string{filepath.Join(root, "js/app.js"), filepath.Join(root, "js/gestures.js")}
	if got := ctx.Deps(); strings.Join(got, " ") != strings.Join(wantDeps, " ") {
		t.Errorf("deps %q, want %q", got, wantDeps)
	}
	// The last part keeps its bytes as they are when nothing follows.
	out, _, err = runConcat(t, root, "concat:files=js/app.js+js/gestures.js", "js/all.js")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out[0].Data), "new Gestures()\nclass Gestures {}\n// no newline after this comment"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestConcatSourceMap: an external map is a second asset, named by a
// sourceMappingURL comment of the output's kind; its sources are relative
// to the map and every line of a part maps to that line of the part.
func TestConcatSourceMap(t *testing.T) {
	root := concatRoot(t, map[string]string{
		"src/a.css":   "a { color: red }\nb { color: blue }\n",
		"theme/b.css": "i { color: green }",
	})
	out, _, err := runConcat(t, root, `concat:files=src/a.css+theme/b.css,banner="/* x */",sourcemap=external`, "css/all.css")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[1].Path != "css/all.css.map" {
		t.Fatalf("got %d assets, want the sheet and css/all.css.map", len(out))
	}
	if got, want := string(out[0].Data), "/* x */\na { color: red }\nb { color: blue }\ni { color: green }\n/*# sourceMappingURL=all.css.map */\n"; got != want {
		t.Errorf("sheet %q, want %q", got, want)
	}
	// Line 0, the banner, maps to nothing; then a.css lines 0 and 1, then
	// b.css line 0 (source +1, line -1).
	wantMap := `{"version":3,"file":"all.css","sources":["../src/a.css","../theme/b.css"],"sourcesContent":["a { color: red }\nb { color: blue }\n","i { color: green }"],"names":[],"mappings":";AAAA;AACA;ACDA"}` + "\n"
	if got := string(out[1].Data); got != wantMap {
		t.Errorf("map\n%s\nwant\n%s", got, wantMap)
	}
	checkMapWithNode(t, out[1].Data, map[int]mapped{1: {"../src/a.css", 0}, 2: {"../src/a.css", 1}, 3: {"../theme/b.css", 0}})

	out, _, err = runConcat(t, root, "concat:files=src/a.css,sourcemap=inline", "all.css")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || !strings.Contains(string(out[0].Data), "/*# sourceMappingURL=data:application/json;base64,") {
		t.Errorf("inline map: got %d assets, %q", len(out), out[0].Data)
	}
}

// checkMapWithNode reads the map with Node's own source map reader and
// checks where generated lines (0-based) map: to a source and a line.
func checkMapWithNode(t *testing.T, mapJSON []byte, want map[int]mapped) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	const script = `const {SourceMap} = require("node:module");
const m = new SourceMap(JSON.parse(require("fs").readFileSync(0, "utf8")));
const out = {};
for (const line of JSON.parse(process.argv[1])) { const e = m.findEntry(line, 0); out[line] = {source: e.originalSource, line: e.originalLine}; }
process.stdout.write(JSON.stringify(out));`
	lines, _ := json.Marshal(slices.Sorted(maps.Keys(want)))
	cmd := exec.Command(node, "-e", script, string(lines))
	cmd.Stdin = bytes.NewReader(mapJSON)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got map[int]mapped
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %s: %v", out, err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("node reads the map as %v, want %v", got, want)
	}
}

// mapped is where a generated line maps to.
type mapped struct {
	Source string `json:"source"`
	Line   int    `json:"line"`
}

// TestConcatErrors: a missing part is an error naming it; no files, a
// path out of the source root and a map for a file that cannot name one
// are bad options.
func TestConcatErrors(t *testing.T) {
	root := concatRoot(t, map[string]string{"a.js": "1\n"})
	_, _, err := runConcat(t, root, "concat:files=a.js+js/missing.js", "all.js")
	var se *transform.SourceError
	if !errors.As(err, &se) || se.File != "js/missing.js" {
		t.Errorf("missing part: %v, want a SourceError naming js/missing.js", err)
	}
	_, _, err = runConcat(t, root, "concat:files=a.js,sourcemap=external", "all.txt")
	if !errors.Is(err, transform.ErrBadOption) {
		t.Errorf("map of a text file: %v, want ErrBadOption", err)
	}
	steptest.CheckBadOption(t, "concat", "files is required")
	steptest.CheckBadOption(t, "concat:files=../secret.js", `"../secret.js" is not a slash-separated path`)
	steptest.CheckBadOption(t, "concat:files=/etc/passwd", "not a slash-separated path")
	steptest.CheckBadOption(t, "concat:files=a.js,sourcemap=yes", "sourcemap")
}
