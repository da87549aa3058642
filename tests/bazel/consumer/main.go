// Command server serves the assets that go_embed_data embeds, under /static/.
package main

import (
	"log"
	"net/http"

	"example.com/consumer/assets"
	bakefs "github.com/bakefs/bakefs/fs"
)

// newHandler serves the embedded assets below /static/.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/static/", assets.Handler(bakefs.WithPrefix("/static/")))
	return mux
}

func main() {
	log.Printf("serving %s on :8080", assets.Path("js/app.js"))
	log.Fatal(http.ListenAndServe(":8080", newHandler()))
}
