package fs_test

import (
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"log"
	"net/http/httptest"
	"os"
	"strings"
)

// Logging every operation. The FS of With is a *fs.FS, so hashed names,
// FileInfo hashes, Sub, Glob and the handler work as before, and log too.
func ExampleFS_With_logging() {
	tree, manifest := buildTree(exampleFiles)
	fsys, err := bakefs.New(tree, manifest)
	if err != nil {
		log.Fatal(err)
	}
	logger := log.New(os.Stdout, "", 0)
	logged := fsys.With(bakefs.Hooks{Observe: func(e bakefs.Event) {
		if e.Err != nil {
			logger.Printf("%s %s: %v", e.Op, e.Name, e.Err)
			return
		}
		logger.Printf("%s %s", e.Op, e.Name)
	}})

	info, _ := logged.Stat(logged.Path("js/app.js"))
	fmt.Printf("%x…\n", info.(bakefs.HashFileInfo).Hash()[0].Sum[:4])
	img, _ := logged.Sub("img")
	iofs.Glob(img, "*-800w.jpg")
	logged.ReadFile("missing.txt")
	logged.Handler(bakefs.WithPrefix("/static/")).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/static/index.html", nil))
	// Output:
	// stat js/app.c7d5e04a88.js
	// c7d5e04a…
	// sub img
	// glob img/*-800w.jpg
	// readfile missing.txt: open missing.txt: file does not exist
	// serve index.html
}

// Access control: names under img/ are hidden. They are missing
// everywhere at once: opening, listing, globbing, hashed names, the
// template functions and the handler.
func ExampleFS_With_accessControl() {
	tree, manifest := buildTree(exampleFiles)
	fsys, err := bakefs.New(tree, manifest)
	if err != nil {
		log.Fatal(err)
	}
	public := fsys.With(bakefs.Hooks{Allow: func(name string) error {
		if name == "img" || strings.HasPrefix(name, "img/") {
			return iofs.ErrNotExist
		}
		return nil
	}})

	_, err = public.Open("img/hero-400w.jpg")
	fmt.Println(errors.Is(err, iofs.ErrNotExist))
	entries, _ := public.ReadDir(".")
	for _, e := range entries {
		fmt.Println("listed:", e.Name())
	}
	names, _ := bakefs.GlobAll(public, "**/*.jpg")
	fmt.Println("jpg:", names)
	fmt.Println("path:", public.Path("img/hero-400w.jpg"))

	h := public.Handler()
	for _, p := range []string{"/js/app.js", "/" + fsys.Path("img/hero-400w.jpg")} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		fmt.Println(p, rec.Code)
	}
	// Output:
	// true
	// listed: index.html
	// listed: js
	// jpg: []
	// path: img/hero-400w.jpg
	// /js/app.js 200
	// /img/hero-400w.26d228663f.jpg 404
}
