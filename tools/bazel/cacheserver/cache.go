package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	iofs "io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// maxBlob bounds the size of one stored blob.
const maxBlob = 1 << 30

var key = regexp.MustCompile(`^[0-9a-f]{64}$`)

// cache serves the blobs of a directory: DIR/ac/<key> and DIR/cas/<key>,
// the layout of Bazel's --disk_cache. It is safe for concurrent use.
type cache struct {
	dir string

	mu               sync.Mutex
	gets, hits, puts int
}

var _ http.Handler = (*cache)(nil)

func newCache(dir string) (*cache, error) {
	for _, kind := range []string{"ac", "cas"} {
		if err := os.MkdirAll(filepath.Join(dir, kind), 0o755); err != nil {
			return nil, err
		}
	}
	return &cache{dir: dir}, nil
}

func (c *cache) counts() (gets, hits, puts int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gets, c.hits, c.puts
}

func (c *cache) count(get, hit, put bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if get {
		c.gets++
	}
	if hit {
		c.hits++
	}
	if put {
		c.puts++
	}
}

// file returns the file that holds the blob of a request path
// ("/cas/<sha256>"), its kind, and whether the path is one.
func (c *cache) file(urlPath string) (string, string, bool) {
	kind, k, ok := strings.Cut(strings.TrimPrefix(urlPath, "/"), "/")
	if !ok || (kind != "ac" && kind != "cas") || !key.MatchString(k) {
		return "", "", false
	}
	return filepath.Join(c.dir, kind, k), kind, true
}

// read returns the blob stored at name, or at the sharded name
// (DIR/cas/ab/abcd…) that the --disk_cache of newer Bazel versions writes,
// so that the server can serve a disk cache directory.
func read(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, iofs.ErrNotExist) {
		base := filepath.Base(name)
		data, err = os.ReadFile(filepath.Join(filepath.Dir(name), base[:2], base))
	}
	return data, err
}

func (c *cache) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, kind, ok := c.file(r.URL.Path)
	if !ok {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		data, err := read(name)
		c.count(true, err == nil, false)
		if errors.Is(err, iofs.ErrNotExist) {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if err != nil {
			http.Error(w, "internal server error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Header().Set("Content-Type", "application/octet-stream")
		if r.Method == http.MethodGet {
			w.Write(data)
		}
	case http.MethodPut:
		data, err := io.ReadAll(io.LimitReader(r.Body, maxBlob+1))
		if err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if len(data) > maxBlob {
			http.Error(w, "request entity too large", http.StatusRequestEntityTooLarge)
			return
		}
		if kind == "cas" {
			sum := sha256.Sum256(data)
			if hex.EncodeToString(sum[:]) != filepath.Base(name) {
				http.Error(w, "content does not match its digest", http.StatusBadRequest)
				return
			}
		}
		if err := writeAtomic(name, data); err != nil {
			http.Error(w, "internal server error", http.StatusInternalServerError)
			return
		}
		c.count(false, false, true)
		w.WriteHeader(http.StatusOK)
	default:
		w.Header().Set("Allow", "GET, HEAD, PUT")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// writeAtomic writes data to name through a temporary file and a rename,
// so that a reader never sees part of a blob.
func writeAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".put-*")
	if err != nil {
		return err
	}
	if _, err := io.Copy(tmp, bytes.NewReader(data)); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
