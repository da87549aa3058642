package embedgen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/internal/golden"
)

// TestGolden compares every file Generate writes besides the data, for the
// small tree in each manifest form, with testdata/golden/<form>/.
func TestGolden(t *testing.T) {
	for _, form := range []ManifestForm{ManifestTable, ManifestGo} {
		t.Run(form.String(), func(t *testing.T) {
			tree := t.TempDir()
			writeTree(t, tree, smallTree())
			dir := filepath.Join(t.TempDir(), "assets")
			err := Generate(Options{Tree: tree, Dir: dir, ImportPath: "example.test/app/assets", Manifest: form})
			if err != nil {
				t.Fatal(err)
			}
			names := []string{GoFile, MarkerFile}
			if form == ManifestTable {
				names = append(names, TableFile)
			}
			for _, name := range names {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, form.String()+"/"+name+".golden", got)
			}
		})
	}
}

func TestEmbedPatterns(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  []string
	}{
		{"plain", []string{"a.js", "css/b.css"}, []string{`"_data"`}},
		{"hidden", []string{".env", "_x/a.js", "a/.b/c", "a/_b"}, []string{`"_data/.env"`, `"_data/_x/a.js"`, `"_data/a/.b/c"`, `"_data/a/_b"`}},
		{"mixed", []string{".well-known/x", "a.js"}, []string{`"_data"`, `"_data/.well-known/x"`}},
		{"bracket", []string{"_a[1].js", "b [2].js"}, []string{`"_data"`, `"_data/_a[[]1].js"`}},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := embedPatterns(tt.files)
			if len(got) != len(tt.want) {
				t.Fatalf("embedPatterns(%q) = %q, want %q", tt.files, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("embedPatterns(%q) = %q, want %q", tt.files, got, tt.want)
				}
			}
		})
	}
}

// TestTableReaderSections checks what writeTableReader copies: the code
// that reads the module graph only for a manifest that has one, that
// which reads kept files and deltas only for a manifest that has them,
// and no marker line either way.
func TestTableReaderSections(t *testing.T) {
	for _, graph := range []bool{false, true} {
		for _, releases := range []bool{false, true} {
			var b bytes.Buffer
			writeTableReader(&b, graph, releases)
			code := b.String()
			for _, marker := range []string{graphStart, graphEnd, releasesStart, releasesEnd, readerStart} {
				if strings.Contains(code, marker) {
					t.Errorf("graph %v, releases %v: marker %s is left:\n%s", graph, releases, marker, code)
				}
			}
			for _, s := range []string{"func (r *row) list(", "e.Imports = r.list(&paths)", "const graphColumns"} {
				if strings.Contains(code, s) != graph {
					t.Errorf("graph %v: %q copied: %v", graph, s, !graph)
				}
			}
			for _, s := range []string{"func (r *row) deltas(", "e.Deltas = r.deltas(&deltas)", "const releaseColumns"} {
				if strings.Contains(code, s) != releases {
					t.Errorf("releases %v: %q copied: %v", releases, s, !releases)
				}
			}
		}
	}
}
