package fs_test

import (
	"bytes"
	"errors"
	bakefs "github.com/bakefs/bakefs/fs"
	"io"
	iofs "io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// absent marks a header that a response must not carry.
const absent = "\x00absent"

const (
	ccImmutable = "public, max-age=31536000, immutable"
	ccNoCache   = "no-cache"
	date        = "Wed, 25 Jun 2014 17:12:18 GMT"
)

type handlerCase struct {
	name    string
	method  string // "" runs GET and HEAD
	path    string
	header  [][2]string
	status  int
	headers map[string]string // value absent: no such header
	body    []byte            // the GET body; for 200 and 206 also Content-Length
	check   func(t *testing.T, res *http.Response, body []byte)
}

// testServer serves the test tree under several handler configurations,
// dispatched by path prefix without http.ServeMux, which would clean paths.
func testServer(t *testing.T, fsys *bakefs.FS) *httptest.Server {
	js, err := fsys.Sub("js")
	if err != nil {
		t.Fatal(err)
	}
	static := fsys.Handler(bakefs.WithPrefix("/static/"))
	vary := fsys.Handler(bakefs.WithPrefix("/mw/"))
	routes := []struct {
		prefix string
		h      http.Handler
	}{
		{"/static/", static},
		{"/other/", static},
		{"/mw/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Vary", "Origin")
			vary.ServeHTTP(w, r)
		})},
		{"/idx/", fsys.Handler(bakefs.WithPrefix("/idx/"), bakefs.WithIndex("index.html"))},
		{"/spa/", fsys.Handler(bakefs.WithPrefix("/spa"), bakefs.WithSPAFallback("index.html"))},
		{"/nf/", fsys.Handler(bakefs.WithPrefix("/nf/"), bakefs.WithNotFound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
			io.WriteString(w, "teapot "+r.URL.Path)
		})))},
		{"/js/", js.(*bakefs.FS).Handler(bakefs.WithPrefix("/js/"))},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, rt := range routes {
			if strings.HasPrefix(r.URL.Path, rt.prefix) {
				rt.h.ServeHTTP(w, r)
				return
			}
		}
		t.Errorf("no route for %s", r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHandler(t *testing.T) {
	fsys, tree, m := newTestFS(t)
	srv := testServer(t, fsys)
	client := &http.Client{
		Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	t.Cleanup(client.CloseIdleConnections)

	// bytesOf and etagOf give the bytes and ETag of a file in a coding
	// ("" for identity), from the tree and manifest.
	bytesOf := func(path, coding string) []byte {
		if coding == "" {
			return tree[path].Data
		}
		suffix, _ := bakefs.EncodingSuffix(coding)
		return tree[path+suffix].Data
	}
	etagOf := func(path, coding string) string {
		e := entryOf(t, m, path)
		if coding == "" {
			return `"` + e.SHA256[:20] + `"`
		}
		for _, enc := range e.Encodings {
			if enc.Name == coding {
				return `"` + enc.SHA256[:20] + "-" + coding + `"`
			}
		}
		t.Fatalf("%s has no %s variant", path, coding)
		return ""
	}
	app := entryOf(t, m, "js/app.js")
	appLen := len(appJS)
	robots := bytesOf("robots.txt", "")
	br := bytesOf("js/app.js", "br")
	gz := bytesOf("js/app.js", "gzip")
	zst := bytesOf("js/app.js", "zstd")
	ae := func(v string) [2]string { return [2]string{"Accept-Encoding", v} }
	hdr := func(k, v string) [2]string { return [2]string{k, v} }
	identityApp := map[string]string{
		"Content-Encoding": absent, "Vary": "Accept-Encoding", "Etag": etagOf("js/app.js", ""),
		"Content-Type": typeJS, "Cache-Control": ccNoCache,
	}
	variantApp := func(coding string) map[string]string {
		return map[string]string{
			"Content-Encoding": coding, "Vary": "Accept-Encoding", "Etag": etagOf("js/app.js", coding),
			"Content-Type": typeJS, "Cache-Control": ccNoCache, "Accept-Ranges": "bytes",
		}
	}
	notModified := func(etag, cc, vary string) map[string]string {
		return map[string]string{
			"Etag": etag, "Cache-Control": cc, "Vary": vary,
			"Content-Type": absent, "Content-Encoding": absent, "Content-Length": absent,
		}
	}
	errorHeaders := map[string]string{"Etag": absent, "Cache-Control": absent, "Content-Type": typeText, "X-Content-Type-Options": "nosniff"}
	notFound := []byte("404 page not found\n")
	multipartCheck := func(content []byte, want [][2]int) func(t *testing.T, res *http.Response, body []byte) {
		return func(t *testing.T, res *http.Response, body []byte) {
			mt, params, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
			if err != nil || mt != "multipart/byteranges" {
				t.Fatalf("Content-Type = %q, want multipart/byteranges", res.Header.Get("Content-Type"))
			}
			if res.Request.Method == "HEAD" {
				return
			}
			if res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s, body %d bytes", res.Header.Get("Content-Length"), len(body))
			}
			mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
			for i, w := range want {
				part, err := mr.NextPart()
				if err != nil {
					t.Fatalf("part %d: %v", i, err)
				}
				wantRange := "bytes " + strconv.Itoa(w[0]) + "-" + strconv.Itoa(w[1]-1) + "/" + strconv.Itoa(len(content))
				if got := part.Header.Get("Content-Range"); got != wantRange {
					t.Errorf("part %d Content-Range %q, want %q", i, got, wantRange)
				}
				if got := part.Header.Get("Content-Type"); got != typeJS {
					t.Errorf("part %d Content-Type %q", i, got)
				}
				b, _ := io.ReadAll(part)
				if !bytes.Equal(b, content[w[0]:w[1]]) {
					t.Errorf("part %d bytes %q, want %q", i, b, content[w[0]:w[1]])
				}
			}
			if _, err := mr.NextPart(); err != io.EOF {
				t.Errorf("extra part: %v", err)
			}
		}
	}
	rangeOf := func(b []byte, start, end int) string {
		return "bytes " + strconv.Itoa(start) + "-" + strconv.Itoa(end) + "/" + strconv.Itoa(len(b))
	}

	cases := []handlerCase{
		// The cases of net/http's TestServeContent. The handler sends no
		// Last-Modified, so date preconditions are ignored.
		{name: "no_last_modified", path: "/static/robots.txt", status: 200, body: robots,
			headers: map[string]string{"Content-Type": typeText, "Last-Modified": absent, "Etag": etagOf("robots.txt", ""),
				"Cache-Control": ccNoCache, "Vary": absent, "X-Content-Type-Options": "nosniff", "Accept-Ranges": "bytes"}},
		{name: "with_last_modified", path: "/static/index.html", status: 200, body: bytesOf("index.html", ""),
			headers: map[string]string{"Content-Type": typeHTML, "Last-Modified": absent, "Vary": "Accept-Encoding", "Content-Encoding": absent}},
		{name: "not_modified_modtime", path: "/static/robots.txt", header: [][2]string{hdr("If-Modified-Since", date)},
			status: 200, body: robots},
		{name: "not_modified_modtime_with_etag", path: "/static/robots.txt",
			header: [][2]string{hdr("If-Modified-Since", date), hdr("If-None-Match", etagOf("robots.txt", ""))},
			status: 304, headers: notModified(etagOf("robots.txt", ""), ccNoCache, absent)},
		{name: "not_modified_etag", path: "/static/robots.txt", header: [][2]string{hdr("If-None-Match", etagOf("robots.txt", ""))},
			status: 304, body: []byte{}, headers: notModified(etagOf("robots.txt", ""), ccNoCache, absent)},
		{name: "not_modified_etag_weak_in_list", path: "/static/robots.txt",
			header: [][2]string{hdr("If-None-Match", `"baz", W/`+etagOf("robots.txt", ""))}, status: 304},
		{name: "if_none_match_mismatch", path: "/static/robots.txt",
			header: [][2]string{hdr("If-None-Match", strings.ToUpper(etagOf("robots.txt", "")))}, status: 200, body: robots},
		{name: "if_none_match_malformed", path: "/static/robots.txt", header: [][2]string{hdr("If-None-Match", ",")}, status: 200, body: robots},
		{name: "if_none_match_star", path: "/static/robots.txt", header: [][2]string{hdr("If-None-Match", "*")}, status: 304},
		{name: "range_good", path: "/static/robots.txt", header: [][2]string{hdr("Range", "bytes=0-4")}, status: 206,
			body: robots[:5], headers: map[string]string{"Content-Range": rangeOf(robots, 0, 4), "Content-Type": typeText}},
		{name: "range_match", path: "/static/robots.txt",
			header: [][2]string{hdr("Range", "bytes=0-4"), hdr("If-Range", etagOf("robots.txt", ""))}, status: 206,
			body: robots[:5], headers: map[string]string{"Content-Range": rangeOf(robots, 0, 4)}},
		{name: "range_match_weak_etag", path: "/static/robots.txt",
			header: [][2]string{hdr("Range", "bytes=0-4"), hdr("If-Range", "W/"+etagOf("robots.txt", ""))}, status: 200,
			body: robots, headers: map[string]string{"Content-Range": absent}},
		{name: "range_no_overlap", path: "/static/robots.txt", header: [][2]string{hdr("Range", "bytes=100-200")}, status: 416,
			body:    []byte("416 requested range not satisfiable\n"),
			headers: map[string]string{"Content-Range": "bytes */" + strconv.Itoa(len(robots)), "Content-Type": typeText, "Etag": absent, "Cache-Control": absent}},
		{name: "range_no_match", path: "/static/robots.txt", header: [][2]string{hdr("Range", "bytes=0-4"), hdr("If-Range", `"B"`)},
			status: 200, body: robots},
		{name: "range_with_modtime", path: "/static/robots.txt", header: [][2]string{hdr("Range", "bytes=0-4"), hdr("If-Range", date)},
			status: 200, body: robots},
		{name: "ifmatch_matches", path: "/static/robots.txt", header: [][2]string{hdr("If-Match", `"Z", `+etagOf("robots.txt", ""))},
			status: 200, body: robots},
		{name: "ifmatch_star", path: "/static/robots.txt", header: [][2]string{hdr("If-Match", "*")}, status: 200, body: robots},
		{name: "ifmatch_failed", path: "/static/robots.txt", header: [][2]string{hdr("If-Match", `"B"`)}, status: 412,
			body: []byte{}, headers: map[string]string{"Etag": absent, "Cache-Control": absent}},
		{name: "ifmatch_fails_on_weak_etag", path: "/static/robots.txt",
			header: [][2]string{hdr("If-Match", "W/"+etagOf("robots.txt", ""))}, status: 412},
		{name: "if_unmodified_since", path: "/static/robots.txt", header: [][2]string{hdr("If-Unmodified-Since", date)},
			status: 200, body: robots},
		{name: "content_type_not_sniffed", path: "/static/sniff.txt", status: 200, body: bytesOf("sniff.txt", ""),
			headers: map[string]string{"Content-Type": typeText, "X-Content-Type-Options": "nosniff"}},

		// The ranges of net/http's ServeFileRangeTests, on app.js.
		{name: "range_suffix", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=-5")}, status: 206,
			body: []byte(appJS[appLen-5:]), headers: map[string]string{"Content-Range": rangeOf([]byte(appJS), appLen-5, appLen-1)}},
		{name: "range_open_end", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=2-")}, status: 206,
			body: []byte(appJS[2:]), headers: map[string]string{"Content-Range": rangeOf([]byte(appJS), 2, appLen-1)}},
		{name: "range_past_end", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=5-1000000")}, status: 206,
			body: []byte(appJS[5:]), headers: map[string]string{"Content-Range": rangeOf([]byte(appJS), 5, appLen-1)}},
		{name: "range_last_byte", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes="+strconv.Itoa(appLen-1)+"-")},
			status: 206, body: []byte(appJS[appLen-1:])},
		{name: "range_multi", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=0-0,-2")}, status: 206,
			headers: map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": absent, "Etag": etagOf("js/app.js", "")},
			check:   multipartCheck([]byte(appJS), [][2]int{{0, 1}, {appLen - 2, appLen}})},
		{name: "range_multi_spaces", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes= 0-1 , 5-8")}, status: 206,
			check: multipartCheck([]byte(appJS), [][2]int{{0, 2}, {5, 9}})},
		{name: "range_wasteful", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=0-,1-,2-,3-,4-")}, status: 200,
			body: []byte(appJS)},
		{name: "range_start_past_end", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes="+strconv.Itoa(appLen)+"-")},
			status: 416, headers: map[string]string{"Content-Range": "bytes */" + strconv.Itoa(appLen), "Vary": "Accept-Encoding"}},
		// An invalid ranges-specifier is ignored (RFC 9110 sections 14.1.1
		// and 14.2): 200 with the whole content, not 416.
		{name: "range_reversed", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=5-1")}, status: 200,
			body: []byte(appJS), headers: map[string]string{"Content-Range": absent}},
		{name: "range_malformed", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=a-b")}, status: 200,
			body: []byte(appJS), headers: map[string]string{"Content-Range": absent}},
		{name: "range_not_a_range", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=abc")}, status: 200,
			body: []byte(appJS), headers: map[string]string{"Content-Range": absent}},
		{name: "range_one_invalid_of_two", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=0-4,abc")}, status: 200,
			body: []byte(appJS)},
		{name: "range_no_equals", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes")}, status: 200,
			body: []byte(appJS)},
		{name: "range_suffix_zero", path: "/static/js/app.js", header: [][2]string{hdr("Range", "bytes=-0")}, status: 416},
		{name: "range_other_unit", path: "/static/js/app.js", header: [][2]string{hdr("Range", "items=0-4")}, status: 200,
			body: []byte(appJS)},
		{name: "range_empty_file", path: "/static/empty.txt", header: [][2]string{hdr("Range", "bytes=0-128")}, status: 200,
			body: []byte{}},

		// Content negotiation.
		{name: "ae_br_gzip", path: "/static/js/app.js", header: [][2]string{ae("br, gzip")}, status: 200, body: br,
			headers: variantApp("br")},
		{name: "ae_equal_q_prefers_br", path: "/static/js/app.js", header: [][2]string{ae("gzip, zstd, br")}, status: 200, body: br},
		{name: "ae_q_zero_excludes", path: "/static/js/app.js", header: [][2]string{ae("br;q=0, gzip")}, status: 200, body: gz,
			headers: variantApp("gzip")},
		{name: "ae_q_order", path: "/static/js/app.js", header: [][2]string{ae("gzip;q=0.5, zstd;q=0.8, br;q=0.3")}, status: 200,
			body: zst, headers: variantApp("zstd")},
		{name: "ae_zstd_over_gzip", path: "/static/js/app.js", header: [][2]string{ae("gzip, zstd")}, status: 200, body: zst},
		{name: "ae_star", path: "/static/js/app.js", header: [][2]string{ae("*")}, status: 200, body: br},
		{name: "ae_star_with_exclusion", path: "/static/js/app.js", header: [][2]string{ae("br;q=0, *;q=0.5")}, status: 200, body: zst},
		{name: "ae_star_zero", path: "/static/js/app.js", header: [][2]string{ae("*;q=0")}, status: 200, body: []byte(appJS),
			headers: identityApp},
		{name: "ae_identity_zero_fallback", path: "/static/js/app.js", header: [][2]string{ae("identity;q=0")}, status: 200,
			body: []byte(appJS), headers: identityApp},
		{name: "ae_case_insensitive", path: "/static/js/app.js", header: [][2]string{ae("GZIP;Q=1, BR;q=0.9")}, status: 200, body: gz},
		{name: "ae_no_variant", path: "/static/js/vendor/lib.js", header: [][2]string{ae("br")}, status: 200,
			body: bytesOf("js/vendor/lib.js", ""), headers: map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": absent}},
		{name: "ae_x_gzip", path: "/static/js/app.js", header: [][2]string{ae("x-gzip")}, status: 200, body: gz},
		{name: "ae_no_substring_match", path: "/static/js/app.js", header: [][2]string{ae("brotli, gzipped, xbr, zstd1")}, status: 200,
			body: []byte(appJS), headers: identityApp},
		{name: "ae_empty", path: "/static/js/app.js", header: [][2]string{ae("")}, status: 200, body: []byte(appJS), headers: identityApp},
		{name: "ae_absent", path: "/static/js/app.js", status: 200, body: []byte(appJS), headers: identityApp},
		{name: "ae_bad_q_ignored", path: "/static/js/app.js", header: [][2]string{ae("br;q=1.5, gzip;q=abc, zstd;q=0.5;q=1")},
			status: 200, body: []byte(appJS)},
		{name: "ae_identity_preferred", path: "/static/js/app.js", header: [][2]string{ae("br;q=0.001, identity;q=0.5")}, status: 200,
			body: []byte(appJS)},
		{name: "ae_two_fields", path: "/static/js/app.js", header: [][2]string{ae("gzip;q=0.2"), ae("br;q=0.1")}, status: 200, body: gz},
		{name: "ae_repeated_coding_lowest_q", path: "/static/js/app.js", header: [][2]string{ae("br, gzip;q=0.5, br;q=0")},
			status: 200, body: gz},
		{name: "ae_other_params", path: "/static/js/app.js", header: [][2]string{ae("br;level=5;q=0.5, gzip ; q=0.4")}, status: 200,
			body: br},
		{name: "ae_not_negotiable", path: "/static/robots.txt", header: [][2]string{ae("br, gzip")}, status: 200, body: robots,
			headers: map[string]string{"Vary": absent, "Content-Encoding": absent}},

		// Vary, Cache-Control and 304.
		{name: "vary_added_to_existing", path: "/mw/js/app.js", header: [][2]string{ae("br")}, status: 200, body: br,
			headers: map[string]string{"Vary": "Origin, Accept-Encoding"}},
		{name: "vary_not_negotiable_kept", path: "/mw/robots.txt", status: 200, body: robots, headers: map[string]string{"Vary": "Origin"}},
		{name: "vary_on_304", path: "/static/js/app.js", header: [][2]string{ae("br"), hdr("If-None-Match", etagOf("js/app.js", "br"))},
			status: 304, body: []byte{}, headers: notModified(etagOf("js/app.js", "br"), ccNoCache, "Accept-Encoding")},
		{name: "hashed_immutable", path: "/static/" + app.Hashed, header: [][2]string{ae("br, gzip")}, status: 200, body: br,
			headers: map[string]string{"Cache-Control": ccImmutable, "Etag": etagOf("js/app.js", "br"), "Vary": "Accept-Encoding", "Content-Encoding": "br"}},
		{name: "hashed_identity_immutable", path: "/static/" + app.Hashed, status: 200, body: []byte(appJS),
			headers: map[string]string{"Cache-Control": ccImmutable, "Etag": etagOf("js/app.js", ""), "Vary": "Accept-Encoding"}},
		{name: "hashed_304", path: "/static/" + app.Hashed, header: [][2]string{ae("br"), hdr("If-None-Match", etagOf("js/app.js", "br"))},
			status: 304, headers: notModified(etagOf("js/app.js", "br"), ccImmutable, "Accept-Encoding")},
		{name: "hashed_css_gzip", path: "/static/" + entryOf(t, m, "css/site.css").Hashed, header: [][2]string{ae("gzip")}, status: 200,
			body: bytesOf("css/site.css", "gzip"), headers: map[string]string{"Cache-Control": ccImmutable, "Content-Type": typeCSS}},
		{name: "hashed_dotfile", path: "/static/" + entryOf(t, m, "data/.env").Hashed, status: 200, body: bytesOf("data/.env", "")},
		{name: "if_none_match_other_variant", path: "/static/js/app.js",
			header: [][2]string{ae("br"), hdr("If-None-Match", etagOf("js/app.js", "gzip"))}, status: 200, body: br},
		{name: "if_match_variant", path: "/static/js/app.js", header: [][2]string{ae("gzip"), hdr("If-Match", etagOf("js/app.js", "gzip"))},
			status: 200, body: gz},
		{name: "if_match_other_variant_fails", path: "/static/js/app.js",
			header: [][2]string{ae("gzip"), hdr("If-Match", etagOf("js/app.js", ""))}, status: 412,
			headers: map[string]string{"Vary": "Accept-Encoding"}},

		// Ranges on variants: over the encoded bytes.
		{name: "range_on_br", path: "/static/js/app.js", header: [][2]string{ae("br"), hdr("Range", "bytes=0-9")}, status: 206,
			body: br[:10], headers: map[string]string{"Content-Encoding": "br", "Content-Range": rangeOf(br, 0, 9), "Vary": "Accept-Encoding",
				"Etag": etagOf("js/app.js", "br")}},
		{name: "range_on_gzip_suffix", path: "/static/js/app.js", header: [][2]string{ae("gzip"), hdr("Range", "bytes=-8")}, status: 206,
			body: gz[len(gz)-8:], headers: map[string]string{"Content-Encoding": "gzip", "Content-Range": rangeOf(gz, len(gz)-8, len(gz)-1)}},
		{name: "if_range_variant_match", path: "/static/js/app.js",
			header: [][2]string{ae("br"), hdr("Range", "bytes=10-19"), hdr("If-Range", etagOf("js/app.js", "br"))}, status: 206,
			body: br[10:20]},
		{name: "if_range_identity_etag_on_br", path: "/static/js/app.js",
			header: [][2]string{ae("br"), hdr("Range", "bytes=10-19"), hdr("If-Range", etagOf("js/app.js", ""))}, status: 200,
			body: br, headers: map[string]string{"Content-Range": absent}},
		{name: "range_multi_on_br_served_whole", path: "/static/js/app.js", header: [][2]string{ae("br"), hdr("Range", "bytes=0-1,5-6")},
			status: 200, body: br},
		{name: "range_no_overlap_on_gzip", path: "/static/js/app.js", header: [][2]string{ae("gzip"), hdr("Range", "bytes=1000000-")},
			status: 416, headers: map[string]string{"Content-Range": "bytes */" + strconv.Itoa(len(gz)), "Vary": "Accept-Encoding",
				"Content-Encoding": absent, "Etag": absent}},

		// Not found, methods.
		{name: "not_found", path: "/static/nope.js", status: 404, body: notFound, headers: errorHeaders},
		{name: "variant_path", path: "/static/js/app.js.br", status: 404, body: notFound},
		{name: "manifest", path: "/static/" + bakefs.ManifestName, status: 404, body: notFound},
		{name: "stale_hash", path: "/static/js/app.0123456789.js", status: 404, body: notFound},
		{name: "outside_prefix", path: "/other/js/app.js", status: 404, body: notFound},
		{name: "double_slash", path: "/static/js//app.js", status: 404, body: notFound},
		{name: "dot_segments", path: "/static/js/./app.js", status: 404, body: notFound},
		{name: "directory", path: "/static/js", status: 404, body: notFound},
		{name: "method_post", method: "POST", path: "/static/js/app.js", status: 405,
			headers: map[string]string{"Allow": "GET, HEAD", "Vary": "Accept-Encoding", "Etag": absent}},
		{name: "method_options", method: "OPTIONS", path: "/static/robots.txt", status: 405,
			headers: map[string]string{"Allow": "GET, HEAD", "Vary": absent}},
		{name: "method_post_not_found", method: "POST", path: "/static/nope", status: 404},

		// Options.
		{name: "index_root", path: "/idx/", status: 200, body: bytesOf("index.html", ""),
			headers: map[string]string{"Cache-Control": ccNoCache, "Content-Type": typeHTML}},
		{name: "index_subdir", path: "/idx/docs/", status: 200, body: bytesOf("docs/index.html", "")},
		{name: "index_redirect", path: "/idx/docs", status: 301, headers: map[string]string{"Location": "docs/"}},
		{name: "index_redirect_query", path: "/idx/docs?x=1", status: 301, headers: map[string]string{"Location": "docs/?x=1"}},
		{name: "index_redirect_post", method: "POST", path: "/idx/docs", status: 405,
			headers: map[string]string{"Allow": "GET, HEAD", "Location": absent}},
		{name: "index_redirect_delete", method: "DELETE", path: "/idx/docs", status: 405},
		{name: "index_post", method: "POST", path: "/idx/docs/", status: 405, headers: map[string]string{"Allow": "GET, HEAD"}},
		{name: "index_file_itself", path: "/idx/docs/index.html", status: 200, body: bytesOf("docs/index.html", "")},
		{name: "index_missing", path: "/idx/js/", status: 404},
		{name: "no_index_option", path: "/static/docs/", status: 404},
		{name: "no_index_option_root", path: "/static/", status: 404},
		{name: "spa_route", path: "/spa/app/settings", header: [][2]string{ae("gzip")}, status: 200,
			body: bytesOf("index.html", "gzip"), headers: map[string]string{"Cache-Control": ccNoCache, "Vary": "Accept-Encoding"}},
		{name: "spa_root", path: "/spa/", status: 200, body: bytesOf("index.html", "")},
		{name: "spa_missing_asset", path: "/spa/missing.js", status: 404},
		{name: "spa_existing_file", path: "/spa/robots.txt", status: 200, body: robots},
		{name: "custom_not_found", path: "/nf/missing.js", status: 418, body: []byte("teapot /nf/missing.js")},
		{name: "sub_hashed", path: "/js/" + strings.TrimPrefix(app.Hashed, "js/"), header: [][2]string{ae("zstd")}, status: 200,
			body: zst, headers: map[string]string{"Cache-Control": ccImmutable}},
		{name: "sub_logical", path: "/js/vendor/lib.js", status: 200, body: bytesOf("js/vendor/lib.js", "")},
		{name: "sub_outside", path: "/js/css/site.css", status: 404},
	}

	for _, tt := range cases {
		methods := []string{"GET", "HEAD"}
		if tt.method != "" {
			methods = []string{tt.method}
		}
		for _, method := range methods {
			t.Run(tt.name+"/"+method, func(t *testing.T) {
				req, err := http.NewRequest(method, srv.URL+tt.path, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, kv := range tt.header {
					req.Header.Add(kv[0], kv[1])
				}
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				if res.StatusCode != tt.status {
					t.Fatalf("status %d, want %d (body %.80q)", res.StatusCode, tt.status, body)
				}
				for k, want := range tt.headers {
					got, ok := strings.Join(res.Header.Values(k), ", "), len(res.Header.Values(k)) > 0
					switch {
					case want == absent && ok:
						t.Errorf("%s: %q, want none", k, got)
					case want != absent && got != want:
						t.Errorf("%s: %q, want %q", k, got, want)
					}
				}
				if method == "HEAD" && len(body) != 0 {
					t.Errorf("HEAD body has %d bytes", len(body))
				}
				if tt.body != nil {
					if method == "GET" && !bytes.Equal(body, tt.body) {
						t.Errorf("body %.60q (%d bytes), want %.60q (%d bytes)", body, len(body), tt.body, len(tt.body))
					}
					if (tt.status == 200 || tt.status == 206) && res.Header.Get("Content-Length") != strconv.Itoa(len(tt.body)) {
						t.Errorf("Content-Length %q, want %d", res.Header.Get("Content-Length"), len(tt.body))
					}
				}
				if tt.check != nil {
					tt.check(t, res, body)
				}
			})
		}
	}
}

// failingFS passes New's checks (Stat) but fails to open files.
type failingFS struct {
	fstest.MapFS
	err error
}

func (f failingFS) Open(name string) (iofs.File, error) { return nil, f.err }

func (f failingFS) Stat(name string) (iofs.FileInfo, error) { return f.MapFS.Stat(name) }

func TestHandlerHidesErrors(t *testing.T) {
	tree, m := buildTree(testFiles)
	tests := []struct {
		name string
		err  error
		code int
		text string
	}{
		{"internal", errors.New("secret /srv/tree detail"), 500, "500 Internal Server Error\n"},
		{"not exist", &iofs.PathError{Op: "open", Path: "/srv/secret", Err: iofs.ErrNotExist}, 404, "404 page not found\n"},
		{"permission", &iofs.PathError{Op: "open", Path: "/srv/secret", Err: iofs.ErrPermission}, 403, "403 Forbidden\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, err := bakefs.New(failingFS{tree, tt.err}, m)
			if err != nil {
				t.Fatal(err)
			}
			rec := newRecorder()
			req := httptest.NewRequest("GET", "/js/app.js", nil)
			req.Header.Set("Accept-Encoding", "br")
			fsys.Handler().ServeHTTP(rec, req)
			if rec.code != tt.code || rec.body.String() != tt.text {
				t.Errorf("got %d %q, want %d %q", rec.code, rec.body.String(), tt.code, tt.text)
			}
			if rec.h.Get("Etag") != "" || rec.h.Get("Content-Encoding") != "" || rec.h.Get("Vary") != "Accept-Encoding" {
				t.Errorf("error headers: %v", rec.h)
			}
		})
	}
}

func TestHandlerOptionPanics(t *testing.T) {
	fsys, _, _ := newTestFS(t)
	tests := []struct {
		name string
		opt  bakefs.HandlerOption
		msg  string
	}{
		{"prefix without slash", bakefs.WithPrefix("static/"), `WithPrefix("static/")`},
		{"index path", bakefs.WithIndex("a/index.html"), `WithIndex("a/index.html")`},
		{"index empty", bakefs.WithIndex(""), `WithIndex("")`},
		{"spa missing", bakefs.WithSPAFallback("nope.html"), `WithSPAFallback("nope.html")`},
		{"spa hashed", bakefs.WithSPAFallback(fsys.Path("js/app.js")), "WithSPAFallback"},
		{"spa directory", bakefs.WithSPAFallback("docs"), `WithSPAFallback("docs")`},
		{"nil not found", bakefs.WithNotFound(nil), "WithNotFound(nil)"},
		{"nil option", nil, "nil HandlerOption"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				s, _ := r.(string)
				if !strings.Contains(s, tt.msg) {
					t.Errorf("panic %v, want one naming %s", r, tt.msg)
				}
			}()
			fsys.Handler(tt.opt)
		})
	}
}

// TestHandlerAllocs checks the zero-allocation goal on the hot paths.
func TestHandlerAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	fsys, _, m := newTestFS(t)
	h := fsys.Handler(bakefs.WithPrefix("/static/"))
	app := entryOf(t, m, "js/app.js")
	tests := []struct {
		name   string
		header [][2]string
		path   string
		status int
	}{
		{"br hit", [][2]string{{"Accept-Encoding", "br, gzip"}}, "/static/" + app.Hashed, 200},
		{"identity hit", nil, "/static/js/app.js", 200},
		{"304", [][2]string{{"Accept-Encoding", "gzip"}, {"If-None-Match", `"` + app.Encodings[1].SHA256[:20] + `-gzip"`}}, "/static/js/app.js", 304},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			for _, kv := range tt.header {
				req.Header.Set(kv[0], kv[1])
			}
			rec := newRecorder()
			rec.discard = true
			serve := func() {
				rec.reset()
				h.ServeHTTP(rec, req)
			}
			allocs := testing.AllocsPerRun(200, serve)
			if rec.code != tt.status {
				t.Fatalf("status %d, want %d", rec.code, tt.status)
			}
			if raceEnabled {
				return // the race detector allocates
			}
			if allocs != 0 {
				t.Errorf("%v allocations per request, want 0", allocs)
			}
			// Exactly: the header values come from a block allocated
			// once per hundred or so responses.
			if exact := mallocsPerRun(5000, serve); exact > 0.02 {
				t.Errorf("%.4f allocations per request, want at most 0.02", exact)
			}
		})
	}
}

// TestHandlerTrees serves from trees whose files are read differently:
// shared (MapFS), opened per request (os.DirFS) and read into memory (files
// without io.ReaderAt).
func TestHandlerTrees(t *testing.T) {
	tree, m := buildTree(testFiles)
	dir := t.TempDir()
	if err := os.CopyFS(dir, tree); err != nil {
		t.Fatal(err)
	}
	br := tree["js/app.js.br"].Data
	for name, data := range map[string]iofs.FS{"mapfs": tree, "dirfs": os.DirFS(dir), "plain": readOnlyFS{tree}} {
		t.Run(name, func(t *testing.T) {
			fsys, err := bakefs.New(data, m)
			if err != nil {
				t.Fatal(err)
			}
			h := fsys.Handler()
			for _, rg := range []string{"", "bytes=3-40"} {
				rec := newRecorder()
				req := httptest.NewRequest("GET", "/js/app.js", nil)
				req.Header.Set("Accept-Encoding", "br")
				want, code := br, 200
				if rg != "" {
					req.Header.Set("Range", rg)
					want, code = br[3:41], 206
				}
				h.ServeHTTP(rec, req)
				if rec.code != code || !bytes.Equal(rec.body.Bytes(), want) {
					t.Errorf("Range %q: %d, %d bytes; want %d, %d bytes", rg, rec.code, rec.body.Len(), code, len(want))
				}
			}
		})
	}
}

// TestHandlerWrites checks that the body goes to the ResponseWriter in
// Writes of up to 256 KB, one for a body no larger, from every kind of
// tree, and that the pieces join into the right bytes.
func TestHandlerWrites(t *testing.T) {
	const piece = 256 << 10
	small, large := benchJS(40_000), benchJS(600_000)
	tree, m := buildTree([]treeFile{
		{path: "small.js", typ: typeJS, data: small},
		{path: "large.js", typ: typeJS, data: large},
	})
	dir := t.TempDir()
	if err := os.CopyFS(dir, tree); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, rg string
		want           string
		writes         []int
	}{
		{"small", "/small.js", "", small, []int{len(small)}},
		{"large", "/large.js", "", large, []int{piece, piece, len(large) - 2*piece}},
		{"range", "/large.js", "bytes=100-40099", large[100:40100], []int{40_000}},
		{"range across pieces", "/large.js", "bytes=1000-", large[1000:], []int{piece, piece, len(large) - 1000 - 2*piece}},
	}
	for name, data := range map[string]iofs.FS{"mapfs": tree, "dirfs": os.DirFS(dir), "plain": readOnlyFS{tree}} {
		fsys, err := bakefs.New(data, m)
		if err != nil {
			t.Fatal(err)
		}
		h := fsys.Handler()
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				req := httptest.NewRequest("GET", tt.path, nil)
				if tt.rg != "" {
					req.Header.Set("Range", tt.rg)
				}
				w := &writeCounter{recorder: newRecorder()}
				h.ServeHTTP(w, req)
				if w.body.String() != tt.want {
					t.Errorf("status %d, %d bytes; want %d bytes", w.code, w.body.Len(), len(tt.want))
				}
				if !slices.Equal(w.writes, tt.writes) {
					t.Errorf("writes of %v bytes, want %v", w.writes, tt.writes)
				}
			})
		}
	}
}

// writeCounter records the length of each Write.
type writeCounter struct {
	*recorder
	writes []int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	return w.recorder.Write(p)
}

// TestHandlerRedirectEscaped checks that the redirect of a directory
// without its final "/" is a relative reference that keeps its name: a
// colon does not make it a scheme, and other characters are escaped.
func TestHandlerRedirectEscaped(t *testing.T) {
	var files []treeFile
	for _, dir := range []string{"a:b", "sp ace", "q?x", "p%41", "plain"} {
		files = append(files, treeFile{path: dir + "/index.html", typ: typeHTML, data: dir})
	}
	tree, m := buildTree(files)
	fsys, err := bakefs.New(tree, m)
	if err != nil {
		t.Fatal(err)
	}
	h := fsys.Handler(bakefs.WithPrefix("/s/"), bakefs.WithIndex("index.html"))
	tests := []struct{ dir, location string }{
		{"a:b", "./a:b/"},
		{"sp ace", "sp%20ace/"},
		{"q?x", "q%3Fx/"},
		{"p%41", "p%2541/"},
		{"plain", "plain/"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			u := url.URL{Path: "/s/" + tt.dir}
			req := httptest.NewRequest("GET", u.EscapedPath(), nil)
			rec := newRecorder()
			h.ServeHTTP(rec, req)
			if rec.code != 301 || rec.h.Get("Location") != tt.location {
				t.Fatalf("%d Location %q, want 301 %q", rec.code, rec.h.Get("Location"), tt.location)
			}
			// The reference resolves to the directory's URL with "/".
			loc, err := url.Parse(rec.h.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			if got := req.URL.ResolveReference(loc).Path; got != "/s/"+tt.dir+"/" {
				t.Errorf("Location resolves to %q, want %q", got, "/s/"+tt.dir+"/")
			}
			rec = newRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", req.URL.ResolveReference(loc).String(), nil))
			if rec.code != 200 || rec.body.String() != tt.dir {
				t.Errorf("following the redirect: %d %q", rec.code, rec.body.String())
			}
		})
	}
}

// TestHandlerStripPrefix checks that the handler with its default prefix
// serves behind http.StripPrefix, which leaves paths without their first
// "/" when the stripped prefix ends in one, as http.FileServer does.
func TestHandlerStripPrefix(t *testing.T) {
	fsys, tree, _ := newTestFS(t)
	ours := http.StripPrefix("/static/", fsys.Handler(bakefs.WithIndex("index.html")))
	std := http.StripPrefix("/static/", http.FileServer(http.FS(tree)))
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/static/robots.txt", 200, "User-agent: *\n"},
		{"/static/js/vendor/lib.js", 200, "var lib = {};\n"},
		{"/static/docs/", 200, "<title>docs</title>\n"},
		{"/static/", 200, "<!doctype html><title>home</title>\n"},
		{"/static/nope.js", 404, "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			for name, h := range map[string]http.Handler{"bakefs": ours, "http.FileServer": std} {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
				if rec.Code != tt.status || rec.Body.String() != tt.body {
					t.Errorf("%s: %d %q, want %d %q", name, rec.Code, rec.Body.String(), tt.status, tt.body)
				}
			}
		})
	}
	t.Run("redirect", func(t *testing.T) {
		rec := httptest.NewRecorder()
		ours.ServeHTTP(rec, httptest.NewRequest("GET", "/static/docs", nil))
		if rec.Code != 301 || rec.Header().Get("Location") != "docs/" {
			t.Errorf("%d Location %q, want 301 docs/", rec.Code, rec.Header().Get("Location"))
		}
	})
	t.Run("prefix", func(t *testing.T) {
		// With its own prefix, a path without "/" is read as if it had one.
		h := http.StripPrefix("/x", fsys.Handler(bakefs.WithPrefix("/static/")))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/xstatic/robots.txt", nil))
		if rec.Code != 200 {
			t.Errorf("status %d, want 200", rec.Code)
		}
	})
}

// TestHandlerHeadersNotShared checks that a later handler that edits the
// header values of a response in place, as a middleware may, changes that
// response only: the next responses carry the values of the tree.
func TestHandlerHeadersNotShared(t *testing.T) {
	fsys, _, m := newTestFS(t)
	app := entryOf(t, m, "js/app.js")
	h := fsys.Handler()
	tamper := func(hdr http.Header) {
		for _, vs := range hdr {
			for i := range vs {
				vs[i] = "tampered"
			}
		}
	}
	requests := []struct {
		name   string
		method string
		path   string
		header [][2]string
	}{
		{"hashed", "GET", "/" + app.Hashed, [][2]string{{"Accept-Encoding", "br"}}},
		{"logical", "GET", "/js/app.js", nil},
		{"304", "GET", "/js/app.js", [][2]string{{"Accept-Encoding", "gzip"}, {"If-None-Match", `"` + app.Encodings[1].SHA256[:20] + `-gzip"`}}},
		{"405", "POST", "/js/app.js", nil},
	}
	serve := func(method, path string, header [][2]string, edit bool) http.Header {
		req := httptest.NewRequest(method, path, nil)
		for _, kv := range header {
			req.Header.Set(kv[0], kv[1])
		}
		rec := newRecorder()
		rec.discard = true
		h.ServeHTTP(&tamperWriter{recorder: rec, edit: edit, tamper: tamper}, req)
		if edit {
			tamper(rec.h) // and after the handler returns
		}
		return rec.h.Clone()
	}
	for _, tt := range requests {
		t.Run(tt.name, func(t *testing.T) {
			want := serve(tt.method, tt.path, tt.header, false)
			if len(want) == 0 {
				t.Fatal("no headers")
			}
			serve(tt.method, tt.path, tt.header, true)
			for _, rt := range requests {
				serve(rt.method, rt.path, rt.header, true)
			}
			if got := serve(tt.method, tt.path, tt.header, false); !equalHeaders(got, want) {
				t.Errorf("after edits by a middleware:\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// tamperWriter edits every header value in place when the handler writes
// the header, as a middleware wrapping the ResponseWriter may.
type tamperWriter struct {
	*recorder
	edit   bool
	tamper func(http.Header)
}

func (w *tamperWriter) WriteHeader(code int) {
	if w.edit {
		w.tamper(w.recorder.h)
	}
	w.recorder.WriteHeader(code)
}

// equalHeaders reports whether two headers hold the same values.
func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
