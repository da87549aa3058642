// Package fs serves a bakefs output tree: the exact bytes written by the
// transform pipeline, described by its manifest (see Manifest).
//
// An FS is an io/fs.FS of the logical files, whose FileInfo carries the
// build-time SHA-256 (see HashFileInfo). It resolves fingerprinted names
// ("js/app.3f2a1b9c0d.js") to their logical file, serves HTTP with the
// precompressed variants (see FS.Handler), and gives html/template helpers
// for hashed URLs, Subresource Integrity, srcset and <picture> with width
// and height, and module scripts with the preloads, style sheets and
// import map of their chunks (see FS.FuncMap; FS.PreloadLinkHeader gives
// the preloads for a Link header or 103 Early Hints). It imports the
// standard library only, and is a module of its own
// (github.com/bakefs/bakefs/fs) with no requirements, so it is the one
// module an application adds to its graph by using it.
//
// Usage, with a tree embedded by the generated package:
//
//	//go:embed all:assets
//	var assets embed.FS
//
//	func main() {
//		tree, err := iofs.Sub(assets, "assets")
//		if err != nil {
//			log.Fatal(err)
//		}
//		static, err := fs.Load(tree) // reads bakefs-manifest.json, then New
//		if err != nil {
//			log.Fatal(err)
//		}
//		pages := template.Must(template.New("").
//			Funcs(static.FuncMap("/static/")).
//			ParseFS(static, "templates/*.html"))
//		http.Handle("/static/", static.Handler(fs.WithPrefix("/static/")))
//		http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
//			pages.ExecuteTemplate(w, "index.html", nil) // {{asset "js/app.js"}}
//		})
//		log.Fatal(http.ListenAndServe("localhost:8080", nil))
//	}
//
// FS.With adds hooks (Hooks) for logging, metrics and access control
// without hiding any method or interface, as a wrapper type would. GlobAll
// matches "**" across directories; FS.Glob keeps the contract of fs.Glob.
//
// The package is named fs like the manifest's; import the standard
// library's io/fs under another name (iofs above).
package fs
