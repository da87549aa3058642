package bazel_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/bakefs/bakefs/tests/bazel/deltaassets"
)

// TestDeltaAssets checks //tests/bazel:delta_assets, release 2 built with
// previous = release 1's tree: release 1's app.js is served under its
// hashed name, and a request that offers it as a dictionary gets a dcz
// delta that decodes, against it, to release 2's bytes.
func TestDeltaAssets(t *testing.T) {
	old, err := os.ReadFile("release/v1/js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := deltaassets.FS.ReadFile("js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	e, ok := deltaassets.FS.Entry("js/app.js")
	if !ok || len(e.Deltas) != 1 {
		t.Fatalf("js/app.js has deltas %+v, want one", e)
	}
	srv := httptest.NewServer(deltaassets.Handler())
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}

	kept, ok := deltaassets.FS.Entry(keptName(e.Deltas[0].Dictionary))
	if !ok || kept.Previous != "js/app.js" {
		t.Fatalf("release 1's app.js is not kept: %+v", kept)
	}
	resp, err := client.Get(srv.URL + "/" + kept.Path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != string(old) || resp.Header.Get("Use-As-Dictionary") == "" {
		t.Fatalf("GET %s: %d, %d bytes, Use-As-Dictionary %q; want release 1's bytes offered as a dictionary", kept.Path, resp.StatusCode, len(body), resp.Header.Get("Use-As-Dictionary"))
	}

	sum := sha256.Sum256(old)
	req, _ := http.NewRequest("GET", srv.URL+"/"+e.Hashed, nil)
	req.Header.Set("Accept-Encoding", "gzip, br, zstd, dcb, dcz")
	req.Header.Set("Available-Dictionary", ":"+base64.StdEncoding.EncodeToString(sum[:])+":")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "dcz" || len(body) < 40 {
		t.Fatalf("GET %s with release 1 as dictionary: Content-Encoding %q, %d bytes", e.Hashed, resp.Header.Get("Content-Encoding"), len(body))
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, old))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.DecodeAll(body[40:], nil)
	if err != nil || string(got) != string(cur) {
		t.Fatalf("the delta does not decode to release 2: %v", err)
	}
	t.Logf("js/app.js: %d bytes, br %d, delta %d", e.Size, e.Encodings[0].Size, len(body))
}

// keptName is the hashed name of release 1's js/app.js, whose SHA-256 is
// sum.
func keptName(sum string) string {
	return "js/app." + sum[:10] + ".js"
}
