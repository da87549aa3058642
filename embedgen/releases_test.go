package embedgen

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
)

// writeReleaseTree writes the small tree with js/app.js's file of the
// release before kept and a delta of js/app.js against it, and returns the
// manifest.
func writeReleaseTree(t *testing.T, dir string) *bakefs.Manifest {
	t.Helper()
	m := writeTree(t, dir, smallTree())
	old := []byte("console.log(0)\n")
	kept := bakefs.Entry{Path: bakefs.HashedName("js/app.js", hexSHA256(old)), Previous: "js/app.js", Release: 1,
		Size: int64(len(old)), Type: "text/javascript; charset=utf-8", SHA256: hexSHA256(old), Integrity: sri(old)}
	put(t, dir, kept.Path, old)
	delta := []byte("\x5e\x2a\x4d\x18\x20\x00\x00\x00" + strings.Repeat("d", 32) + "delta bytes")
	app, _ := m.Lookup("js/app.js")
	app.Deltas = []bakefs.Delta{{Dictionary: kept.SHA256, Path: bakefs.DeltaPath(app.Path, kept.SHA256), Size: int64(len(delta)), SHA256: hexSHA256(delta)}}
	put(t, dir, app.Deltas[0].Path, delta)
	m.Files = append(m.Files, kept)
	slices.SortFunc(m.Files, func(a, b bakefs.Entry) int { return strings.Compare(a.Path, b.Path) })
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	putManifest(t, dir, m)
	return m
}

// TestGenerateReleases: a tree with a kept file and a delta gives a
// package, in either form, that embeds both and holds the manifest whole.
func TestGenerateReleases(t *testing.T) {
	tree := t.TempDir()
	m := writeReleaseTree(t, tree)
	app, _ := m.Lookup("js/app.js")
	for _, form := range []ManifestForm{ManifestTable, ManifestGo} {
		t.Run(form.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "assets")
			if err := Generate(Options{Tree: tree, Dir: dir, Manifest: form}); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{app.Deltas[0].Path, bakefs.HashedName("js/app.js", app.Deltas[0].Dictionary)} {
				if _, err := os.Stat(filepath.Join(dir, dataDir, filepath.FromSlash(name))); err != nil {
					t.Errorf("the package does not embed %s: %v", name, err)
				}
			}
			src, err := os.ReadFile(filepath.Join(dir, GoFile))
			if err != nil {
				t.Fatal(err)
			}
			if form == ManifestGo {
				for _, re := range []string{`Deltas:\s+\[\]bakefs\.Delta\{`, `Previous:\s+"js/app\.js",`, `Release:\s+1,`} {
					if !regexp.MustCompile(re).Match(src) {
						t.Errorf("the Go manifest has no %s", re)
					}
				}
				return
			}
			tab, err := os.ReadFile(filepath.Join(dir, TableFile))
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseTable(string(tab), m.Version)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("the table reads back as\n%+v\nwant\n%+v", got, m)
			}
			if !strings.Contains(string(src), "func (r *row) deltas(") {
				t.Error("the package cannot read the deltas of its table")
			}
		})
	}
}
