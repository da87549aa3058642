package embedgen

import (
	"bytes"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// snapshot returns every file under dir, by slash-separated relative path,
// with its bytes.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Type()&iofs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[filepath.ToSlash(rel)] = []byte("symlink to " + target)
			return err
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// dirs returns the directories below dir, sorted, as slash-separated
// relative paths.
func dirs(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d iofs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func sameFiles(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	gk, wk := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))
	if !slices.Equal(gk, wk) {
		t.Fatalf("files differ:\n got %q\nwant %q", gk, wk)
	}
	for _, k := range gk {
		if !bytes.Equal(got[k], want[k]) {
			t.Errorf("%s differs", k)
		}
	}
}

// leftovers returns the names in dir that Generate uses for its temporary
// directories.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".bakefs-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestDeterministic generates the same tree, copied to two places, into two
// package directories in different places and time zones, and compares
// every file byte for byte.
func TestDeterministic(t *testing.T) {
	for _, form := range []ManifestForm{ManifestTable, ManifestGo} {
		t.Run(form.String(), func(t *testing.T) {
			var snaps []map[string][]byte
			for i, tz := range []string{"UTC", "Asia/Kathmandu"} {
				t.Setenv("TZ", tz)
				tree := filepath.Join(t.TempDir(), "tree", strings.Repeat("x", i+1))
				writeTree(t, tree, smallTree())
				dir := filepath.Join(t.TempDir(), "deep", strings.Repeat("y", i+1), "assets")
				if err := Generate(Options{Tree: tree, Dir: dir, Manifest: form}); err != nil {
					t.Fatal(err)
				}
				snaps = append(snaps, snapshot(t, dir))
			}
			sameFiles(t, snaps[1], snaps[0])
			if _, ok := snaps[0]["_data/.well-known/security.txt"]; !ok {
				t.Errorf("hidden file not copied: %q", slices.Sorted(maps.Keys(snaps[0])))
			}
		})
	}
}

// TestLayout checks which files Generate writes and that each data file
// holds the bytes of the tree.
func TestLayout(t *testing.T) {
	tree := t.TempDir()
	m := writeTree(t, tree, smallTree())
	dir := filepath.Join(t.TempDir(), "assets")
	if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, dir)
	want := map[string][]byte{}
	for _, e := range m.Files {
		names := []string{e.Path}
		for _, enc := range e.Encodings {
			names = append(names, enc.Path)
		}
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(n)))
			if err != nil {
				t.Fatal(err)
			}
			want[dataDir+"/"+n] = b
		}
	}
	for _, n := range []string{GoFile, TestFile, TableFile, MarkerFile} {
		want[n] = got[n]
	}
	sameFiles(t, got, want)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("package directory mode %v, want 0755", fi.Mode().Perm())
	}
}

// TestRegenerate replaces a previous package: stale data files disappear and
// no temporary directory is left behind.
func TestRegenerate(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	parent := t.TempDir()
	dir := filepath.Join(parent, "assets")
	if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, dataDir, "css/site.css.br")); err != nil {
		t.Fatal(err)
	}
	tree2 := t.TempDir()
	writeTree(t, tree2, []testFile{{path: "css/site.css", body: "p{}\n", hashed: true}})
	if err := Generate(Options{Tree: tree2, Dir: dir, Manifest: ManifestGo}); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(snapshot(t, dir)))
	want := []string{"_data/css/site.css", MarkerFile, GoFile, TestFile}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after regenerating: %q, want %q", got, want)
	}
	if l := leftovers(t, parent); len(l) > 0 {
		t.Errorf("left behind: %q", l)
	}
	// An empty directory is taken too.
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Generate(Options{Tree: tree2, Dir: empty}); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyDirectories generates into a package directory that holds only
// empty directories, as Bazel leaves it before the action runs (the
// declared _data directory), and checks that it is replaced by exactly the
// package written into a new directory.
func TestEmptyDirectories(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	want := filepath.Join(t.TempDir(), "assets")
	if err := Generate(Options{Tree: tree, Dir: want}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dirs []string // directories below the package directory
	}{
		{name: "declared data directory", dirs: []string{"_data"}},
		{name: "nested and unrelated", dirs: []string{"_data/js/deep", "a/b/c", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "assets")
			for _, d := range tt.dirs {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, snapshot(t, dir), snapshot(t, want))
			if got, want := dirs(t, dir), dirs(t, want); !slices.Equal(got, want) {
				t.Errorf("directories %q, want %q", got, want)
			}
			if l := leftovers(t, parent); len(l) > 0 {
				t.Errorf("left behind: %q", l)
			}
		})
	}
}

// TestFailureKeepsPrevious makes a second run fail while copying and checks
// that the previous package is untouched.
func TestFailureKeepsPrevious(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	parent := t.TempDir()
	dir := filepath.Join(parent, "assets")
	if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	// The last file copied, so that most of the new package is written
	// when the run fails.
	put(t, tree, "js/app.js.gz", []byte("corrupt"))
	err := Generate(Options{Tree: tree, Dir: dir, Manifest: ManifestGo})
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("Generate = %v, want ErrMismatch", err)
	}
	sameFiles(t, snapshot(t, dir), before)
	if l := leftovers(t, parent); len(l) > 0 {
		t.Errorf("left behind: %q", l)
	}
}

// TestErrors checks that each kind of bad input gives its error, naming the
// file, and writes nothing.
func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, tree, dir string) Options // changes the small tree
		is    error                                        // errors.Is target; nil to skip
		op    string                                       // *PathError Op; "" when not a PathError
		path  string                                       // suffix of the PathError's Path
		text  string                                       // substring of the message
	}{
		{
			name:  "missing tree file",
			setup: func(t *testing.T, tree, dir string) Options { rm(t, tree, "js/app.js"); return Options{} },
			is:    iofs.ErrNotExist, op: "verify", path: filepath.FromSlash("/js/app.js"),
		},
		{
			name:  "missing variant",
			setup: func(t *testing.T, tree, dir string) Options { rm(t, tree, "css/site.css.br"); return Options{} },
			is:    iofs.ErrNotExist, op: "verify", path: filepath.FromSlash("/css/site.css.br"),
		},
		{
			name: "size mismatch",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, tree, "js/app.js", []byte("console.log(1)\n\n"))
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/js/app.js"), text: "16 or more bytes, manifest says 15",
		},
		{
			name: "shorter",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, tree, "js/app.js", []byte("console"))
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/js/app.js"), text: "7 bytes, manifest says 15",
		},
		{
			name: "hash mismatch",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, tree, "css/site.css.gz", flipLast(t, filepath.Join(tree, "css/site.css.gz")))
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/css/site.css.gz"), text: "sha256",
		},
		{
			name: "integrity mismatch",
			setup: func(t *testing.T, tree, dir string) Options {
				m := readTestManifest(t, tree)
				m.Files[0].Integrity = sri([]byte("other bytes"))
				putManifest(t, tree, m)
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/.well-known/security.txt"), text: "integrity",
		},
		{
			name: "not a regular file",
			setup: func(t *testing.T, tree, dir string) Options {
				rm(t, tree, "img/logo.png")
				if err := os.Mkdir(filepath.Join(tree, "img/logo.png"), 0o755); err != nil {
					t.Fatal(err)
				}
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/img/logo.png"), text: "not a regular file",
		},
		{
			// A link may point anywhere, but only to the bytes the
			// manifest describes: the same size, other bytes.
			name: "symlink to other bytes",
			setup: func(t *testing.T, tree, dir string) Options {
				outside := filepath.Join(t.TempDir(), "secret")
				if err := os.WriteFile(outside, []byte("console.log(2)\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				link(t, outside, filepath.Join(tree, "js/app.js"))
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/js/app.js"), text: "sha256",
		},
		{
			name: "symlink to a directory",
			setup: func(t *testing.T, tree, dir string) Options {
				link(t, t.TempDir(), filepath.Join(tree, "js/app.js"))
				return Options{}
			},
			is: ErrMismatch, op: "verify", path: filepath.FromSlash("/js/app.js"), text: "not a regular file but a directory",
		},
		{
			name: "dangling symlink",
			setup: func(t *testing.T, tree, dir string) Options {
				link(t, filepath.Join(t.TempDir(), "gone"), filepath.Join(tree, "css/site.css.br"))
				return Options{}
			},
			is: iofs.ErrNotExist, op: "verify", path: filepath.FromSlash("/css/site.css.br"),
		},
		{
			name: "manifest not a regular file",
			setup: func(t *testing.T, tree, dir string) Options {
				rm(t, tree, bakefs.ManifestName)
				if err := os.Mkdir(filepath.Join(tree, bakefs.ManifestName), 0o755); err != nil {
					t.Fatal(err)
				}
				return Options{}
			},
			is: bakefs.ErrManifest, op: "read", path: bakefs.ManifestName, text: "not a regular file but a directory",
		},
		{
			name:  "manifest missing",
			setup: func(t *testing.T, tree, dir string) Options { rm(t, tree, bakefs.ManifestName); return Options{} },
			is:    iofs.ErrNotExist, op: "read", path: bakefs.ManifestName,
		},
		{
			name: "manifest not JSON",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, tree, bakefs.ManifestName, []byte("{\"version\": 1, \"files\": ["))
				return Options{}
			},
			is: bakefs.ErrManifest, op: "parse", path: bakefs.ManifestName,
		},
		{
			name: "manifest unsorted",
			setup: func(t *testing.T, tree, dir string) Options {
				m := readTestManifest(t, tree)
				m.Files[0], m.Files[1] = m.Files[1], m.Files[0]
				raw := marshalUnchecked(t, m)
				put(t, tree, bakefs.ManifestName, raw)
				return Options{}
			},
			is: bakefs.ErrManifest, op: "parse", path: bakefs.ManifestName, text: "not sorted",
		},
		{
			name: "name go:embed cannot take",
			setup: func(t *testing.T, tree, dir string) Options {
				writeTree(t, tree, append(smallTree(), testFile{path: "js/what?.js", body: "x"}))
				return Options{}
			},
			is: ErrName, op: "embed", path: "js/what?.js", text: "'?'",
		},
		{
			name: "variant name go:embed cannot take",
			setup: func(t *testing.T, tree, dir string) Options {
				m := readTestManifest(t, tree)
				for i := range m.Files {
					if m.Files[i].Path == "js/app.js" {
						m.Files[i].Encodings[0].Path = "js/app:js.gz"
					}
				}
				putManifest(t, tree, m)
				return Options{}
			},
			is: ErrName, op: "embed", path: "js/app:js.gz",
		},
		{
			name: "vcs directory",
			setup: func(t *testing.T, tree, dir string) Options {
				writeTree(t, tree, append(smallTree(), testFile{path: ".git/config", body: "x"}))
				return Options{}
			},
			is: ErrName, op: "embed", path: ".git/config",
		},
		{
			name: "case collision",
			setup: func(t *testing.T, tree, dir string) Options {
				writeTree(t, tree, append(smallTree(), testFile{path: "JS/other.js", body: "x"}))
				return Options{}
			},
			is: ErrName, op: "embed", path: "js/app.js", text: "differs from JS only in case",
		},
		{
			name: "foreign directory",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, dir, "main.go", []byte("package main\n"))
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/main.go"),
		},
		{
			// Empty directories are taken (TestEmptyDirectories), but
			// not when a file hides at the bottom of one.
			name: "file below empty directories",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := os.MkdirAll(filepath.Join(dir, "_data", "img"), 0o755); err != nil {
					t.Fatal(err)
				}
				put(t, dir, "_data/js/notes.txt", []byte("keep me\n"))
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/_data/js/notes.txt"),
		},
		{
			name: "symlink among empty directories",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := os.MkdirAll(filepath.Join(dir, "_data"), 0o755); err != nil {
					t.Fatal(err)
				}
				link(t, t.TempDir(), filepath.Join(dir, "_data", "elsewhere"))
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/_data/elsewhere"),
		},
		{
			name: "file added to a generated directory",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
					t.Fatal(err)
				}
				put(t, dir, "_data/js/extra.js", []byte("x"))
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/_data/js/extra.js"),
		},
		{
			// Of several foreign files, the error names the first in
			// lexical order, depth first, whatever order the file system
			// lists them in.
			name: "files added to a generated directory",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
					t.Fatal(err)
				}
				for _, name := range []string{"zz.txt", "_data/x.txt", "_data/js/extra.js", "_data/js/z.js", "a.txt"} {
					put(t, dir, name, []byte("x"))
				}
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/_data/js/extra.js"),
		},
		{
			name: "directory added to a generated directory",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := Generate(Options{Tree: tree, Dir: dir}); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
					t.Fatal(err)
				}
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: filepath.FromSlash("/assets/sub"),
		},
		{
			name: "marker not written by bakefs",
			setup: func(t *testing.T, tree, dir string) Options {
				put(t, dir, MarkerFile, []byte("main.go\n"))
				put(t, dir, "main.go", []byte("package main\n"))
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: MarkerFile,
		},
		{
			name: "target is a file",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := os.WriteFile(dir, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: "assets",
		},
		{
			name: "target is a symbolic link",
			setup: func(t *testing.T, tree, dir string) Options {
				if err := os.Symlink(t.TempDir(), dir); err != nil {
					t.Skip("no symbolic links:", err)
				}
				return Options{}
			},
			is: ErrForeignDir, op: "replace", path: "assets",
		},
		{
			name:  "package main",
			setup: func(t *testing.T, tree, dir string) Options { return Options{Package: "main"} },
			is:    ErrOptions, text: `"main"`,
		},
		{
			name:  "package not an identifier",
			setup: func(t *testing.T, tree, dir string) Options { return Options{Package: "my-assets"} },
			is:    ErrOptions,
		},
		{
			name:  "import path",
			setup: func(t *testing.T, tree, dir string) Options { return Options{ImportPath: "example.test/a b"} },
			is:    ErrOptions,
		},
		{
			name:  "manifest form",
			setup: func(t *testing.T, tree, dir string) Options { return Options{Manifest: 7} },
			is:    ErrOptions, text: "ManifestForm(7)",
		},
		{
			name:  "package inside the tree",
			setup: func(t *testing.T, tree, dir string) Options { return Options{Dir: filepath.Join(tree, "gen")} },
			is:    ErrOptions, text: "overlap",
		},
		{
			name: "tree inside the package",
			setup: func(t *testing.T, tree, dir string) Options {
				return Options{Dir: filepath.Dir(tree), Package: "assets"}
			},
			is: ErrOptions, text: "overlap",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := filepath.Join(t.TempDir(), "tree")
			writeTree(t, tree, smallTree())
			parent := t.TempDir()
			dir := filepath.Join(parent, "assets")
			o := tt.setup(t, tree, dir)
			if o.Tree == "" {
				o.Tree = tree
			}
			if o.Dir == "" {
				o.Dir = dir
			}
			before := snapshot(t, parent)
			err := Generate(o)
			if err == nil {
				t.Fatal("Generate succeeded, want an error")
			}
			t.Log(err)
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if tt.op != "" {
				var pe *iofs.PathError
				if !errors.As(err, &pe) {
					t.Fatalf("error %T %v is not a *fs.PathError", err, err)
				}
				if pe.Op != tt.op || !strings.HasSuffix(pe.Path, tt.path) {
					t.Errorf("PathError Op %q Path %q, want %q …%s", pe.Op, pe.Path, tt.op, tt.path)
				}
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
			sameFiles(t, snapshot(t, parent), before)
			if l := leftovers(t, parent); len(l) > 0 {
				t.Errorf("left behind: %q", l)
			}
		})
	}
}

// link replaces the file at name, if any, by a symbolic link to target,
// and skips the test on a system without symbolic links.
func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Remove(name); err != nil && !errors.Is(err, iofs.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Skip("no symbolic links:", err)
	}
}

func rm(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
}

func flipLast(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	return b
}

func readTestManifest(t *testing.T, tree string) *bakefs.Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(tree, bakefs.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bakefs.ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRefuseWorkingDirectory is the mistaken `bakefs embed -out .` in a
// module: Generate must refuse, and leave every file in place.
func TestRefuseWorkingDirectory(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, smallTree())
	mod := t.TempDir()
	put(t, mod, "go.mod", []byte("module example.test\n"))
	put(t, mod, "main.go", []byte("package main\n\nfunc main() {}\n"))
	before := snapshot(t, mod)
	t.Chdir(mod)
	err := Generate(Options{Tree: tree, Dir: ".", Package: "assets"})
	if !errors.Is(err, ErrForeignDir) {
		t.Fatalf("Generate = %v, want ErrForeignDir", err)
	}
	sameFiles(t, snapshot(t, mod), before)
	if l := leftovers(t, filepath.Dir(mod)); len(l) > 0 {
		t.Errorf("left behind: %q", l)
	}
}
