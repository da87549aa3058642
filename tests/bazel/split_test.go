package bazel_test

// The code splitting of one asset_transform with several srcs
// (//tests/bazel:split_js): split/app.ts and split/admin.ts both import
// split/lib/shared.ts, and app.ts loads split/lib/lazy.ts with import().
// The tree must hold the two entries, exactly one shared chunk that both
// import, and a chunk of its own for lazy.ts that app.js loads on demand,
// with the module graph in the manifest; go_embed_data (split_assets) must
// embed it with the graph, hashed names for the entries and the chunks'
// own names.

import (
	"bytes"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/tests/bazel/splitassets"
)

// splitTree is the output tree of //tests/bazel:split_js in the test's
// runfiles.
const splitTree = "split_js"

// The functions of the two library modules, as esbuild writes them, and a
// string of each that appears once in its module.
const (
	sharedFunc = "function sharedBanner("
	sharedText = "bakefs-shared-banner"
	lazyFunc   = "function lazyReport("
	lazyText   = "bakefs-lazy-report"
)

// splitManifest reads the manifest of the split tree and checks that it
// lists exactly the files of the directory.
func splitManifest(t *testing.T) *bakefs.Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(splitTree, bakefs.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bakefs.ParseManifest(raw)
	if err != nil {
		t.Fatalf("%s/%s: %v", splitTree, bakefs.ManifestName, err)
	}
	var listed, onDisk []string
	for _, e := range m.Files {
		listed = append(listed, e.Path)
	}
	err = filepath.WalkDir(splitTree, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(splitTree, p)
		if rel != bakefs.ManifestName {
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(onDisk)
	if strings.Join(listed, " ") != strings.Join(onDisk, " ") {
		t.Fatalf("the manifest lists %q, the tree holds %q", listed, onDisk)
	}
	return m
}

func splitFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(splitTree, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// specifier returns how a module in split/ names the chunk p of split/.
func specifier(p string) string { return "./" + path.Base(p) }

// splitGraph checks the files and module graph of the tree and returns the
// shared and the lazy chunk.
func splitGraph(t *testing.T, m *bakefs.Manifest) (shared, lazy string) {
	t.Helper()
	app, ok := m.Lookup("split/app.js")
	if !ok {
		t.Fatalf("no split/app.js in the tree")
	}
	admin, ok := m.Lookup("split/admin.js")
	if !ok {
		t.Fatalf("no split/admin.js in the tree")
	}
	if len(app.Imports) != 1 || len(admin.Imports) != 1 || app.Imports[0] != admin.Imports[0] {
		t.Fatalf("imports: app.js %q, admin.js %q; want one chunk, the same for both", app.Imports, admin.Imports)
	}
	if len(app.DynamicImports) != 1 {
		t.Fatalf("dynamicImports of app.js = %q, want one chunk (lib/lazy.ts)", app.DynamicImports)
	}
	if len(admin.DynamicImports) != 0 {
		t.Errorf("dynamicImports of admin.js = %q, want none", admin.DynamicImports)
	}
	shared, lazy = app.Imports[0], app.DynamicImports[0]
	if shared == lazy {
		t.Fatalf("app.js imports %s both statically and with import()", shared)
	}
	want := []string{"split/admin.js", "split/app.js", lazy, shared}
	sort.Strings(want)
	var got []string
	for _, e := range m.Files {
		got = append(got, e.Path)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("tree = %q, want the entries and the two chunks %q", got, want)
	}
	if !regexp.MustCompile(`^split/chunk-[0-9A-Z]{8}\.js$`).MatchString(shared) {
		t.Errorf("shared chunk %q is not named split/chunk-<hash>.js (chunk-names' default)", shared)
	}
	if !regexp.MustCompile(`^split/[^/]*lazy[^/]*-[0-9A-Z]{8}\.js$`).MatchString(lazy) {
		t.Errorf("lazy chunk %q is not named after lib/lazy.ts and its hash", lazy)
	}
	for _, p := range []string{shared, lazy} {
		e, _ := m.Lookup(p)
		if !e.Fingerprinted {
			t.Errorf("%s is not fingerprinted; its name is its hash", p)
		}
		if e.Hashed != "" {
			t.Errorf("%s has the hashed name %s; asset_transform has no hash", p, e.Hashed)
		}
		if len(e.Imports)+len(e.DynamicImports)+len(e.CSS) != 0 {
			t.Errorf("%s has a module graph %+v; it imports nothing", p, e)
		}
		if !strings.HasPrefix(e.Type, "text/javascript") {
			t.Errorf("%s has type %q", p, e.Type)
		}
	}
	for _, e := range []*bakefs.Entry{app, admin} {
		if e.Fingerprinted || e.Hashed != "" {
			t.Errorf("entry %s: fingerprinted %v, hashed %q; an entry keeps its logical name", e.Path, e.Fingerprinted, e.Hashed)
		}
		if want := strings.TrimSuffix(e.Path, ".js") + ".ts"; e.Source != want {
			t.Errorf("source of %s = %q, want %q", e.Path, e.Source, want)
		}
	}
	return shared, lazy
}

func TestSplitTree(t *testing.T) {
	m := splitManifest(t)
	shared, lazy := splitGraph(t, m)
	app, admin := splitFile(t, "split/app.js"), splitFile(t, "split/admin.js")
	sharedJS, lazyJS := splitFile(t, shared), splitFile(t, lazy)

	tests := []struct {
		name, file string
		b          []byte
		text       string
		count      int
	}{
		{"shared chunk holds sharedBanner", shared, sharedJS, sharedFunc, 1},
		{"shared chunk holds its text once", shared, sharedJS, sharedText, 1},
		{"shared chunk exports it", shared, sharedJS, "export", 1},
		{"shared chunk has no lazy code", shared, sharedJS, lazyText, 0},
		{"app.js imports the shared chunk", "split/app.js", app, `from "` + specifier(shared) + `"`, 1},
		{"admin.js imports the shared chunk", "split/admin.js", admin, `from "` + specifier(shared) + `"`, 1},
		{"app.js has no sharedBanner inline", "split/app.js", app, sharedFunc, 0},
		{"admin.js has no sharedBanner inline", "split/admin.js", admin, sharedFunc, 0},
		{"app.js has no shared text", "split/app.js", app, sharedText, 0},
		{"admin.js has no shared text", "split/admin.js", admin, sharedText, 0},
		{"app.js loads the lazy chunk with import()", "split/app.js", app, `import("` + specifier(lazy) + `")`, 1},
		{"app.js has no lazy code inline", "split/app.js", app, lazyFunc, 0},
		{"app.js has no lazy text", "split/app.js", app, lazyText, 0},
		{"admin.js does not load the lazy chunk", "split/admin.js", admin, specifier(lazy), 0},
		{"admin.js has no import()", "split/admin.js", admin, "import(", 0},
		{"lazy chunk holds lazyReport", lazy, lazyJS, lazyFunc, 1},
		{"lazy chunk holds its text once", lazy, lazyJS, lazyText, 1},
		{"lazy chunk has no shared code", lazy, lazyJS, sharedText, 0},
		{"no TypeScript left in app.js", "split/app.js", app, "Promise<string>", 0},
		{"no TypeScript left in the shared chunk", shared, sharedJS, "who: string", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bytes.Count(tt.b, []byte(tt.text)); got != tt.count {
				t.Errorf("%s holds %q %d times, want %d:\n%s", tt.file, tt.text, got, tt.count, tt.b)
			}
		})
	}
}

// jsImports matches the module specifiers of import statements and of
// import() in esbuild's output.
var jsImports = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(\s*)"([^"]+)"`)

// TestSplitEmbedded checks the package that go_embed_data makes of the
// split tree with hash = True: the same files and module graph, hashed
// names for the entries only, every import of every script a file of the
// package, and the handler serving the chunks as immutable.
func TestSplitEmbedded(t *testing.T) {
	m := splitManifest(t)
	shared, lazy := splitGraph(t, m)
	fsys := splitassets.FS

	got, err := iofs.Glob(fsys, "split/*")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range m.Files {
		want = append(want, e.Path)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("embedded files = %q, the tree has %q", got, want)
	}
	for _, name := range got {
		b, err := fsys.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, splitFile(t, name)) {
			t.Errorf("embedded %s differs from %s/%s", name, splitTree, name)
		}
		for _, sm := range jsImports.FindAllSubmatch(b, -1) {
			target := path.Join(path.Dir(name), string(sm[1]))
			if _, ok := fsys.Entry(target); !ok {
				t.Errorf("%s imports %q, which is not a file of the package (%s)", name, sm[1], target)
			}
		}
	}

	for _, name := range []string{"split/app.js", "split/admin.js"} {
		if p := splitassets.Path(name); p == name {
			t.Errorf("Path(%q) = %q; go_embed_data has hash = True", name, p)
		}
		if pre, err := fsys.ModulePreloads(name); err != nil || strings.Join(pre, " ") != shared {
			t.Errorf("ModulePreloads(%q) = %q, %v; want [%s]", name, pre, err, shared)
		}
	}
	for _, name := range []string{shared, lazy} {
		if p := splitassets.Path(name); p != name {
			t.Errorf("Path(%q) = %q; a chunk keeps its content name", name, p)
		}
	}
	e, _ := fsys.Entry("split/app.js")
	if strings.Join(e.Imports, " ") != shared || strings.Join(e.DynamicImports, " ") != lazy {
		t.Errorf("embedded app.js: imports %q, dynamicImports %q; want [%s], [%s]", e.Imports, e.DynamicImports, shared, lazy)
	}

	h := splitassets.Handler()
	for _, tt := range []struct{ path, cache string }{
		{"/split/app.js", "no-cache"},
		{"/" + splitassets.Path("split/app.js"), "public, max-age=31536000, immutable"},
		{"/" + shared, "public, max-age=31536000, immutable"},
		{"/" + lazy, "public, max-age=31536000, immutable"},
	} {
		req := httptest.NewRequest(http.MethodGet, tt.path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != tt.cache {
			t.Errorf("GET %s: %d, Cache-Control %q; want 200, %q", tt.path, rec.Code, rec.Header().Get("Cache-Control"), tt.cache)
		}
	}
}
