package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrURL reports a remote cache address that cannot be used.
var ErrURL = errors.New("remote: bad remote cache URL")

// HTTPOptions configure an HTTPStore. The zero value sends no extra header
// and uses the default timeouts.
type HTTPOptions struct {
	// Header is sent with every request, for authentication
	// ("Authorization: Bearer …"). Its values appear in no message.
	Header http.Header
	// ConnectTimeout bounds the opening of a connection (TCP and TLS);
	// 0 means 5s.
	ConnectTimeout time.Duration
	// Timeout bounds one request, from its start to the end of its body;
	// 0 means 60s.
	Timeout time.Duration
	// MaxBlobSize bounds the bytes read for one answer; 0 means 1 GiB. A
	// larger answer is a failure of the store.
	MaxBlobSize int64
}

// An HTTPStore is a Store that speaks Bazel's HTTP remote cache
// protocol: GET and PUT of <base>/ac/<hash> and <base>/cas/<hash>, 200 and
// 404 for a hit and a miss, any 2xx for a stored PUT. nginx's WebDAV
// module, bazel-remote, BuildBuddy and other caches that Bazel can use with
// --remote_cache serve it. Credentials go in HTTPOptions.Header or in the
// URL's user information (basic authentication); String and every error
// leave both out. An HTTPStore is safe for concurrent use.
type HTTPStore struct {
	base   string // scheme://host[:port][/path], no final slash
	name   string
	header http.Header
	client *http.Client
	opts   HTTPOptions
}

var _ Store = (*HTTPStore)(nil)

// ParseURL checks the address of a remote cache: an http or https
// URL with a host, an optional path prefix and no query or fragment. A bad
// URL is an error wrapping ErrURL, whose text leaves out the URL's
// password.
func ParseURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrURL, redactURL(rawURL))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%w: %s: want an http:// or https:// URL", ErrURL, RedactedURL(u))
	case u.Host == "":
		return nil, fmt.Errorf("%w: %s: no host", ErrURL, RedactedURL(u))
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%w: %s: a query or fragment is not allowed", ErrURL, RedactedURL(u))
	}
	return u, nil
}

// NewHTTPStore returns a store for the server at rawURL (see
// ParseURL). User information in the URL is sent as basic
// authentication.
func NewHTTPStore(rawURL string, opts HTTPOptions) (*HTTPStore, error) {
	u, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 5 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.MaxBlobSize <= 0 {
		opts.MaxBlobSize = 1 << 30
	}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: opts.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   opts.ConnectTimeout,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	s := &HTTPStore{
		base:   strings.TrimSuffix(u.String(), "/"),
		name:   RedactedURL(u),
		header: opts.Header.Clone(),
		client: &http.Client{Transport: transport},
		opts:   opts,
	}
	return s, nil
}

// String returns the store's URL without user information, as messages
// name it.
func (s *HTTPStore) String() string { return s.name }

// Get implements Store.
func (s *HTTPStore) Get(ctx context.Context, kind Kind, hash string) ([]byte, error) {
	var data []byte
	err := s.do(ctx, http.MethodGet, kind, hash, nil, func(resp *http.Response) error {
		switch {
		case resp.StatusCode == http.StatusNotFound:
			return ErrMiss
		case resp.StatusCode != http.StatusOK:
			return statusError(resp)
		}
		if resp.ContentLength > s.opts.MaxBlobSize {
			return fmt.Errorf("answer of %d bytes, over the limit of %d", resp.ContentLength, s.opts.MaxBlobSize)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, s.opts.MaxBlobSize+1))
		if err != nil {
			return err
		}
		if int64(len(b)) > s.opts.MaxBlobSize {
			return fmt.Errorf("answer over the limit of %d bytes", s.opts.MaxBlobSize)
		}
		data = b
		return nil
	})
	return data, err
}

// Put implements Store.
func (s *HTTPStore) Put(ctx context.Context, kind Kind, hash string, data []byte) error {
	return s.do(ctx, http.MethodPut, kind, hash, data, func(resp *http.Response) error {
		if resp.StatusCode/100 != 2 {
			return statusError(resp)
		}
		return nil
	})
}

// do sends one request within the store's timeout and hands the answer to
// check. Errors name the method and the path, never the headers.
func (s *HTTPStore) do(ctx context.Context, method string, kind Kind, hash string, body []byte, check func(*http.Response) error) error {
	path := "/" + string(kind) + "/" + hash
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, r)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	for k, v := range s.header {
		req.Header[k] = v
	}
	if body != nil {
		req.ContentLength = int64(len(body))
		req.Header.Set("Content-Type", "application/octet-stream")
	}
	resp, err := s.client.Do(req)
	if err == nil {
		err = check(resp)
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // keep the connection
		resp.Body.Close()
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrMiss):
		return err
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s %s: no answer within %s", method, path, s.opts.Timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the URL
	}
	return fmt.Errorf("%s %s: %w", method, path, err)
}

// statusError describes an unexpected status.
func statusError(resp *http.Response) error {
	return fmt.Errorf("unexpected status %s", resp.Status)
}

// RedactedURL returns u as text without its user information, for
// messages.
func RedactedURL(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// redactURL is RedactedURL of a URL that does not parse: everything up to
// the host, when there is user information, is dropped.
func redactURL(raw string) string {
	if i := strings.LastIndex(raw, "@"); i >= 0 {
		if j := strings.Index(raw, "://"); j >= 0 && j < i {
			return raw[:j+3] + "…" + raw[i:]
		}
		return "…" + raw[i:]
	}
	return raw
}
