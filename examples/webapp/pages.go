package main

import (
	"bytes"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	iofs "io/fs"
	"log"
	"net/http"
	"sync"
)

// pages renders the HTML pages from the templates of the current tree. The
// parsed templates are kept per tree: in production they are parsed once,
// in dev once per build.
type pages struct {
	src assetSource

	mu     sync.Mutex
	parsed *bakefs.FS
	sets   map[string]*template.Template // page file name -> layout + page
}

// pageData is what a page's template sees.
type pageData struct {
	Served string     // where the files come from, for the footer
	Files  []fileInfo // the about page's table
}

// A fileInfo is one row of the about page's table.
type fileInfo struct {
	Path      string // logical path under static/
	URLName   string // the name it is served under, usually hashed
	Size      int64
	Encodings []bakefs.Encoding
}

// handler renders the page file name, with data from extra when not nil.
// The page is rendered into a buffer, so a template error gives a 500 and
// never half a page.
func (p *pages) handler(name string, extra func(*bakefs.FS) ([]fileInfo, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tree := p.src.FS()
		t, err := p.template(tree, name)
		if err != nil {
			log.Printf("%s: %v", name, err)
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		data := pageData{Served: p.src.Served()}
		if extra != nil {
			if data.Files, err = extra(tree); err != nil {
				log.Printf("%s: %v", name, err)
				http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
				return
			}
		}
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
			log.Printf("%s: %v", name, err)
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		w.Write(buf.Bytes())
	})
}

// template returns the template set of the page name for tree, parsing the
// templates again when tree is not the one they were parsed from.
func (p *pages) template(tree *bakefs.FS, name string) (*template.Template, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if tree != p.parsed {
		sets, err := parsePages(tree)
		if err != nil {
			return nil, err
		}
		p.parsed, p.sets = tree, sets
	}
	t, ok := p.sets[name]
	if !ok {
		return nil, &iofs.PathError{Op: "template", Path: name, Err: iofs.ErrNotExist}
	}
	return t, nil
}

// parsePages parses templates/layout.html with each other file of
// templates/, giving one set per page. The helpers asset, integrity,
// srcset and picture resolve names under static/ to URLs under staticPrefix.
func parsePages(tree *bakefs.FS) (map[string]*template.Template, error) {
	static, err := staticFS(tree)
	if err != nil {
		return nil, err
	}
	layout, err := template.New("layout.html").Funcs(static.FuncMap(staticPrefix)).ParseFS(tree, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, err := iofs.Glob(tree, "templates/*.html")
	if err != nil {
		return nil, err
	}
	sets := make(map[string]*template.Template)
	for _, file := range names {
		base := file[len("templates/"):]
		if base == "layout.html" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(tree, file)
		if err != nil {
			return nil, err
		}
		sets[base] = t
	}
	return sets, nil
}

// staticFiles lists the files of static/ for the about page, in path
// order, with the name each is served under and its encodings.
func staticFiles(tree *bakefs.FS) ([]fileInfo, error) {
	static, err := staticFS(tree)
	if err != nil {
		return nil, err
	}
	var files []fileInfo
	err = iofs.WalkDir(static, ".", func(name string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		e, ok := static.Entry(name)
		if !ok {
			return &iofs.PathError{Op: "entry", Path: name, Err: iofs.ErrNotExist}
		}
		files = append(files, fileInfo{Path: name, URLName: static.Path(name), Size: e.Size, Encodings: e.Encodings})
		return nil
	})
	return files, err
}
