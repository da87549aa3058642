package dev

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// ReservedPrefix is the URL path prefix that Middleware keeps for itself:
// ReservedPrefix+"events" streams build states, ReservedPrefix+"client.js"
// is the injected script.
const ReservedPrefix = "/_bakefs/dev/"

//go:embed client.js
var clientJS []byte

// Middleware wraps the application's handler for development:
//
//   - it answers ReservedPrefix itself (the event stream and the script);
//   - before the first successful build, it answers every other request
//     with 503 and a page that shows the build errors and reloads itself;
//   - it adds the live-reload script to HTML responses.
//
// An HTML response is one whose Content-Type is text/html and that has no
// Content-Encoding. For requests that accept text/html (page loads), the
// middleware removes Accept-Encoding, so that pages come uncompressed, and
// the conditional and Range headers, so that every load gets the current
// page with the script; such responses are marked Cache-Control: no-store
// and lose their ETag and Content-Length. Other responses pass unchanged.
func (s *Server) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, ReservedPrefix) {
			s.serveReserved(w, r)
			return
		}
		b := s.cur.Load()
		if b.fs == nil {
			s.serveNoBuild(w, b)
			return
		}
		if r.Method != http.MethodGet || !acceptsHTML(r) {
			next.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		for _, k := range []string{"Accept-Encoding", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "Range", "If-Range"} {
			r.Header.Del(k)
		}
		iw := &injectWriter{w: w, tag: scriptTag(b.gen)}
		defer iw.finish()
		next.ServeHTTP(iw, r)
	})
}

// acceptsHTML reports whether the request is a page load.
func acceptsHTML(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		if strings.Contains(v, "text/html") {
			return true
		}
	}
	return false
}

// scriptTag is the element injected into pages built from generation gen.
func scriptTag(gen uint64) []byte {
	return fmt.Appendf(nil, `<script src="%sclient.js" data-generation="%d" data-events="%sevents"></script>`, ReservedPrefix, gen, ReservedPrefix)
}

func (s *Server) serveReserved(w http.ResponseWriter, r *http.Request) {
	switch strings.TrimPrefix(r.URL.Path, ReservedPrefix) {
	case "events":
		s.serveEvents(w, r)
	case "client.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Length", strconv.Itoa(len(clientJS)))
		w.Write(clientJS)
	default:
		http.NotFound(w, r)
	}
}

// serveNoBuild answers while there is nothing to serve: the errors, and
// the script, which reloads the page once a build succeeds.
func (s *Server) serveNoBuild(w http.ResponseWriter, b *build) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>bakefs dev: build failed</title><h1>bakefs dev: no successful build yet</h1><pre>%s</pre>%s\n",
		html.EscapeString(errorText(b.err, b.src)), scriptTag(0))
}

// injectWriter holds back an HTML response to add the script to it, and
// passes any other response through.
type injectWriter struct {
	w       http.ResponseWriter
	tag     []byte
	decided bool
	inject  bool
	code    int
	buf     bytes.Buffer
}

var (
	_ http.ResponseWriter = (*injectWriter)(nil)
	_ http.Flusher        = (*injectWriter)(nil)
	_ http.Hijacker       = (*injectWriter)(nil)
)

func (iw *injectWriter) Header() http.Header { return iw.w.Header() }

// decide chooses, once, between injecting and passing through. first is
// the first bytes of the body, for sniffing when no Content-Type is set.
func (iw *injectWriter) decide(code int, first []byte) {
	if iw.decided {
		return
	}
	iw.decided, iw.code = true, code
	h := iw.w.Header()
	ct := h.Get("Content-Type")
	if ct == "" && len(first) > 0 {
		ct = http.DetectContentType(first)
		h.Set("Content-Type", ct)
	}
	iw.inject = strings.HasPrefix(ct, "text/html") && h.Get("Content-Encoding") == "" &&
		code != http.StatusNotModified && code != http.StatusNoContent && code >= 200
	if !iw.inject {
		iw.w.WriteHeader(code)
	}
}

func (iw *injectWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		iw.w.WriteHeader(code) // informational: not the final header
		return
	}
	iw.decide(code, nil)
}

func (iw *injectWriter) Write(p []byte) (int, error) {
	iw.decide(http.StatusOK, p)
	if iw.inject {
		return iw.buf.Write(p)
	}
	return iw.w.Write(p)
}

// Flush passes through when not injecting; an injected page is sent whole
// at the end.
func (iw *injectWriter) Flush() {
	if iw.decided && !iw.inject {
		http.NewResponseController(iw.w).Flush()
	}
}

func (iw *injectWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(iw.w).Hijack()
}

// Unwrap gives http.ResponseController the underlying writer.
func (iw *injectWriter) Unwrap() http.ResponseWriter { return iw.w }

// finish sends a held-back page with the script added.
func (iw *injectWriter) finish() {
	if !iw.decided || !iw.inject {
		return
	}
	page := injectScript(iw.buf.Bytes(), iw.tag)
	h := iw.w.Header()
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	iw.w.WriteHeader(iw.code)
	iw.w.Write(page)
}

// injectScript inserts tag before the last "</body>" of page (in any
// case), or appends it when the page has none: minifiers drop optional end
// tags, and a script after the content still runs.
func injectScript(page, tag []byte) []byte {
	i := lastIndexASCIIFold(page, "</body")
	if i < 0 {
		return append(page[:len(page):len(page)], tag...)
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:i]...)
	out = append(out, tag...)
	return append(out, page[i:]...)
}

// lastIndexASCIIFold returns the index of the last occurrence of the
// lower-case ASCII text lower in b, ignoring ASCII case, or -1. Bytes
// outside ASCII never match, and b is not decoded, so indexes stay byte
// offsets of b whatever it holds.
func lastIndexASCIIFold(b []byte, lower string) int {
	for i := len(b) - len(lower); i >= 0; i-- {
		j := 0
		for ; j < len(lower); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return i
		}
	}
	return -1
}
