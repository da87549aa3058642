package embedgen

import (
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"reflect"
	"strings"
	"testing"
)

// roundTrip writes m as a table and reads it back.
func roundTrip(t *testing.T, m *bakefs.Manifest) {
	t.Helper()
	tab := table(m)
	got, err := parseTable(string(tab), m.Version)
	if err != nil {
		t.Fatalf("parseTable: %v\n%s", err, tab)
	}
	if len(m.Files) == 0 && len(got.Files) == 0 {
		return
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("read back\n%+v\nwant\n%+v\ntable:\n%s", got, m, tab)
	}
}

func TestTableRoundTrip(t *testing.T) {
	odd := bakefs.Entry{Path: "#not-a-comment.txt", Source: "\"quoted\"\tand tab\nand line", Size: 3, Type: "text/plain; a=\"b\"",
		SHA256: strings.Repeat("a", 64), Hashed: "x\r\ny", Integrity: "sha384-x", Width: -1, Height: 1 << 40,
		Encodings: []bakefs.Encoding{{Name: "br", Path: "", Size: 0, SHA256: "\xff\xfe"}, {Name: "gzip", Path: "a.gz", Size: 9, SHA256: "s"}}}
	graph := odd
	graph.Imports = []string{"\"q\"", "a\tb", "c d"}
	graph.CSS = []string{"\xff"}
	tests := []struct {
		name string
		m    *bakefs.Manifest
	}{
		{"empty", &bakefs.Manifest{Version: 1}},
		{"small tree", nil},
		{"odd strings", &bakefs.Manifest{Version: 1, Files: []bakefs.Entry{odd, {Path: "b", Type: "t"}}}},
		{"module graph", &bakefs.Manifest{Version: 1, Files: []bakefs.Entry{graph, {Path: "b", Type: "t"},
			{Path: "c", Type: "t", DynamicImports: []string{"b"}, Encodings: []bakefs.Encoding{{Name: "gzip", Path: "c.gz", SHA256: "s"}}}}}},
		{"releases", &bakefs.Manifest{Version: 1, Files: []bakefs.Entry{
			{Path: "a.1234567890.js", Type: "t", Previous: "a\tb.js", Release: 2, Encodings: []bakefs.Encoding{{Name: "br", Path: "x", SHA256: "s"}}},
			{Path: "b", Type: "t", Deltas: []bakefs.Delta{{Dictionary: "d1", Path: "b.d1.dcz", Size: 50, SHA256: "\"s"}, {Dictionary: "d2", Path: "p", Size: 41, SHA256: "t"}}},
			{Path: "c", Type: "t"}}}},
		{"releases and module graph", &bakefs.Manifest{Version: 1, Files: []bakefs.Entry{graph,
			{Path: "b", Type: "t", Deltas: []bakefs.Delta{{Dictionary: "d1", Path: "b.d1.dcz", Size: 50, SHA256: "s"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m
			if m == nil {
				m = writeTree(t, t.TempDir(), smallTree())
			}
			roundTrip(t, m)
		})
	}
}

func TestTableModuleGraph(t *testing.T) {
	m := writeTree(t, t.TempDir(), smallTree())
	if got := table(m); !strings.HasPrefix(string(got), tableHeader) || strings.Contains(string(got), graphColumns) {
		t.Errorf("a table without module graph has graph columns:\n%s", got)
	}
	app := &m.Files[4]
	if app.Path != "js/app.js" {
		t.Fatalf("Files[4] is %s", app.Path)
	}
	app.Imports, app.CSS = []string{"_next/chunk [1].js"}, []string{"css/site.css"}
	got := string(table(m))
	if header := entryColumns + graphColumns + encodingColumns; !strings.HasPrefix(got, header) {
		t.Errorf("header of a table with a module graph:\n%s\nwant\n%s", got, header)
	}
	// Counts and paths after height, before the encodings; zeros on the
	// other lines.
	if want := "\t0\t0\t1\t_next/chunk [1].js\t0\t1\tcss/site.css\tgzip\t"; !strings.Contains(got, want) {
		t.Errorf("line of js/app.js without %q:\n%s", want, got)
	}
	if want := "\t16\t8\t0\t0\t0\n"; !strings.Contains(got, want) {
		t.Errorf("line of img/logo.png without %q:\n%s", want, got)
	}
}

func TestParseTableErrors(t *testing.T) {
	const header = tableHeader
	const graph = entryColumns + graphColumns + encodingColumns
	tests := []struct {
		name, text string
	}{
		{"few fields", header + "a\t\t1\n"},
		{"size not a number", header + "a\t\tx\tt\th\t\ti\t0\t0\n"},
		{"half an encoding", header + "a\t\t1\tt\th\t\ti\t0\t0\tgzip\ta.gz\n"},
		{"bad quote", header + "\"a\t\t1\tt\th\t\ti\t0\t0\n"},
		{"no graph columns", graph + "a\t\t1\tt\th\t\ti\t0\t0\n"},
		{"count beyond the line", graph + "a\t\t1\tt\th\t\ti\t0\t0\t0\t0\t2\tb.css\n"},
		{"negative count", graph + "a\t\t1\tt\th\t\ti\t0\t0\t-1\t0\t0\n"},
		{"count not a number", graph + "a\t\t1\tt\th\t\ti\t0\t0\tx\t0\t0\n"},
		{"no release columns", entryColumns + releaseColumns + encodingColumns + "a\t\t1\tt\th\t\ti\t0\t0\n"},
		{"deltas beyond the line", entryColumns + releaseColumns + encodingColumns + "a\t\t1\tt\th\t\ti\t0\t0\t\t0\t2\td\tp\t41\ts\n"},
		{"release not a number", entryColumns + releaseColumns + encodingColumns + "a\t\t1\tt\th\t\ti\t0\t0\tp\tx\t0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m, err := parseTable(tt.text, 1); err == nil {
				t.Fatalf("parseTable = %+v, want an error", m)
			}
		})
	}
}

// FuzzTable checks that any strings and numbers survive the table.
func FuzzTable(f *testing.F) {
	f.Add("js/app.js", "js/app.ts", "text/javascript", "js/app.0123456789.js", int64(12), 0, "gzip", "js/app.js.gz")
	f.Add("\"", "\t", "\n", "\r", int64(-1), 1<<30, "", "\xff")
	f.Fuzz(func(t *testing.T, path, source, typ, hashed string, size int64, width int, enc, encPath string) {
		m := &bakefs.Manifest{Version: 1, Files: []bakefs.Entry{
			{Path: path, Source: source, Size: size, Type: typ, SHA256: typ + path, Hashed: hashed, Integrity: source, Width: width, Height: -width,
				Encodings: []bakefs.Encoding{{Name: enc, Path: encPath, Size: -size, SHA256: hashed}}, Imports: []string{hashed, enc}, CSS: []string{typ}},
			{Path: encPath, Type: enc},
		}}
		roundTrip(t, m)
	})
}

func TestManifestFormFlag(t *testing.T) {
	for _, want := range []ManifestForm{ManifestTable, ManifestGo} {
		var f ManifestForm = 9
		if err := f.Set(want.String()); err != nil || f != want {
			t.Errorf("Set(%q) = %v, form %v; want %v", want.String(), err, f, want)
		}
	}
	var f ManifestForm
	if err := f.Set("json"); !errors.Is(err, ErrOptions) {
		t.Errorf("Set(\"json\") = %v, want ErrOptions", err)
	}
}
