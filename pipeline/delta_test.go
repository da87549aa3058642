package pipeline

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// scriptOfRelease is a script whose functions are named pseudo-randomly,
// the same in every release, with release's number in three of them.
func scriptOfRelease(release int) string {
	rng := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	for i := range 1500 {
		name := fmt.Sprintf("f%x", rng.Uint64())
		if i%500 == 250 {
			name += fmt.Sprintf("_r%d", release)
		}
		fmt.Fprintf(&b, "export function %s(a) { return a * %d; }\n", name, rng.IntN(1000))
	}
	return b.String()
}

// buildRelease builds src (whose js/app.js is release's script) into dir,
// with previous as the release before when it is not "".
func buildRelease(t *testing.T, cache *Cache, src, dir, previous string, release, releases int) *Result {
	t.Helper()
	if err := os.WriteFile(filepath.Join(src, "js", "app.js"), []byte(scriptOfRelease(release)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Root: src, Cache: cache, Releases: releases}
	if previous != "" {
		rel, err := LoadRelease(previous)
		if err != nil {
			t.Fatal(err)
		}
		p.Previous = rel
	}
	res, err := p.Run(context.Background(), jobsFor(t, src, "br", "gzip", "hash"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(dir); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDeltasAgainstPreviousReleases(t *testing.T) {
	src := writeSources(t, map[string]string{"js/app.js": "", "css/site.css": strings.Repeat("body { color: #123456; }\n", 50)})
	work := t.TempDir()
	cache := &Cache{Dir: filepath.Join(work, "cache")}
	v1, v2, v3 := filepath.Join(work, "v1"), filepath.Join(work, "v2"), filepath.Join(work, "v3")
	buildRelease(t, cache, src, v1, "", 1, 2)
	res := buildRelease(t, cache, src, v2, v1, 2, 2)

	m := res.Manifest
	app, _ := m.Lookup("js/app.js")
	oldSum := transform.SHA256Hex([]byte(scriptOfRelease(1)))
	oldName := bakefs.HashedName("js/app.js", oldSum)
	kept, ok := m.Lookup(oldName)
	if !ok || kept.Previous != "js/app.js" || kept.Release != 1 || len(kept.Encodings) != 2 {
		t.Fatalf("release 1's app.js is not kept with its variants: %+v", kept)
	}
	if _, ok := m.Lookup(bakefs.HashedName("css/site.css", transform.SHA256Hex([]byte(strings.Repeat("body { color: #123456; }\n", 50))))); ok {
		t.Fatal("an unchanged file is kept a second time")
	}
	if len(app.Deltas) != 1 || app.Deltas[0].Dictionary != oldSum {
		t.Fatalf("app.js deltas %+v, want one against release 1", app.Deltas)
	}
	if res.Stats.Kept != 1 || res.Stats.Deltas != 1 {
		t.Fatalf("stats %+v", res.Stats)
	}
	delta, err := os.ReadFile(filepath.Join(v2, filepath.FromSlash(app.Deltas[0].Path)))
	if err != nil {
		t.Fatal(err)
	}
	br := app.Encodings[0]
	if br.Name != "br" || int64(len(delta))*10 > br.Size {
		t.Fatalf("delta of %d bytes against br's %d: not a delta of a three-line edit", len(delta), br.Size)
	}
	dict, _ := os.ReadFile(filepath.Join(v2, filepath.FromSlash(oldName)))
	if string(dict) != scriptOfRelease(1) {
		t.Fatal("the kept file is not release 1's bytes")
	}
	d, _ := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, dict))
	defer d.Close()
	if got, err := d.DecodeAll(delta[40:], nil); err != nil || string(got) != scriptOfRelease(2) {
		t.Fatalf("the delta does not decode to release 2: %v", err)
	}
	if _, err := bakefs.Load(os.DirFS(v2)); err != nil {
		t.Fatalf("the runtime refuses the tree: %v", err)
	}

	// Built again, clean and from the cache: the same tree.
	again := filepath.Join(work, "v2-again")
	buildRelease(t, nil, src, again, v1, 2, 2)
	if a, b := readTreeFiles(t, v2), readTreeFiles(t, again); !maps.Equal(a, b) {
		t.Fatal("a clean build with the same previous release makes another tree")
	}

	// Release 3 keeps release 2's and release 1's files with releases = 2,
	// and release 2's only with releases = 1.
	res = buildRelease(t, cache, src, v3, v2, 3, 2)
	if k, ok := res.Manifest.Lookup(oldName); !ok || k.Release != 2 {
		t.Fatalf("release 1's file in release 3: %+v", k)
	}
	app, _ = res.Manifest.Lookup("js/app.js")
	if len(app.Deltas) != 2 {
		t.Fatalf("release 3's app.js has %d deltas, want one against each kept release", len(app.Deltas))
	}
	res = buildRelease(t, cache, src, filepath.Join(work, "v3-short"), v2, 3, 1)
	if _, ok := res.Manifest.Lookup(oldName); ok || res.Stats.Kept != 1 {
		t.Fatalf("releases = 1 kept %d files, release 1's among them: %v", res.Stats.Kept, ok)
	}
}

func TestDeltaRefusesDamagedRelease(t *testing.T) {
	src := writeSources(t, map[string]string{"js/app.js": ""})
	work := t.TempDir()
	v1 := filepath.Join(work, "v1")
	buildRelease(t, nil, src, v1, "", 1, 2)
	if err := os.WriteFile(filepath.Join(v1, "js", "app.js"), []byte("changed by hand"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "js", "app.js"), []byte(scriptOfRelease(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := LoadRelease(v1)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Root: src, Previous: rel}
	_, err = p.Run(context.Background(), jobsFor(t, src, "br", "hash"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(v1, "js", "app.js")) || !strings.Contains(err.Error(), "does not hold the bytes") {
		t.Fatalf("Run with a damaged previous release: %v", err)
	}
}

func TestDevProfileMakesNoDeltas(t *testing.T) {
	src := writeSources(t, map[string]string{"js/app.js": ""})
	work := t.TempDir()
	v1 := filepath.Join(work, "v1")
	buildRelease(t, nil, src, v1, "", 1, 2)
	os.WriteFile(filepath.Join(src, "js", "app.js"), []byte(scriptOfRelease(2)), 0o644)
	rel, _ := LoadRelease(v1)
	p := &Pipeline{Root: src, Previous: rel, Profile: transform.Dev}
	res, err := p.Run(context.Background(), jobsFor(t, src, "br", "hash"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Deltas != 0 || res.Stats.Kept != 0 {
		t.Fatalf("dev made %d deltas and kept %d files", res.Stats.Deltas, res.Stats.Kept)
	}
}
