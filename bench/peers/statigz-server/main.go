//go:build ignore

// Command statigz-server serves site/ with statigz and its brotli encoding,
// which sends the precompressed .br and .gz sidecars. bench/run.sh keeps
// it in a module of its own (a "gomod" peer); section o builds it per tree:
// statigz-server ADDR TIMEOUT.
package main

import (
	"embed"
	"io/fs"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/vearutop/statigz"
	"github.com/vearutop/statigz/brotli"
)

//go:embed site
var site embed.FS

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: statigz-server ADDR TIMEOUT")
	}
	d, err := time.ParseDuration(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	sub, err := fs.Sub(site, "site")
	if err != nil {
		log.Fatal(err)
	}
	time.AfterFunc(d, func() { os.Exit(0) })
	log.Fatal(http.ListenAndServe(os.Args[1], statigz.FileServer(sub.(fs.ReadDirFS), brotli.AddEncoding)))
}
