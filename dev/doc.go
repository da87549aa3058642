// Package dev is the bakefs development server: it serves a project's
// assets with the same runtime handler and the same URLs as a production
// binary, but builds them from the sources on disk, rebuilds them when a
// source changes, and reloads the browser.
//
// A Server loads the project file, runs its rules with the transform
// pipeline (with the dev profile and the cache, so that a rebuild runs only
// the chains whose inputs changed) and makes a runtime FS of the result.
// A rebuild costs what changed, not what exists: the pipeline keeps what
// the last build made in memory (pipeline.Incremental), so that an
// unchanged file is neither read, hashed nor looked up in the cache (and,
// while Run watches, not even statted: the watcher names the files
// written), and the files of every build live in one temporary store, one
// copy per distinct content, so that a new build shares its unchanged
// files with the one before it and fetches only the new ones, which it
// keeps in memory when they are few. The Server swaps the new
// FS in atomically on each successful build, so a request sees one whole
// build, never half of two. A failed build keeps the previous FS serving,
// prints the errors to the terminal as "file:line:col: error: message"
// lines, and shows them in the browser as an overlay until the next good
// build.
//
// The rewrite pass runs in dev as in a build (pipeline.Pipeline.Base and
// Strict come from the project file): pages and style sheets name the
// hashed names of the files they refer to, so dev serves the URLs that
// production serves, and a rebuild that changes an image changes the
// names of the sheets and pages that use it, which the reload fetches.
// Warnings about references to missing files are printed with each build.
//
// Steps that take a sourcemap option (bundle, typescript, jsx, tsx) get
// sourcemap=external in dev unless the rule sets it, so the browser's
// debugger shows the sources; production builds keep the maps out.
//
// Middleware injects a small script into HTML responses; it listens to
// Server-Sent Events at ReservedPrefix+"events" and reloads the page when a
// new build is in, or shows the overlay when a build fails.
//
// Usage, serving a project's assets under /static/ and the application's
// own pages, with live reload:
//
//	srv, err := dev.New("bakefs.toml", dev.Options{})
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer srv.Close()
//	go srv.Run(ctx) // watch the sources
//	mux := http.NewServeMux()
//	mux.Handle("/static/", srv.Handler(func(f *fs.FS) (http.Handler, error) {
//		return f.Handler(fs.WithPrefix("/static/")), nil
//	}))
//	mux.HandleFunc("/", page) // renders templates from srv.FS()
//	log.Fatal(http.ListenAndServe("localhost:8080", srv.Middleware(mux)))
//
// The package is for development only: it imports the transform pipeline
// and a file watcher. Production binaries import the generated package
// (see embedgen) and never this one; build dev wiring behind a build tag.
package dev
