package fs

import (
	"fmt"
	"net/http"
	"strings"
)

// A HandlerOption configures FS.Handler. Options are applied in order; a
// later option of the same kind replaces an earlier one. An option whose
// value is invalid makes Handler panic with a message naming it, like
// http.ServeMux does with a bad pattern: it is a programming error found at
// start-up.
type HandlerOption func(*handlerConfig)

type handlerConfig struct {
	prefix   string
	index    string
	spa      string
	notFound http.Handler
	errs     []string
}

func (c *handlerConfig) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// WithPrefix serves the files under the URL path prefix, which must start
// with "/"; a final "/" is added when missing. The prefix is stripped before
// lookup, and requests outside it are answered 404 (or by WithNotFound).
// The default prefix is "/".
func WithPrefix(prefix string) HandlerOption {
	return func(c *handlerConfig) {
		if !strings.HasPrefix(prefix, "/") {
			c.errorf("WithPrefix(%q): prefix must start with /", prefix)
			return
		}
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		c.prefix = prefix
	}
}

// WithIndex serves the file name (such as "index.html") of a directory for
// the directory's URL ending in "/" (the prefix itself for the root). A
// directory's URL without the final "/" is redirected (301) to it, so that
// relative links of the page resolve; the Location is a relative reference
// with the path escaped, "./" added when the name has a colon ("docs/",
// "sp%20ace/", "./a:b/"), and the query kept. name is a base name; directories
// without that file are not found. By default directories are not found.
func WithIndex(name string) HandlerOption {
	return func(c *handlerConfig) {
		if name == "" || strings.Contains(name, "/") || name == "." || name == ".." {
			c.errorf("WithIndex(%q): want a base name such as index.html", name)
			return
		}
		c.index = name
	}
}

// WithSPAFallback serves the file name, a logical path of the FS (such as
// "index.html"), with status 200 for any path under the prefix that is not
// found and whose last element has no extension (no "."), as single-page
// applications route in the browser. Paths with an extension stay 404, so
// a missing script or image is not answered with a page.
func WithSPAFallback(name string) HandlerOption {
	return func(c *handlerConfig) {
		if name == "" {
			c.errorf("WithSPAFallback(%q): want the path of a file", name)
			return
		}
		c.spa = name
	}
}

// WithNotFound answers requests for which the handler has no file with h
// instead of a plain 404 Not Found. h sees the request unchanged.
func WithNotFound(h http.Handler) HandlerOption {
	return func(c *handlerConfig) {
		if h == nil {
			c.errorf("WithNotFound(nil)")
			return
		}
		c.notFound = h
	}
}
