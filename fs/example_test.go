package fs_test

import (
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"html/template"
	iofs "io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
)

// exampleFiles is the output tree of the examples; buildTree writes it with
// its manifest the way the pipeline does.
var exampleFiles = []treeFile{
	{path: "index.html", typ: typeHTML, data: "<!doctype html>\n", encodings: []string{"gzip"}},
	{path: "js/app.js", typ: typeJS, data: "console.log('hello')\n", hashed: true, encodings: []string{"br", "gzip"}},
	{path: "img/hero-400w.jpg", source: "img/hero.jpg", typ: typeJPEG, data: "400", hashed: true, width: 400},
	{path: "img/hero-800w.jpg", source: "img/hero.jpg", typ: typeJPEG, data: "800", hashed: true, width: 800},
}

func ExampleNew() {
	tree, manifest := buildTree(exampleFiles) // an embed.FS sub-tree in a real program
	fsys, err := bakefs.New(tree, manifest)
	if err != nil {
		log.Fatal(err)
	}
	b, _ := fsys.ReadFile("js/app.js")
	fmt.Printf("%s", b)

	// Variants and hashed names are not listed.
	entries, _ := fsys.ReadDir("js")
	for _, e := range entries {
		fmt.Println("listed:", e.Name())
	}

	// A hashed name opens the logical file, and FileInfo has the hash.
	info, _ := fsys.Stat(fsys.Path("js/app.js"))
	sum := info.(bakefs.HashFileInfo).Hash()[0]
	fmt.Printf("%s %d %s %x…\n", info.Name(), info.Size(), sum.Algorithm, sum.Sum[:4])
	// Output:
	// console.log('hello')
	// listed: app.js
	// app.js 21 sha256 c7d5e04a…
}

func ExampleFS_Path() {
	tree, manifest := buildTree(exampleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	fmt.Println(fsys.Path("js/app.js"))
	fmt.Println(fsys.Path("index.html")) // not fingerprinted
	fmt.Println(fsys.Integrity("js/app.js"))
	// Output:
	// js/app.c7d5e04a88.js
	// index.html
	// sha384-Gr+7DoDmRwwOzrKNeTdzGQ8kUHKE7fQizSxxiVFvYg/bYLZPPe233BAERMdbH2GT
}

func ExampleFS_Handler() {
	tree, manifest := buildTree(exampleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	h := fsys.Handler(bakefs.WithPrefix("/static/"))

	req := httptest.NewRequest("GET", "/static/js/app.c7d5e04a88.js", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, k := range []string{"Content-Type", "Content-Encoding", "Cache-Control", "Vary"} {
		fmt.Printf("%s: %s\n", k, rec.Header().Get(k))
	}

	// Revalidation of the logical name with the ETag.
	req = httptest.NewRequest("GET", "/static/js/app.js", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	req.Header.Set("If-None-Match", rec.Header().Get("Etag"))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Cache-Control"))
	// Output:
	// Content-Type: text/javascript; charset=utf-8
	// Content-Encoding: br
	// Cache-Control: public, max-age=31536000, immutable
	// Vary: Accept-Encoding
	// 304 no-cache
}

func ExampleFS_FuncMap() {
	tree, manifest := buildTree(exampleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	page := template.Must(template.New("page").Funcs(fsys.FuncMap("/static/")).Parse(
		`<script src="{{asset "js/app.js"}}"></script>
<img srcset="{{srcset "img/hero.jpg"}}">
`))
	if err := page.Execute(os.Stdout, nil); err != nil {
		log.Fatal(err)
	}

	// An unknown name fails the execution, naming the asset.

	broken := template.Must(template.New("broken").Funcs(fsys.FuncMap("/static/")).Parse(`{{asset "js/missing.js"}}`))
	fmt.Println(broken.Execute(os.Stdout, nil))
	// Output:
	// <script src="/static/js/app.c7d5e04a88.js"></script>
	// <img srcset="/static/img/hero-400w.26d228663f.jpg 400w, /static/img/hero-800w.1a1cf797fa.jpg 800w">
	// template: broken:1:2: executing "broken" at <asset "js/missing.js">: error calling asset: bakefs: asset "js/missing.js": file does not exist
}

func ExampleFS_Glob() {
	tree, manifest := buildTree(exampleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	// The answer of fs.Glob: "*" and "**" match within one element.
	for _, pattern := range []string{"*", "*/*.jpg", "img/*-400w.*", "**/*.js", "*/*.gz"} {
		names, _ := iofs.Glob(fsys, pattern)
		fmt.Println(pattern, names)
	}
	// Output:
	// * [img index.html js]
	// */*.jpg [img/hero-400w.jpg img/hero-800w.jpg]
	// img/*-400w.* [img/hero-400w.jpg]
	// **/*.js [js/app.js]
	// */*.gz []
}

func ExampleGlobAll() {
	tree, manifest := buildTree(exampleFiles)
	fsys, _ := bakefs.New(tree, manifest)
	// "**" matches any number of directories, here none or one.
	for _, pattern := range []string{"**/*.html", "**/*.jpg", "img/**"} {
		names, _ := bakefs.GlobAll(fsys, pattern)
		fmt.Println(pattern, names)
	}
	// Output:
	// **/*.html [index.html]
	// **/*.jpg [img/hero-400w.jpg img/hero-800w.jpg]
	// img/** [img img/hero-400w.jpg img/hero-800w.jpg]
}

func ExampleSplitHashedName() {
	fmt.Println(bakefs.SplitHashedName("js/app.3f2a1b9c0d.js"))
	fmt.Println(bakefs.SplitHashedName("js/app.js"))
	// Output:
	// js/app.js 3f2a1b9c0d true
	//   false
}

var _ http.Handler // the examples serve with net/http
