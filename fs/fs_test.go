package fs_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"io"
	iofs "io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
	"testing/iotest"
)

func TestFSConformance(t *testing.T) {
	fsys, _, _ := newTestFS(t)
	if err := fstest.TestFS(fsys, testLogical()...); err != nil {
		t.Fatal(err)
	}
	t.Run("sub", func(t *testing.T) {
		sub, err := fsys.Sub("js")
		if err != nil {
			t.Fatal(err)
		}
		if err := fstest.TestFS(sub, "app.js", "vendor/lib.js"); err != nil {
			t.Fatal(err)
		}
		subsub, err := iofs.Sub(sub, "vendor")
		if err != nil {
			t.Fatal(err)
		}
		if err := fstest.TestFS(subsub, "lib.js"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("empty", func(t *testing.T) {
		empty, err := bakefs.New(fstest.MapFS{}, &bakefs.Manifest{Version: bakefs.ManifestVersion})
		if err != nil {
			t.Fatal(err)
		}
		if err := fstest.TestFS(empty); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("dirfs", func(t *testing.T) {
		// A tree on disk: files are opened per read, not shared.
		tree, m := buildTree(testFiles)
		dir := t.TempDir()
		if err := os.CopyFS(dir, tree); err != nil {
			t.Fatal(err)
		}
		disk, err := bakefs.New(os.DirFS(dir), m)
		if err != nil {
			t.Fatal(err)
		}
		if err := fstest.TestFS(disk, testLogical()...); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("plain-reader", func(t *testing.T) {
		// Files without io.ReaderAt or io.Seeker are read into memory.
		tree, m := buildTree(testFiles)
		plain, err := bakefs.New(readOnlyFS{tree}, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := fstest.TestFS(plain, testLogical()...); err != nil {
			t.Fatal(err)
		}
	})
}

// readOnlyFS hides every method of its files but Read, Stat and Close.
type readOnlyFS struct{ fsys iofs.FS }

func (r readOnlyFS) Open(name string) (iofs.File, error) {
	f, err := r.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return struct{ iofs.File }{f}, nil
}

func TestNewErrors(t *testing.T) {
	tree, m := buildTree(testFiles)
	clone := func() *bakefs.Manifest {
		c := *m
		c.Files = slices.Clone(m.Files)
		return &c
	}
	tests := []struct {
		name  string
		data  func() iofs.FS
		man   func() *bakefs.Manifest
		is    error
		inMsg string
	}{
		{"nil manifest", func() iofs.FS { return tree }, func() *bakefs.Manifest { return nil }, bakefs.ErrManifest, "nil manifest"},
		{"nil data", func() iofs.FS { return nil }, clone, bakefs.ErrTree, "nil data"},
		{"invalid manifest", func() iofs.FS { return tree }, func() *bakefs.Manifest {
			c := clone()
			c.Version = 7
			return c
		}, bakefs.ErrManifest, "version"},
		{"missing file", func() iofs.FS {
			t := maps(tree)
			delete(t, "js/app.js")
			return t
		}, clone, iofs.ErrNotExist, "js/app.js"},
		{"missing variant", func() iofs.FS {
			t := maps(tree)
			delete(t, "js/app.js.br")
			return t
		}, clone, bakefs.ErrTree, "js/app.js.br"},
		{"size differs", func() iofs.FS {
			t := maps(tree)
			t["css/site.css"] = &fstest.MapFile{Data: []byte("short")}
			return t
		}, clone, bakefs.ErrTree, "css/site.css: size 5, manifest says 19"},
		{"directory for file", func() iofs.FS {
			t := maps(tree)
			delete(t, "robots.txt")
			t["robots.txt/x"] = &fstest.MapFile{}
			return t
		}, clone, bakefs.ErrTree, "robots.txt: not a regular file"},
		{"file is also a directory", func() iofs.FS {
			t := maps(tree)
			t["robots.txt/x"] = &fstest.MapFile{}
			return t
		}, func() *bakefs.Manifest {
			_, extra := buildTree([]treeFile{{path: "robots.txt/x", typ: typeText, data: ""}})
			c := clone()
			c.Files = append(c.Files, extra.Files[0])
			slices.SortFunc(c.Files, func(a, b bakefs.Entry) int { return cmpString(a.Path, b.Path) })
			return c
		}, bakefs.ErrManifest, `path "robots.txt" is also a directory`},
		{"hashed name is a directory", func() iofs.FS { return tree }, func() *bakefs.Manifest {
			c := clone()
			for i := range c.Files {
				if c.Files[i].Path == "robots.txt" {
					c.Files[i].Hashed = "docs"
				}
			}
			return c
		}, bakefs.ErrManifest, `hashed name "docs" is also a directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bakefs.New(tt.data(), tt.man())
			if !errors.Is(err, tt.is) {
				t.Fatalf("New: %v, want error wrapping %v", err, tt.is)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(tt.inMsg)) {
				t.Errorf("New: %q does not mention %q", err, tt.inMsg)
			}
		})
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func maps(tree fstest.MapFS) fstest.MapFS {
	c := fstest.MapFS{}
	for k, v := range tree {
		c[k] = v
	}
	return c
}

func TestLoad(t *testing.T) {
	tree, _ := buildTree(testFiles)
	fsys, err := bakefs.Load(tree)
	if err != nil {
		t.Fatal(err)
	}
	if got := fsys.Path("js/app.js"); got == "js/app.js" {
		t.Errorf("Path not hashed after Load: %s", got)
	}
	bad := maps(tree)
	bad[bakefs.ManifestName] = &fstest.MapFile{Data: []byte(`{"version": 1, "files": [}`)}
	if _, err := bakefs.Load(bad); !errors.Is(err, bakefs.ErrManifest) || !bytes.Contains([]byte(err.Error()), []byte(bakefs.ManifestName)) {
		t.Errorf("Load of a broken manifest: %v", err)
	}
	delete(bad, bakefs.ManifestName)
	if _, err := bakefs.Load(bad); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("Load without manifest: %v", err)
	}
}

func TestOpenNames(t *testing.T) {
	fsys, tree, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	tests := []struct {
		name    string
		want    string // logical path whose bytes Open gives; "" for a directory
		wantErr error
	}{
		{name: "js/app.js", want: "js/app.js"},
		{name: app.Hashed, want: "js/app.js"},
		{name: "data/.env", want: "data/.env"},
		{name: entryOf(t, m, "data/.env").Hashed, want: "data/.env"},
		{name: entryOf(t, m, "data/LICENSE").Hashed, want: "data/LICENSE"},
		{name: ".", want: ""},
		{name: "js", want: ""},
		{name: "js/vendor", want: ""},
		{name: "js/app.js.br", wantErr: iofs.ErrNotExist},
		{name: "js/app.js.gz", wantErr: iofs.ErrNotExist},
		{name: bakefs.ManifestName, wantErr: iofs.ErrNotExist},
		{name: "js/app.0000000000.js", wantErr: iofs.ErrNotExist},
		{name: "nope", wantErr: iofs.ErrNotExist},
		{name: "js/app.js/x", wantErr: iofs.ErrNotExist},
		{name: "", wantErr: iofs.ErrInvalid},
		{name: "/js/app.js", wantErr: iofs.ErrInvalid},
		{name: "js/../js/app.js", wantErr: iofs.ErrInvalid},
		{name: "js//app.js", wantErr: iofs.ErrInvalid},
		{name: "js/app.js/", wantErr: iofs.ErrInvalid},
		{name: "./js", wantErr: iofs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := fsys.Open(tt.name)
			if tt.wantErr != nil {
				var pe *iofs.PathError
				if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != tt.name || !errors.Is(err, tt.wantErr) {
					t.Fatalf("Open: %#v, want *PathError{open, %q, %v}", err, tt.name, tt.wantErr)
				}
				if _, err := fsys.Stat(tt.name); !errors.Is(err, tt.wantErr) {
					t.Errorf("Stat: %v, want %v", err, tt.wantErr)
				}
				if _, err := fsys.ReadFile(tt.name); !errors.Is(err, tt.wantErr) {
					t.Errorf("ReadFile: %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if !fi.IsDir() {
					t.Fatalf("%s is not a directory", tt.name)
				}
				return
			}
			got, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tree[tt.want].Data) {
				t.Errorf("bytes differ from %s", tt.want)
			}
			if fi.Name() != filepath.Base(tt.want) {
				t.Errorf("Name = %q, want the logical %q", fi.Name(), filepath.Base(tt.want))
			}
			hfi, ok := fi.(bakefs.HashFileInfo)
			if !ok {
				t.Fatalf("%T is not a HashFileInfo", fi)
			}
			sum := sha256.Sum256(got)
			h := hfi.Hash()
			if len(h) != 2 || h[0].Algorithm != "sha256" || !bytes.Equal(h[0].Sum, sum[:]) || h[1].Algorithm != "sha384" || len(h[1].Sum) != 48 {
				t.Errorf("Hash() = %v", h)
			}
			if e, ok := fi.Sys().(*bakefs.Entry); !ok || e.Path != tt.want {
				t.Errorf("Sys() = %v, want the entry of %s", fi.Sys(), tt.want)
			}
			if _, ok := f.(io.Seeker); !ok {
				t.Errorf("%T is not an io.Seeker", f)
			}
			if _, ok := f.(io.ReaderAt); !ok {
				t.Errorf("%T is not an io.ReaderAt", f)
			}
		})
	}
}

func TestFileReads(t *testing.T) {
	fsys, tree, _ := newTestFS(t)
	f, err := fsys.Open("js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if err := iotest.TestReader(f, tree["js/app.js"].Data); err != nil {
		t.Fatal(err)
	}
	if _, err := f.(io.Seeker).Seek(-1, io.SeekStart); err == nil {
		t.Error("Seek before the start succeeded")
	}
	if _, err := f.(io.Seeker).Seek(0, 7); err == nil {
		t.Error("Seek with a bad whence succeeded")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Read(make([]byte, 1)); !errors.Is(err, iofs.ErrClosed) {
		t.Errorf("Read after Close: %v", err)
	}
	if err := f.Close(); !errors.Is(err, iofs.ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	d, err := fsys.Open("js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(make([]byte, 1)); !errors.Is(err, bakefs.ErrIsDir) {
		t.Errorf("Read of a directory: %v", err)
	}
	if _, err := fsys.ReadFile("js"); !errors.Is(err, bakefs.ErrIsDir) {
		t.Errorf("ReadFile of a directory: %v", err)
	}
	if _, err := fsys.ReadDir("js/app.js"); !errors.Is(err, bakefs.ErrNotDir) {
		t.Errorf("ReadDir of a file: %v", err)
	}
}

func TestListing(t *testing.T) {
	fsys, _, m := newTestFS(t)
	var walked []string
	err := iofs.WalkDir(fsys, ".", func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			walked = append(walked, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := testLogical()
	slices.Sort(want)
	slices.Sort(walked)
	if !slices.Equal(walked, want) {
		t.Errorf("WalkDir found\n%q\nwant only the logical files\n%q", walked, want)
	}
	root, err := fsys.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range root {
		names = append(names, e.Name())
	}
	wantRoot := []string{"css", "data", "docs", "empty.txt", "img", "index.html", "js", "robots.txt", "sniff.txt", "templates"}
	if !slices.Equal(names, wantRoot) {
		t.Errorf("ReadDir(.) = %q, want %q", names, wantRoot)
	}
	// Changing the manifest after New changes nothing.
	m.Files[0].Type = "changed"
	if e, _ := fsys.Entry(m.Files[0].Path); e.Type == "changed" {
		t.Error("FS shares the manifest given to New")
	}
}

func TestSub(t *testing.T) {
	fsys, tree, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	sub, err := fsys.Sub("js")
	if err != nil {
		t.Fatal(err)
	}
	js := sub.(*bakefs.FS)
	hashedRel := app.Hashed[len("js/"):]
	if got := js.Path("app.js"); got != hashedRel {
		t.Errorf("Sub Path(app.js) = %q, want %q", got, hashedRel)
	}
	b, err := iofs.ReadFile(js, hashedRel)
	if err != nil || !bytes.Equal(b, tree["js/app.js"].Data) {
		t.Errorf("ReadFile(%s) in Sub: %v", hashedRel, err)
	}
	if _, err := js.Open(app.Hashed); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("Sub resolved a name of its parent: %v", err)
	}
	if js.Integrity("app.js") != app.Integrity {
		t.Error("Sub Integrity differs")
	}
	for _, tt := range []struct {
		dir string
		err error
	}{{"nope", iofs.ErrNotExist}, {"app.js", bakefs.ErrNotDir}, {"../css", iofs.ErrInvalid}} {
		var pe *iofs.PathError
		if _, err := js.Sub(tt.dir); !errors.As(err, &pe) || pe.Op != "sub" || !errors.Is(err, tt.err) {
			t.Errorf("Sub(%q): %v, want %v", tt.dir, err, tt.err)
		}
	}
	if same, _ := fsys.Sub("."); same != iofs.FS(fsys) {
		t.Error(`Sub(".") is not the FS itself`)
	}
	// Every extension interface survives Sub.
	for _, s := range []iofs.FS{sub, must(iofs.Sub(sub, "vendor"))} {
		_, a := s.(iofs.ReadFileFS)
		_, b := s.(iofs.ReadDirFS)
		_, c := s.(iofs.StatFS)
		_, d := s.(iofs.GlobFS)
		_, e := s.(iofs.SubFS)
		if !(a && b && c && d && e) {
			t.Errorf("%T lost an extension interface", s)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestPathEntryIntegrity(t *testing.T) {
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	tests := []struct{ name, path, integrity string }{
		{"js/app.js", app.Hashed, app.Integrity},
		{app.Hashed, app.Hashed, app.Integrity},
		{"robots.txt", "robots.txt", entryOf(t, m, "robots.txt").Integrity},
		{"nope.js", "nope.js", ""},
		{"../x", "../x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fsys.Path(tt.name); got != tt.path {
				t.Errorf("Path = %q, want %q", got, tt.path)
			}
			if got := fsys.Integrity(tt.name); got != tt.integrity {
				t.Errorf("Integrity = %q, want %q", got, tt.integrity)
			}
			e, ok := fsys.Entry(tt.name)
			if ok != (tt.integrity != "") || ok && e.Integrity != tt.integrity {
				t.Errorf("Entry = %v, %v", e, ok)
			}
		})
	}
}

// TestServeContentOpenFile checks that an open file serves with
// http.ServeContent, which needs io.Seeker.
func TestServeContentOpenFile(t *testing.T) {
	fsys, tree, _ := newTestFS(t)
	srv := http.FileServerFS(fsys)
	rec := newRecorder()
	req, _ := http.NewRequest("GET", "/js/app.js", nil)
	req.Header.Set("Range", "bytes=3-9")
	srv.ServeHTTP(rec, req)
	if rec.code != http.StatusPartialContent || !bytes.Equal(rec.body.Bytes(), tree["js/app.js"].Data[3:10]) {
		t.Errorf("FileServerFS range: %d %q", rec.code, rec.body.Bytes())
	}
}

// FuzzOpen checks that Open succeeds only for a logical file, a directory
// of logical files or a hashed name, and fails with the documented errors
// otherwise.
func FuzzOpen(f *testing.F) {
	fsys, tree, m := newTestFS(f)
	names := map[string]string{} // name -> logical path, "" for a directory
	for _, e := range m.Files {
		names[e.Path] = e.Path
		if e.Hashed != "" {
			names[e.Hashed] = e.Path
		}
		for d := filepath.Dir(e.Path); ; d = filepath.Dir(d) {
			names[filepath.ToSlash(d)] = ""
			if d == "." {
				break
			}
		}
	}
	for name := range names {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		file, err := fsys.Open(name)
		logical, known := names[name]
		if err != nil {
			var pe *iofs.PathError
			if !errors.As(err, &pe) || pe.Path != name || pe.Op != "open" {
				t.Fatalf("Open(%q): %v is not a *PathError", name, err)
			}
			switch {
			case !iofs.ValidPath(name):
				if !errors.Is(err, iofs.ErrInvalid) {
					t.Fatalf("Open(%q) = %v, want ErrInvalid", name, err)
				}
			case known:
				t.Fatalf("Open(%q) of a listed name: %v", name, err)
			case !errors.Is(err, iofs.ErrNotExist):
				t.Fatalf("Open(%q) = %v, want ErrNotExist", name, err)
			}
			return
		}
		defer file.Close()
		if !known {
			t.Fatalf("Open(%q) succeeded: not an entry, directory or hashed name", name)
		}
		fi, err := file.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() != (logical == "") {
			t.Fatalf("Open(%q): IsDir = %v", name, fi.IsDir())
		}
		if logical != "" {
			b, err := io.ReadAll(file)
			if err != nil || !bytes.Equal(b, tree[logical].Data) {
				t.Fatalf("Open(%q): bytes are not those of %s (%v)", name, logical, err)
			}
		}
	})
}
