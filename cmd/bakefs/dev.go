package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/bakefs/bakefs/dev"
	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/project"
)

const devManual = `
Usage: bakefs dev [-f FILE] [-addr ADDR] [-prefix PATH] [-index NAME] [-spa FILE] [--remote-cache URL]

Dev serves a project's assets while you edit them: it builds the project
file (default ./bakefs.toml) into a temporary tree with the dev profile and
the cache, serves it with the same runtime handler and URLs as the
generated package does in production, and watches the sources. On each
change it rebuilds what changed and reloads the open pages; a build error
is printed as file:line:col and shown over the page, and the last good
build keeps serving. HTML responses get a small live-reload script;
` + dev.ReservedPrefix + ` is reserved for it. Nothing is written to the
project's output tree or Go package.

The remote cache (below) is read when dev starts, from the flags and the
project file, and serves every rebuild; its uploads are waited for when
dev stops. Dev builds use the dev profile, so they share entries with
other dev builds, not with bakefs build.
` + remoteManual + `
An application that renders its own pages from the assets (templates)
uses package dev directly, behind a build tag; see examples/webapp.

Examples:
  bakefs dev
  bakefs dev -f examples/minimal/bakefs.toml -addr localhost:8080
  bakefs dev -prefix /static/ -index ""
`

// runDev implements bakefs dev: it serves until interrupted (SIGINT or
// SIGTERM).
func runDev(env *environment, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveDev(ctx, env, args)
}

// serveDev runs bakefs dev until ctx is done.
func serveDev(ctx context.Context, env *environment, args []string) error {
	fs := newFlagSet(env, "dev", devManual)
	file := fs.String("f", project.DefaultFile, "project `file`")
	addr := fs.String("addr", "localhost:8080", "listen `address`; port 0 picks a free port")
	prefix := fs.String("prefix", "/", "URL `path` the files are served under")
	index := fs.String("index", "index.html", "file `name` served for a directory URL; \"\" for none")
	spa := fs.String("spa", "", "serve this `file` for unknown paths without an extension (single-page apps)")
	remoteFlags := addRemoteFlags(fs)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("dev: unexpected argument %q", fs.Arg(0))
	}
	if !strings.HasPrefix(*prefix, "/") {
		return usageError("dev: -prefix %q must start with /", *prefix)
	}
	opts := []bakefs.HandlerOption{bakefs.WithPrefix(*prefix)}
	if *index != "" {
		opts = append(opts, bakefs.WithIndex(*index))
	}
	if *spa != "" {
		opts = append(opts, bakefs.WithSPAFallback(*spa))
	}

	projectRemote := ""
	if p, err := project.Load(*file); err == nil {
		projectRemote = p.RemoteCache
	} // else the server reports the project's error as a build error
	remote, err := remoteFlags.open(env, fs, projectRemote)
	if err != nil {
		return err
	}
	defer closeRemote(remote)
	srv, err := dev.New(*file, dev.Options{Log: env.stderr, Remote: remote})
	if err != nil {
		return err
	}
	defer srv.Close()
	assets := srv.Handler(func(f *bakefs.FS) (h http.Handler, err error) {
		defer func() {
			// An option that does not fit this build (a -spa file it lacks)
			// makes Handler panic; in dev that is an error to show.
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		return f.Handler(opts...), nil
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Middleware(assets), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.stderr, "bakefs dev: serving http://%s%s\n", ln.Addr(), *prefix)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	watchErr := make(chan error, 1)
	go func() { watchErr <- srv.Run(ctx) }()
	select {
	case err := <-errc:
		return err
	case err := <-watchErr:
		if err != nil {
			return err
		}
	case <-ctx.Done():
	}
	srv.Close() // ends the event streams, which would hold Shutdown
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
