// Command cacheserver is a minimal Bazel remote cache for tests: it speaks
// Bazel's HTTP caching protocol (GET, HEAD and PUT of /ac/<sha256> and
// /cas/<sha256>) on a loopback address and keeps the blobs in a directory.
// The directory has the layout of Bazel's --disk_cache, so the server can
// also serve what local builds wrote there to a build in another output
// base, as a shared remote cache would.
//
// Usage:
//
//	cacheserver -dir DIR -port-file FILE [-addr 127.0.0.1:0]
//
// It writes the port it listens on to FILE once it accepts connections,
// and serves until it receives SIGINT or SIGTERM; it then prints one line
// of counts (gets, hits, puts) to standard error. Content-addressed blobs
// (/cas/) are checked against their SHA-256 on PUT.
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
	"strconv"
	"syscall"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("cacheserver: ")
	addr := flag.String("addr", "127.0.0.1:0", "loopback `address` to listen on")
	dir := flag.String("dir", "", "`directory` that holds the blobs (required)")
	portFile := flag.String("port-file", "", "`file` to write the port to (required)")
	flag.Parse()
	if *dir == "" || *portFile == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *dir, *portFile); err != nil {
		log.Fatal(err)
	}
}

func run(addr, dir, portFile string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %s is not a loopback address", addr)
	}
	c, err := newCache(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(portFile, []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{Handler: c}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	gets, hits, puts := c.counts()
	fmt.Fprintf(os.Stderr, "cacheserver: %d gets, %d hits, %d puts\n", gets, hits, puts)
	return nil
}
