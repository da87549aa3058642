// Webapp is the bakefs example application: a small site whose every
// asset (TypeScript bundled into one module, CSS with a web font and
// images, an SVG icon set, JSON data, a photo in several widths and
// formats, the page templates) is built by bakefs and embedded in this one
// binary.
//
// Build and run, from the repository root:
//
//	make assets                  # bakefs build -f examples/webapp/bakefs.toml
//	go run ./examples/webapp     # http://localhost:8080/
//
// With -tls-cert and -tls-key it serves HTTPS, and HTTP/2 to browsers
// that offer it. Interrupt it (Ctrl-C) to stop: requests in flight finish
// first.
//
// Development, with the sources read from disk, rebuilt on change, and the
// browser reloaded:
//
//	go run -tags bakefs_dev ./examples/webapp -project examples/webapp/bakefs.toml
//
// The dev wiring (dev.go) is compiled only with the bakefs_dev tag, so a
// production binary contains neither the dev server nor the transform
// pipeline.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("webapp: ")
	addr := flag.String("addr", "localhost:8080", "listen `address`; port 0 picks a free port")
	certFile := flag.String("tls-cert", "", "TLS certificate `file` (PEM); with -tls-key, serve HTTPS and HTTP/2")
	keyFile := flag.String("tls-key", "", "TLS private key `file` (PEM)")
	flag.Parse()
	if flag.NArg() > 0 || (*certFile == "") != (*keyFile == "") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *certFile, *keyFile); err != nil {
		log.Fatal(err)
	}
}

// run serves until SIGINT or SIGTERM, then shuts down gracefully.
func run(addr, certFile, keyFile string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	src, err := openAssets(ctx)
	if err != nil {
		return err
	}
	defer src.Close()
	handler, err := newApp(src)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	scheme := "http"
	if certFile != "" {
		scheme = "https"
	}
	// The first line on stdout says where to connect; tests read it.
	fmt.Printf("webapp: serving %s://%s/ (%s)\n", scheme, ln.Addr(), src.Mode())
	errc := make(chan error, 1)
	go func() {
		if certFile != "" {
			errc <- srv.ServeTLS(ln, certFile, keyFile)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Print("shutting down")
	src.Close() // ends dev event streams, which would hold Shutdown
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
