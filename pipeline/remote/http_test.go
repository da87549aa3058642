package remote

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/pipeline/remote/remotetest"
	"github.com/bakefs/bakefs/transform"
)

func TestHTTPStoreProtocol(t *testing.T) {
	srv := remotetest.NewServer(t, 0)
	h := http.Header{}
	h.Set("Authorization", "Bearer s3cret")
	store, err := NewHTTPStore(srv.URL+"/prefix/", HTTPOptions{Header: h})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sum := transform.SHA256Hex([]byte("bytes"))
	if _, err := store.Get(ctx, CAS, sum); !errors.Is(err, ErrMiss) {
		t.Fatalf("Get of a missing blob: %v, want ErrMiss", err)
	}
	if err := store.Put(ctx, CAS, sum, []byte("bytes")); err != nil {
		t.Fatal(err)
	}
	if got, err := store.Get(ctx, CAS, sum); err != nil || string(got) != "bytes" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	want := []string{
		"GET /prefix/cas/" + sum + " Bearer s3cret",
		"PUT /prefix/cas/" + sum + " Bearer s3cret",
		"GET /prefix/cas/" + sum + " Bearer s3cret",
	}
	if got := srv.Requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNewHTTPStoreRefuses(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"grpc://cache:9092", "want an http:// or https:// URL"},
		{"cache.example.com", "want an http:// or https:// URL"},
		{"http:///ac", "no host"},
		{"http://cache/?x=1", "a query or fragment is not allowed"},
		{"http://u:secret@cache:port:x/", "bad remote cache URL"},
	} {
		_, err := NewHTTPStore(tc.url, HTTPOptions{})
		if !errors.Is(err, ErrURL) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("NewHTTPStore(%q) = %v; want ErrURL, %q and no password", tc.url, err, tc.want)
		}
	}
}
