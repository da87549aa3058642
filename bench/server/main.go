// Server serves one embedded file two ways on two loopback ports, so that
// an HTTP load generator can compare them side by side:
//
//   - through the bakefs runtime handler (fs.Load + FS.Handler), which
//     sends the precompressed variant that Accept-Encoding allows;
//   - through http.FileServer(http.FS(embed.FS)), which sends the bytes as
//     they are.
//
// Both read the same embed.FS: the bakefs output tree under site/tree
// (bench/suite puts it there in a temporary copy of this package).
//
// Usage:
//
//	server [-bakefs 127.0.0.1:8081] [-plain 127.0.0.1:8082] [-file js/app.js] [-timeout 10m]
//
// It prints one line, "ready ...", once both listeners are open, and stops
// by itself after -timeout, or on SIGINT or SIGTERM. Addresses must be on
// the loopback interface.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	iofs "io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

//go:embed all:site
var site embed.FS

func main() {
	log.SetFlags(0)
	log.SetPrefix("server: ")
	bakefsAddr := flag.String("bakefs", "127.0.0.1:8081", "loopback `address` of the bakefs handler")
	plainAddr := flag.String("plain", "127.0.0.1:8082", "loopback `address` of http.FileServer")
	file := flag.String("file", "js/app.js", "logical `path` of the file to serve")
	timeout := flag.Duration("timeout", 10*time.Minute, "stop after this `duration`")
	flag.Parse()
	if flag.NArg() > 0 || *timeout <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	tree, err := iofs.Sub(site, "site/tree")
	if err != nil {
		log.Fatal(err)
	}
	h, err := newHandlers(tree, *file)
	if err != nil {
		log.Fatalf("site/tree (bench/suite writes it): %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := serve(ctx, map[string]http.Handler{*bakefsAddr: h.bakefs, *plainAddr: h.plain}, func() {
		fmt.Printf("ready bakefs=http://%s/%s plain=http://%s/%s size=%d br=%d gzip=%d\n",
			*bakefsAddr, *file, *plainAddr, *file, h.size, h.br, h.gzip)
	}); err != nil {
		log.Fatal(err)
	}
}

// serve listens on every loopback address, calls ready once all listen,
// and serves until ctx is done.
func serve(ctx context.Context, handlers map[string]http.Handler, ready func()) error {
	var servers []*http.Server
	errc := make(chan error, len(handlers))
	for addr, h := range handlers {
		if err := checkLoopback(addr); err != nil {
			return err
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return err
		}
		s := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, s)
		go func() { errc <- s.Serve(ln) }()
	}
	ready()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, s := range servers {
		s.Shutdown(shut)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// checkLoopback refuses an address whose host is not a loopback IP or
// "localhost".
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q: only loopback addresses are served", addr)
	}
	return nil
}
