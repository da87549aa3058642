package main

import (
	bakefs "github.com/bakefs/bakefs/fs"
	"net/http"
)

// staticPrefix is the URL path under which the files of static/ are served.
const staticPrefix = "/static/"

// contentSecurityPolicy lets the page load only its own files. Every
// script and stylesheet also carries an integrity attribute.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; " +
	"style-src 'self'; script-src 'self'; connect-src 'self'; font-src 'self'; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// newApp returns the application's handler: the pages, and the static
// files served by the bakefs runtime handler with their precompressed
// variants and fingerprinted names.
func newApp(src assetSource) (http.Handler, error) {
	static, err := src.Handler(staticHandler)
	if err != nil {
		return nil, err
	}
	p := &pages{src: src}
	mux := http.NewServeMux()
	mux.Handle("GET "+staticPrefix, static)
	mux.Handle("GET /{$}", p.handler("index.html", nil))
	mux.Handle("GET /about", p.handler("about.html", staticFiles))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	return src.Wrap(securityHeaders(mux)), nil
}

// staticHandler serves the directory static/ of a tree under staticPrefix.
// The templates beside it are read by the pages and never served.
func staticHandler(tree *bakefs.FS) (http.Handler, error) {
	static, err := staticFS(tree)
	if err != nil {
		return nil, err
	}
	return static.Handler(bakefs.WithPrefix(staticPrefix)), nil
}

// staticFS returns the directory static/ of a tree. Sub of a *bfs.FS is a
// *bfs.FS, with the handler and template helpers of its own.
func staticFS(tree *bakefs.FS) (*bakefs.FS, error) {
	sub, err := tree.Sub("static")
	if err != nil {
		return nil, err
	}
	return sub.(*bakefs.FS), nil
}

// securityHeaders adds the headers every response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
