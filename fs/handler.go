package fs

import (
	"errors"
	"io"
	iofs "io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
)

// Header values of every response. The handler never puts these slices,
// nor the per-file ones built by New, into a response's header: it copies
// each value into a slice of its own (see values), so that a later
// handler that edits a value in place changes that response only.
var (
	hdrVary      = "Accept-Encoding"
	hdrImmutable = "public, max-age=31536000, immutable"
	hdrNoCache   = "no-cache"
	hdrNosniff   = "nosniff"
	hdrBytes     = "bytes"
	hdrAllow     = "GET, HEAD"
)

// valueSlab is the number of header values in one block of values.
const valueSlab = 1024

// values hands out header value slices that no other response shares.
// Each response takes its slices from one block of valueSlab strings,
// never given out twice, so the handler allocates one block per hundred
// or so responses instead of one slice per header, and a response's
// slices have len == cap, so an Add by a later handler copies them.
type values struct{ free []string }

var valuePool = sync.Pool{New: func() any { return new(values) }}

// one returns a new one-element slice holding v.
func (s *values) one(v string) []string {
	if len(s.free) == 0 {
		s.free = make([]string, valueSlab)
	}
	r := s.free[:1:1]
	s.free = s.free[1:]
	r[0] = v
	return r
}

// A route is what a request path (the prefix stripped) names.
type route struct {
	n        *node // the file; for a redirect, the directory's index file
	hashed   bool  // named by its hashed name: cached as immutable
	redirect bool  // a directory without its final "/": redirect to it
	// dictionary is the Use-As-Dictionary value of a hashed name's
	// responses, "" for none (see dictionaryMatch).
	dictionary string
}

// handler serves the files of an FS; see FS.Handler.
type handler struct {
	f        *FS // for its hooks
	data     iofs.FS
	prefix   string
	routes   map[string]route
	spa      *node
	notFound http.Handler
}

var _ http.Handler = (*handler)(nil)

// Handler returns an http.Handler that serves the files of f (a Sub serves
// its directory) with their precompressed variants. It is safe for
// concurrent use, and panics if an option is invalid (see HandlerOption).
//
// Lookup is by exact name, never by joining or cleaning paths: the URL path,
// with the prefix (WithPrefix) stripped, must be the logical path or the
// hashed name of a manifest entry, or a directory with WithIndex. Anything
// else, such as a variant's own path ("app.js.br"), the manifest or
// "a//b", is 404 Not Found (see WithSPAFallback and WithNotFound). A URL
// path without its leading "/", as http.StripPrefix leaves it, is read as
// if it had one, as http.FileServer does, so that
// http.StripPrefix("/static/", f.Handler()) serves "/static/js/app.js".
// Methods other than GET and HEAD, on a file or a directory URL, get 405
// Method Not Allowed with "Allow: GET, HEAD".
//
// The handler of an FS returned by With asks Hooks.Allow on every request:
// a file it hides with fs.ErrNotExist is answered as a missing one (404,
// WithSPAFallback or WithNotFound), any other error with its status (403
// for fs.ErrPermission); Hooks.Observe receives one "serve" Event per
// request.
//
// A file with variants is negotiable: every response for it, 304 and errors
// included, carries "Vary: Accept-Encoding" (added to a Vary already set,
// never replacing it), and the variant is chosen from Accept-Encoding
// following RFC 9110 section 12.5.3:
//
//   - Elements are comma-separated codings with an optional weight ";q="
//     (0 to 1, up to three decimals), over one or more header fields; coding
//     names and "q" are case-insensitive, "x-gzip" is gzip, and names are
//     compared whole, never as substrings. A malformed element (bad or
//     repeated q, a name that is not a token) is ignored.
//   - A coding named more than once takes its lowest weight, so q=0 anywhere
//     excludes it; "*" gives its weight to every coding not named.
//   - The highest weight wins; equal weights prefer br, then zstd, then gzip,
//     then identity.
//   - Identity competes with its own weight when named. Not named, it is
//     acceptable but least preferred: chosen only when no variant has a
//     weight above zero.
//   - Without the header, or with an empty one, the identity bytes are sent.
//     When nothing is acceptable ("identity;q=0" alone, "*;q=0"), the
//     identity bytes are sent all the same rather than 406 Not Acceptable,
//     as most servers do.
//
// Responses carry Content-Type from the manifest, "X-Content-Type-Options:
// nosniff", Content-Encoding for a variant, Content-Length, "Accept-Ranges:
// bytes", and a strong ETag per variant: the first 20 hex digits of the
// variant's own SHA-256 in quotes, followed by "-" and the coding for an
// encoded variant (`"3f2a1b9c0d4e5f6a7b8c"`, `"9e8d7c6b5a4f3e2d1c0b-br"`).
// A hashed name, and the logical name of an entry that is Fingerprinted
// (its path is content-named already), is sent with "Cache-Control:
// public, max-age=31536000, immutable"; any other logical name with
// "Cache-Control: no-cache", so that the browser revalidates it with its
// ETag.
//
// Files of a tree built with deltas (Compression Dictionary Transport,
// RFC 9842; see Delta) are served so that a returning visitor downloads
// only what changed: a hashed name's response of a script, style sheet,
// JSON, WebAssembly or SVG file carries "Use-As-Dictionary" with a pattern
// relative to its URL that matches every hashed version of the file
// (`match="app.*.js", match-dest=("script")`); a request that names in
// "Available-Dictionary" the SHA-256 of a version the file has a delta
// against, and "dcz" in Accept-Encoding, gets that delta with
// "Content-Encoding: dcz" and its own ETag (`"…-dcz"`). A Range request, a
// no-cors request from another site (Sec-Fetch-Site and Sec-Fetch-Mode),
// an unknown dictionary or "dcz" not named get the other variants. Every
// response of a file with deltas carries "Vary: Accept-Encoding,
// Available-Dictionary". Kept files of earlier releases (Entry.Previous)
// are served as immutable under their hashed names.
//
// Conditional requests follow RFC 9110 section 13.2.2: If-Match (strong
// comparison) fails with 412; If-None-Match (weak comparison, lists, "*")
// answers 304 Not Modified with ETag, Cache-Control and Vary; If-Range
// applies a Range only when it holds the strong ETag of the chosen variant.
// There is no Last-Modified, so date preconditions are ignored.
//
// Ranges (RFC 9110 section 14) apply to the bytes sent, the encoded ones for
// a variant: one range gives 206 with Content-Range, several give
// multipart/byteranges (for identity only; a multi-range request on an
// encoded variant is answered in full), none satisfiable gives 416 with
// "Content-Range: bytes */size". A Range in another unit, an invalid one
// ("bytes=abc", "bytes=5-1": RFC 9110 section 14.2 lets a server ignore
// it), over more than 64 ranges, or longer in total than the content, is
// ignored, and the whole content is sent with 200, as for any Range on
// empty content.
//
// Errors reading the tree are answered like net/http does, with a status
// text only (404, 403 or 500): internal error text is never sent.
//
// Every header value the handler sets is a slice of its own, never shared
// with another response, so a later handler that edits a value in place
// changes that response only. The slices are cut from blocks of 1024
// values, so a hit with no Range makes no allocation of its own but one
// block per hundred or so responses (about 16 bytes per header value).
//
// The body goes to the ResponseWriter in Writes of up to 256 KB, so a
// file no larger is one Write, which net/http sends with one system call
// after the one that carries the header; while it writes, a response holds
// a pooled buffer of that size at most.
func (f *FS) Handler(opts ...HandlerOption) http.Handler {
	c := handlerConfig{prefix: "/"}
	for _, o := range opts {
		if o == nil {
			c.errorf("nil HandlerOption")
			continue
		}
		o(&c)
	}
	h := &handler{f: f, data: f.tree().data, prefix: c.prefix, notFound: c.notFound, routes: make(map[string]route)}
	for full, n := range f.tree().names {
		if rel, ok := f.rel(full); ok {
			h.routes[rel] = newRoute(n, full)
		}
	}
	if c.index != "" {
		for full := range f.tree().dirs {
			rel, ok := f.rel(full)
			if !ok {
				continue
			}
			index := c.index
			if full != "." {
				index = full + "/" + c.index
			}
			n, ok := f.tree().names[index]
			if !ok || n.entry.Path != index {
				continue
			}
			if rel == "." {
				h.routes[""] = route{n: n}
			} else {
				h.routes[rel+"/"] = route{n: n}
				h.routes[rel] = route{n: n, redirect: true}
			}
		}
	}
	if c.spa != "" {
		n, _, err := f.lookup("open", c.spa)
		if err != nil || n == nil || n.entry.Path != f.full(c.spa) {
			c.errorf("WithSPAFallback(%q): not a logical file of the FS", c.spa)
		}
		h.spa = n
	}
	if len(c.errs) > 0 {
		panic("bakefs: Handler: " + strings.Join(c.errs, "; "))
	}
	return h
}

// ServeHTTP serves the file named by the request; see FS.Handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	name, ok := strings.CutPrefix(p, h.prefix)
	if !ok && !strings.HasPrefix(p, "/") {
		// A path without its leading "/", as http.StripPrefix leaves it:
		// read as if it had one, like http.FileServer does.
		name, ok = strings.CutPrefix(p, h.prefix[1:])
	}
	if !ok {
		h.serveNotFound(w, r, p, false)
		return
	}
	rt, ok := h.routes[name]
	if ok && h.f.h != nil {
		if err := h.f.visible(rt.n.entry.Path); err != nil {
			if !errors.Is(err, iofs.ErrNotExist) {
				h.serveError(w, name, err)
				return
			}
			ok = false // hidden: as if there were no such file
		}
	}
	switch {
	case !ok && h.spa != nil && !hasExt(name):
		if h.f.h != nil {
			if err := h.f.visible(h.spa.entry.Path); err != nil {
				if !errors.Is(err, iofs.ErrNotExist) {
					h.serveError(w, name, err)
					return
				}
				h.serveNotFound(w, r, name, true)
				return
			}
		}
		rt = route{n: h.spa}
	case !ok:
		h.serveNotFound(w, r, name, true)
		return
	case rt.redirect:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.serveMethodNotAllowed(w)
		} else {
			// A relative reference: the last element and "/", escaped,
			// and "./" before it when it has a colon, so that "a:b/"
			// is not read as a URL of scheme "a".
			u := url.URL{Path: path.Base(p) + "/", RawQuery: r.URL.RawQuery}
			w.Header().Set("Location", u.String())
			w.WriteHeader(http.StatusMovedPermanently)
		}
		if h.f.h != nil {
			h.f.observe("serve", rt.n.entry.Path[:strings.LastIndexByte(rt.n.entry.Path, '/')], nil)
		}
		return
	}
	err := h.serveFile(w, r, rt)
	if h.f.h != nil {
		h.f.observe("serve", rt.n.entry.Path, err)
	}
}

// newRoute returns the route of the file n named by its tree name full.
func newRoute(n *node, full string) route {
	rt := route{n: n, hashed: full == n.entry.Hashed || n.entry.Fingerprinted || n.entry.Previous != ""}
	switch {
	case n.entry.Previous != "":
		rt.dictionary = dictionaryMatch(n.entry.Previous, n.entry.Type)
	case full == n.entry.Hashed:
		rt.dictionary = dictionaryMatch(n.entry.Path, n.entry.Type)
	}
	return rt
}

// serveFile answers a request for the file of rt. It returns the error of
// reading the tree, answered with a status text only.
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, rt route) error {
	n := rt.n
	hdr := w.Header()
	vs := valuePool.Get().(*values)
	defer valuePool.Put(vs)
	if n.avail != 0 || len(n.deltas) > 0 {
		addVary(hdr, vs, len(n.deltas) > 0)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.serveMethodNotAllowed(w)
		return nil
	}
	v := n.deltaFor(r)
	if v == nil {
		c := codingIdentity
		if n.avail != 0 {
			c = negotiate(r.Header["Accept-Encoding"], n.avail)
		}
		v = &n.variants[n.byCoding[c]]
	}
	cache := hdrNoCache
	if rt.hashed {
		cache = hdrImmutable
	}
	if checkIfMatch(r.Header["If-Match"], v.etag) == condFalse {
		w.WriteHeader(http.StatusPreconditionFailed)
		return nil
	}
	if checkIfNoneMatch(r.Header["If-None-Match"], v.etag) == condFalse {
		hdr["Etag"] = vs.one(v.etag)
		hdr["Cache-Control"] = vs.one(cache)
		w.WriteHeader(http.StatusNotModified)
		return nil
	}

	var ranges []byteRange
	if rh := r.Header["Range"]; len(rh) > 0 && v.size > 0 && checkIfRange(r.Header["If-Range"], v.etag) != condFalse {
		rs, err := parseRange(rh[0], v.size)
		switch err {
		case nil:
			if len(rs) <= maxRanges && sumRanges(rs) <= v.size && (len(rs) == 1 || v.encoding == "") {
				ranges = rs
			}
		case errRangeNoOverlap:
			hdr.Set("Content-Range", unsatisfiedRange(v.size))
			http.Error(w, "416 requested range not satisfiable", http.StatusRequestedRangeNotSatisfiable)
			return nil
		default:
			// Another unit or an invalid ranges-specifier: ignored (RFC
			// 9110 sections 14.1.1 and 14.2), the whole content is sent.
		}
	}

	ra, closer, err := v.open(h.data)
	if err != nil {
		msg, code := toHTTPError(err)
		http.Error(w, msg, code)
		return err
	}
	if closer != nil {
		defer closer.Close()
	}
	hdr["Etag"] = vs.one(v.etag)
	hdr["Cache-Control"] = vs.one(cache)
	hdr["Content-Type"] = vs.one(n.entry.Type)
	hdr["X-Content-Type-Options"] = vs.one(hdrNosniff)
	hdr["Accept-Ranges"] = vs.one(hdrBytes)
	if v.encoding != "" {
		hdr["Content-Encoding"] = vs.one(v.encoding)
	}
	if rt.dictionary != "" {
		hdr[hdrUseAsDictionary] = vs.one(rt.dictionary)
	}
	body := r.Method != http.MethodHead
	switch len(ranges) {
	case 0:
		hdr["Content-Length"] = vs.one(v.length)
		w.WriteHeader(http.StatusOK)
		if body {
			copyAt(w, ra, 0, v.size)
		}
	case 1:
		rg := ranges[0]
		hdr.Set("Content-Range", rg.contentRange(v.size))
		hdr.Set("Content-Length", strconv.FormatInt(rg.length, 10))
		w.WriteHeader(http.StatusPartialContent)
		if body {
			copyAt(w, ra, rg.start, rg.length)
		}
	default:
		boundary := multipart.NewWriter(io.Discard).Boundary()
		size, err := writeMultipart(io.Discard, boundary, ranges, n.entry.Type, v.size, nil)
		if err != nil {
			http.Error(w, "500 Internal Server Error", http.StatusInternalServerError)
			return err
		}
		hdr.Set("Content-Type", "multipart/byteranges; boundary="+boundary)
		hdr.Set("Content-Length", strconv.FormatInt(size, 10))
		w.WriteHeader(http.StatusPartialContent)
		if body {
			writeMultipart(w, boundary, ranges, n.entry.Type, v.size, ra)
		}
	}
	return nil
}

// serveMethodNotAllowed answers a method other than GET and HEAD.
func (h *handler) serveMethodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Allow", hdrAllow)
	http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
}

// serveError answers a request for name, which Allow refused with err,
// with the status of err.
func (h *handler) serveError(w http.ResponseWriter, name string, err error) {
	msg, code := toHTTPError(err)
	http.Error(w, msg, code)
	h.f.observe("serve", h.f.full(name), err)
}

// serveNotFound answers a request the handler has no file for: for name,
// relative to the FS when inPrefix, or for the URL path name outside the
// prefix.
func (h *handler) serveNotFound(w http.ResponseWriter, r *http.Request, name string, inPrefix bool) {
	if h.notFound != nil {
		h.notFound.ServeHTTP(w, r)
	} else {
		http.Error(w, "404 page not found", http.StatusNotFound)
	}
	if h.f.h != nil {
		if inPrefix {
			name = h.f.full(name)
		} // else a URL path, which starts with "/": no layer's rel changes it
		h.f.observe("serve", name, iofs.ErrNotExist)
	}
}

// addVary adds Accept-Encoding, and Available-Dictionary with dictionary,
// to the Vary header, each unless it is there.
func addVary(hdr http.Header, vs *values, dictionary bool) {
	old, ok := hdr["Vary"]
	if !ok {
		if dictionary {
			hdr["Vary"] = vs.one(hdrVaryDictionary)
		} else {
			hdr["Vary"] = vs.one(hdrVary)
		}
		return
	}
	if !varies(old, "accept-encoding") {
		hdr["Vary"] = append(hdr["Vary"], "Accept-Encoding")
	}
	if dictionary && !varies(old, tokenAvailDictionary) {
		hdr["Vary"] = append(hdr["Vary"], hdrAvailDictionary)
	}
}

// varies reports whether the Vary values name the header (lowercase) or "*".
func varies(values []string, header string) bool {
	for _, v := range values {
		for v != "" {
			var tok string
			tok, v = cutByte(v, ',')
			if tok = trimOWS(tok); tok == "*" || equalFold(tok, header) {
				return true
			}
		}
	}
	return false
}

// hasExt reports whether the last element of the slash-separated name has
// an extension.
func hasExt(name string) bool {
	return strings.IndexByte(name[strings.LastIndexByte(name, '/')+1:], '.') >= 0
}

// toHTTPError maps an error reading the tree to a status and its text, like
// net/http's, never exposing the error's own text.
func toHTTPError(err error) (msg string, code int) {
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return "404 page not found", http.StatusNotFound
	case errors.Is(err, iofs.ErrPermission):
		return "403 Forbidden", http.StatusForbidden
	}
	return "500 Internal Server Error", http.StatusInternalServerError
}
