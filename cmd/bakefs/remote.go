package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/bakefs/bakefs/pipeline"
	"github.com/bakefs/bakefs/pipeline/remote"
)

// remoteHeaderEnv names the variable that holds the remote cache's extra
// headers, one "Name: value" a line, so that credentials stay out of
// project files, command lines and logs.
const remoteHeaderEnv = "BAKEFS_REMOTE_HEADER"

// remoteFlushTimeout bounds the wait for uploads at the end of a command.
const remoteFlushTimeout = 30 * time.Second

// remoteManual is the part of a command's manual about the remote cache.
const remoteManual = `
Remote cache: --remote-cache URL (or remote_cache in the project file; the
flag wins, and --remote-cache= turns it off) adds a cache shared between
machines behind the local one. It speaks Bazel's HTTP cache protocol, so
the servers Bazel uses serve it (nginx with WebDAV, bazel-remote,
BuildBuddy): a job the local cache lacks is looked up under /ac/<key> and
its bytes under /cas/<sha256>, verified, and copied into the local cache;
a job that ran is uploaded in the background, and the command waits up to
30s for the uploads at its end. --remote-cache-read-only only downloads
(laptops; let CI upload). Credentials: --remote-header 'Name: value'
(repeatable) or $BAKEFS_REMOTE_HEADER (one header a line; the flag wins
for the same name); they are never printed. A slow, failing or absent
server never fails a build: one warning, then the local cache only.
`

// remoteFlags are the remote cache flags of build, transform and dev.
type remoteFlags struct {
	url      string
	readOnly bool
	headers  listFlag
	timeout  time.Duration
}

func addRemoteFlags(fs *flag.FlagSet) *remoteFlags {
	f := &remoteFlags{}
	fs.StringVar(&f.url, "remote-cache", "", "remote cache `URL` (Bazel HTTP protocol); overrides the project's remote_cache")
	fs.BoolVar(&f.readOnly, "remote-cache-read-only", false, "look up the remote cache, upload nothing")
	fs.Var(&f.headers, "remote-header", "send this `header` ('Name: value') to the remote cache (repeatable)")
	fs.DurationVar(&f.timeout, "remote-timeout", 60*time.Second, "bound of one remote cache request")
	return f
}

// open returns the remote cache the flags and the project's remote_cache
// (projectURL, "" for none) ask for, or nil. Warnings go to env's stderr.
func (f *remoteFlags) open(env *environment, fs *flag.FlagSet, projectURL string) (*pipeline.RemoteCache, error) {
	url := projectURL
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "remote-cache" {
			url = f.url
		}
	})
	if url == "" {
		return nil, nil
	}
	header, err := remoteHeaders(os.Getenv(remoteHeaderEnv), f.headers)
	if err != nil {
		return nil, err
	}
	store, err := remote.NewHTTPStore(url, remote.HTTPOptions{Header: header, Timeout: f.timeout})
	if err != nil {
		return nil, usageError("--remote-cache: %v", err)
	}
	return pipeline.NewRemoteCache(store, pipeline.RemoteOptions{
		Name:     store.String(),
		ReadOnly: f.readOnly,
		Warn: func(msg string) {
			clear := ""
			if env.interactive {
				clear = "\r\033[K" // over the progress line
			}
			fmt.Fprintf(env.stderr, "%sbakefs: warning: %s\n", clear, msg)
		},
	}), nil
}

// remoteHeaders parses the headers of the environment variable (one a
// line) and of the flags, which replace the variable's for the same name.
// Errors say where the bad header is, never what it holds.
func remoteHeaders(env string, flags []string) (http.Header, error) {
	h := http.Header{}
	for i, line := range strings.Split(env, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := parseHeader(line)
		if !ok {
			return nil, usageError("$%s, line %d: want 'Name: value'", remoteHeaderEnv, i+1)
		}
		h.Add(name, value)
	}
	fromFlags := http.Header{}
	for i, s := range flags {
		name, value, ok := parseHeader(s)
		if !ok {
			return nil, usageError("--remote-header number %d: want 'Name: value'", i+1)
		}
		fromFlags.Add(name, value)
	}
	for name, values := range fromFlags {
		h[name] = values
	}
	return h, nil
}

// parseHeader splits "Name: value", refusing a name that is not an HTTP
// token and a value with control characters.
func parseHeader(s string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(strings.TrimRight(s, "\r"), ":")
	if !ok || name == "" {
		return "", "", false
	}
	for _, c := range name {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c) {
			return "", "", false
		}
	}
	value = strings.TrimSpace(value)
	for _, c := range value {
		if c < ' ' && c != '\t' || c == 0x7f {
			return "", "", false
		}
	}
	return http.CanonicalHeaderKey(name), value, true
}

// closeRemote waits for a command's uploads (see remoteFlushTimeout).
func closeRemote(r *pipeline.RemoteCache) {
	if r != nil {
		r.Close(remoteFlushTimeout)
	}
}
