// Minimal is the smallest useful bakefs setup: three source files in web/,
// a project file, and the Go package that bakefs build writes from them
// (committed in assets/, so that this runs on a fresh clone).
//
//	go run ./examples/minimal                                  # http://localhost:8080/
//	go run ./cmd/bakefs build -f examples/minimal/bakefs.toml  # after editing web/
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/bakefs/bakefs/examples/minimal/assets"
	bakefs "github.com/bakefs/bakefs/fs"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "listen `address`")
	flag.Parse()
	log.Printf("serving http://%s/", *addr)
	log.Fatal(http.ListenAndServe(*addr, assets.Handler(bakefs.WithIndex("index.html"))))
}
