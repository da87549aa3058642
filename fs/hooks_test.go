package fs_test

import (
	"bytes"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// deny returns an Allow hook that refuses the given names with err.
func deny(err error, names ...string) func(string) error {
	return func(name string) error {
		if slices.Contains(names, name) {
			return err
		}
		return nil
	}
}

// eventLog records the events of Observe.
type eventLog struct {
	mu     sync.Mutex
	events []bakefs.Event
}

func (l *eventLog) observe(e bakefs.Event) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *eventLog) take() []bakefs.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.events
	l.events = nil
	return e
}

// visibleLogical returns the logical files of testFiles that are not
// under one of the hidden names, relative to dir ("" for the top).
func visibleLogical(dir string, hidden ...string) []string {
	var names []string
next:
	for _, f := range testFiles {
		for _, h := range hidden {
			if f.path == h || strings.HasPrefix(f.path, h+"/") {
				continue next
			}
		}
		if dir == "" {
			names = append(names, f.path)
		} else if rest, ok := strings.CutPrefix(f.path, dir+"/"); ok {
			names = append(names, rest)
		}
	}
	return names
}

func TestWithConformance(t *testing.T) {
	fsys, _, _ := newTestFS(t)
	var log eventLog
	tests := []struct {
		name   string
		hooks  bakefs.Hooks
		hidden []string
	}{
		{"observe", bakefs.Hooks{Observe: log.observe}, nil},
		{"allow all", bakefs.Hooks{Allow: func(string) error { return nil }}, nil},
		{"hide", bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "js/vendor", "css/site.css", "data"), Observe: log.observe},
			[]string{"js/vendor", "css/site.css", "data"}},
		{"forbid", bakefs.Hooks{Allow: deny(iofs.ErrPermission, "docs/guide", "index.html")}, []string{"docs/guide", "index.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := fsys.With(tt.hooks)
			if err := fstest.TestFS(w, visibleLogical("", tt.hidden...)...); err != nil {
				t.Fatal(err)
			}
			for _, dir := range []string{"js", "docs"} {
				sub, err := w.Sub(dir)
				if err != nil {
					t.Fatal(err)
				}
				if err := fstest.TestFS(sub, visibleLogical(dir, tt.hidden...)...); err != nil {
					t.Fatalf("Sub(%s): %v", dir, err)
				}
			}
			log.take()
		})
	}
}

// TestWithInterfaces checks that the FS of With and its Subs keep every
// interface and helper of the FS: they are *fs.FS.
func TestWithInterfaces(t *testing.T) {
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	var log eventLog
	w := fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "data"), Observe: log.observe})
	sub, err := w.Sub("js")
	if err != nil {
		t.Fatal(err)
	}
	subsub, err := iofs.Sub(sub, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		fsys iofs.FS
		file string // a hashed file of it
		full string // the file's name for the hooks
	}{
		{"with", w, "js/app.js", "js/app.js"},
		{"sub", sub, "app.js", "js/app.js"},
		{"sub of sub", subsub, "lib.js", "js/vendor/lib.js"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := tt.fsys.(*bakefs.FS)
			if !ok {
				t.Fatalf("%T is not *fs.FS", tt.fsys)
			}
			var _ iofs.ReadFileFS = f
			var _ iofs.ReadDirFS = f
			var _ iofs.StatFS = f
			var _ iofs.GlobFS = f
			var _ iofs.SubFS = f
			hashed := f.Path(tt.file)
			if hashed == tt.file {
				t.Fatalf("Path(%s) is not a hashed name", tt.file)
			}
			fi, err := f.Stat(hashed)
			if err != nil {
				t.Fatal(err)
			}
			if h, ok := fi.(bakefs.HashFileInfo); !ok || len(h.Hash()) != 2 {
				t.Errorf("Stat: %T is not a HashFileInfo with two hashes", fi)
			}
			file, err := f.Open(hashed)
			if err != nil {
				t.Fatal(err)
			}
			if fi, _ := file.Stat(); fi.(bakefs.HashFileInfo).Hash() == nil {
				t.Error("File.Stat has no hash")
			}
			if _, ok := file.(io.ReadSeeker); !ok {
				t.Error("file is not an io.Seeker")
			}
			file.Close()
			entries, err := f.ReadDir(".")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if info, _ := e.Info(); !e.IsDir() {
					if _, ok := info.(bakefs.HashFileInfo); !ok {
						t.Errorf("ReadDir entry %s: no HashFileInfo", e.Name())
					}
				}
			}
			if f.Integrity(tt.file) == "" {
				t.Error("no Integrity")
			}
			if e, ok := f.Entry(hashed); !ok || e.Path != tt.full {
				t.Errorf("Entry(%s) = %v, %v", hashed, e.Path, ok)
			}
			if names, err := f.Glob("*"); err != nil || len(names) == 0 {
				t.Errorf("Glob: %q, %v", names, err)
			}
			var page bytes.Buffer
			tmpl := template.Must(template.New("").Funcs(f.FuncMap("/s/")).Parse(`{{asset "` + tt.file + `"}}`))
			if err := tmpl.Execute(&page, nil); err != nil || page.String() != "/s/"+hashed {
				t.Errorf("FuncMap asset = %q, %v", page.String(), err)
			}
			rec := httptest.NewRecorder()
			f.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/"+hashed, nil))
			if rec.Code != 200 || rec.Header().Get("Cache-Control") != ccImmutable {
				t.Errorf("Handler: %d %q", rec.Code, rec.Header().Get("Cache-Control"))
			}
			// The hooks saw it all, with names relative to w.
			var saw []string
			for _, e := range log.take() {
				saw = append(saw, e.Op+" "+e.Name)
			}
			dir := strings.TrimSuffix(tt.full, "/"+path_base(tt.full))
			for _, want := range []string{"stat " + dir + "/" + path_base(hashed), "open " + dir + "/" + path_base(hashed), "serve " + tt.full} {
				if !slices.Contains(saw, want) {
					t.Errorf("Observe saw %q, want %q among them", saw, want)
				}
			}
		})
	}
	if app.Hashed == "" {
		t.Fatal("app.js is not hashed")
	}
}

func path_base(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// TestWithDeny checks that a name Allow refuses is absent from every
// operation, the handler and the template helpers alike, with the error
// of Allow, and that the names Allow receives are relative to the FS With
// was called on.
func TestWithDeny(t *testing.T) {
	fsys, _, m := newTestFS(t)
	hidden := map[string]bool{"js/vendor": true, "css/site.css": true, "docs/guide": true}
	var asked sync.Map
	allow := func(err error) func(string) error {
		return func(name string) error {
			asked.Store(name, true)
			if hidden[name] {
				return err
			}
			return nil
		}
	}
	for _, tt := range []struct {
		name   string
		err    error
		status int
	}{
		{"not exist", iofs.ErrNotExist, 404},
		{"permission", iofs.ErrPermission, 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := fsys.With(bakefs.Hooks{Allow: allow(tt.err)})
			h := w.Handler(bakefs.WithIndex("index.html"))
			// Each denied file, by logical and hashed name.
			denied := []string{"js/vendor/lib.js", "css/site.css", "docs/guide/intro.html"}
			for _, name := range denied {
				e := entryOf(t, m, name)
				for _, n := range []string{e.Path, e.Hashed} {
					checkDenied(t, w, h, n, tt.err, tt.status)
				}
				if w.Path(name) != name || w.Integrity(name) != "" {
					t.Errorf("Path or Integrity of %s: %q %q", name, w.Path(name), w.Integrity(name))
				}
				if _, ok := w.Entry(name); ok {
					t.Errorf("Entry(%s) found", name)
				}
				tmpl := template.Must(template.New("").Funcs(w.FuncMap("/")).Parse(`{{asset "` + name + `"}}`))
				if err := tmpl.Execute(io.Discard, nil); err == nil {
					t.Errorf("asset %s rendered", name)
				}
			}
			// The denied directories.
			for _, dir := range []string{"js/vendor", "docs/guide"} {
				checkDenied(t, w, h, dir, tt.err, 0)
				if _, err := w.Sub(dir); !errors.Is(err, tt.err) {
					t.Errorf("Sub(%s): %v", dir, err)
				}
			}
			// Listings leave them out; fs.WalkDir never meets them.
			var walked []string
			iofs.WalkDir(w, ".", func(p string, d iofs.DirEntry, err error) error {
				if err != nil {
					t.Errorf("WalkDir %s: %v", p, err)
				}
				walked = append(walked, p)
				return nil
			})
			all, _ := bakefs.GlobAll(w, "**")
			for _, pattern := range []string{"*/*", "*/*/*", "js/*", "docs/*"} {
				names, _ := w.Glob(pattern)
				all = append(all, names...)
			}
			for _, dir := range []string{".", "js", "css", "docs"} {
				entries, err := w.ReadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				d, _ := w.Open(dir)
				opened, _ := d.(iofs.ReadDirFile).ReadDir(-1)
				d.Close()
				if len(opened) != len(entries) {
					t.Errorf("ReadDir(%s) has %d entries, the opened directory %d", dir, len(entries), len(opened))
				}
				for _, e := range entries {
					all = append(all, strings.TrimPrefix(dir+"/"+e.Name(), "./"))
				}
			}
			for _, name := range append(walked, all...) {
				for h := range hidden {
					if name == h || strings.HasPrefix(name, h+"/") {
						t.Errorf("%s is listed", name)
					}
				}
			}
			// What is not hidden is all there.
			if err := fstest.TestFS(w, "js/app.js", "css", "docs/index.html"); err != nil {
				t.Error(err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/docs/", nil))
			if rec.Code != 200 {
				t.Errorf("docs/: %d", rec.Code)
			}
		})
	}
	t.Run("sub names", func(t *testing.T) {
		// Allow sees names relative to the FS With was called on.
		js, _ := fsys.Sub("js")
		var names []string
		var mu sync.Mutex
		w := js.(*bakefs.FS).With(bakefs.Hooks{Allow: func(name string) error {
			mu.Lock()
			names = append(names, name)
			mu.Unlock()
			return deny(iofs.ErrNotExist, "vendor")(name)
		}})
		if _, err := w.Open("vendor/lib.js"); !errors.Is(err, iofs.ErrNotExist) {
			t.Errorf("Open: %v", err)
		}
		if !slices.Equal(names, []string{"vendor"}) {
			t.Errorf("Allow saw %q, want [vendor]", names)
		}
		// A Sub of the wrapped FS keeps the rule and the names.
		names = nil
		vendor, err := w.Sub("vendor")
		if vendor != nil || !errors.Is(err, iofs.ErrNotExist) {
			t.Errorf("Sub(vendor) = %v, %v", vendor, err)
		}
		top := fsys.With(bakefs.Hooks{Allow: deny(iofs.ErrNotExist, "js/vendor/lib.js")})
		sub, _ := top.Sub("js/vendor")
		if _, err := sub.Open("lib.js"); !errors.Is(err, iofs.ErrNotExist) {
			t.Errorf("Sub(js/vendor).Open(lib.js): %v, want the rule of js/vendor/lib.js", err)
		}
	})
	t.Run("changing policy", func(t *testing.T) {
		var mu sync.Mutex
		off := false
		w := fsys.With(bakefs.Hooks{Allow: func(name string) error {
			mu.Lock()
			defer mu.Unlock()
			if off && name == "robots.txt" {
				return iofs.ErrNotExist
			}
			return nil
		}})
		h := w.Handler()
		serve := func() int {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/robots.txt", nil))
			return rec.Code
		}
		if serve() != 200 {
			t.Fatal("not served")
		}
		mu.Lock()
		off = true
		mu.Unlock()
		if serve() != 404 {
			t.Error("served after the policy hid it")
		}
	})
}

// checkDenied checks that name is refused with err by Open, ReadFile and
// Stat, and, when status is not 0, by the handler.
func checkDenied(t *testing.T, w *bakefs.FS, h http.Handler, name string, want error, status int) {
	t.Helper()
	var pe *iofs.PathError
	if _, err := w.Open(name); !errors.As(err, &pe) || pe.Op != "open" || pe.Path != name || !errors.Is(err, want) {
		t.Errorf("Open(%s): %v, want %v", name, err, want)
	}
	if _, err := w.ReadFile(name); !errors.Is(err, want) {
		t.Errorf("ReadFile(%s): %v", name, err)
	}
	if _, err := iofs.ReadFile(w, name); !errors.Is(err, want) {
		t.Errorf("fs.ReadFile(%s): %v", name, err)
	}
	if _, err := w.Stat(name); !errors.As(err, &pe) || pe.Op != "stat" || !errors.Is(err, want) {
		t.Errorf("Stat(%s): %v", name, err)
	}
	if names, _ := w.Glob(name); names != nil {
		t.Errorf("Glob(%s) = %q", name, names)
	}
	if status != 0 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/"+name, nil))
		if rec.Code != status {
			t.Errorf("GET /%s: %d, want %d", name, rec.Code, status)
		}
	}
}

// TestWithOrder checks that nested hooks run as nested wrappers would:
// the outermost Allow first, the innermost Observe first.
func TestWithOrder(t *testing.T) {
	fsys, _, _ := newTestFS(t)
	var calls []string
	layer := func(name string, refuse string) bakefs.Hooks {
		return bakefs.Hooks{
			Allow: func(n string) error {
				calls = append(calls, name+" allow "+n)
				if n == refuse {
					return iofs.ErrPermission
				}
				return nil
			},
			Observe: func(e bakefs.Event) {
				calls = append(calls, name+" observe "+e.Op+" "+e.Name+" "+errText(e.Err))
			},
		}
	}
	w := fsys.With(layer("inner", "robots.txt")).With(layer("outer", ""))
	w.Stat("js/app.js")
	w.Stat("robots.txt")
	want := []string{
		"outer allow js", "outer allow js/app.js", "inner allow js", "inner allow js/app.js",
		"inner observe stat js/app.js ok", "outer observe stat js/app.js ok",
		"outer allow robots.txt", "inner allow robots.txt",
		"inner observe stat robots.txt stat robots.txt: permission denied",
		"outer observe stat robots.txt stat robots.txt: permission denied",
	}
	if !slices.Equal(calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if fsys.With(bakefs.Hooks{}) != fsys {
		t.Error("With(Hooks{}) is not the FS itself")
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// TestWithEvents checks the event of each operation.
func TestWithEvents(t *testing.T) {
	fsys, _, m := newTestFS(t)
	var log eventLog
	w := fsys.With(bakefs.Hooks{Observe: log.observe, Allow: deny(iofs.ErrNotExist, "data")})
	app := entryOf(t, m, "js/app.js")
	js, _ := w.Sub("js")
	f, _ := js.Open("app.js")
	f.Close()
	w.ReadFile(app.Hashed)
	w.Stat("data/LICENSE")
	w.ReadDir("docs")
	w.Glob("*.txt")
	bakefs.GlobAll(js, "**/*.js")
	h := w.Handler(bakefs.WithPrefix("/s/"), bakefs.WithIndex("index.html"))
	for _, p := range []string{"/s/" + app.Hashed, "/s/nope", "/s/docs", "/x/y", "/s/data/.env"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}
	var got []string
	for _, e := range log.take() {
		got = append(got, e.Op+" "+e.Name+" "+errText(e.Err))
	}
	want := []string{
		"sub js ok",
		"open js/app.js ok",
		"readfile " + app.Hashed + " ok",
		"stat data/LICENSE stat data/LICENSE: file does not exist",
		"readdir docs ok",
		"glob *.txt ok",
		"glob js/**/*.js ok",
		"serve js/app.js ok",
		"serve nope file does not exist",
		"serve docs ok",
		"serve /x/y file does not exist",
		"serve data/.env file does not exist",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWithHandlerAllocs checks what hooks cost the handler in
// allocations: nothing beyond the handler's own when the hooks allocate
// nothing themselves.
func TestWithHandlerAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts")
	}
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	var n int
	w := fsys.With(bakefs.Hooks{
		Allow:   func(name string) error { return nil },
		Observe: func(e bakefs.Event) { n++ },
	})
	h := w.Handler()
	req := httptest.NewRequest("GET", "/"+app.Hashed, nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	rec := newRecorder()
	rec.discard = true
	if got := mallocsPerRun(2000, func() { rec.reset(); h.ServeHTTP(rec, req) }); got > 0.02 {
		t.Errorf("%.3f allocations per request with hooks", got)
	}
	if rec.code != 200 || n == 0 {
		t.Fatalf("status %d, %d events", rec.code, n)
	}
}
