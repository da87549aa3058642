package consistency

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildCheck: bakefs build --check rebuilds without the cache into a
// temporary directory and compares with the current tree and package. It
// exits 0 after a good build; after one byte of one file of the tree or
// the package is changed, it exits non-zero naming that file, and leaves
// the tree and package as they are.
func TestBuildCheck(t *testing.T) {
	tests := []struct {
		name string
		dir  string // the tampered directory
		file func(o outputs) string
	}{
		{"tree file", outDir, func(o outputs) string { return firstName(o.out, "styles/", ".css") }},
		{"tree variant", outDir, func(o outputs) string { return firstName(o.out, "styles/", ".css.gz") }},
		{"tree manifest", outDir, func(o outputs) string { return "bakefs-manifest.json" }},
		{"package data file", pkgDir, func(o outputs) string { return firstName(o.pkg, "_data/", ".js") }},
		{"package Go file", pkgDir, func(o outputs) string { return "bakefs_embed.go" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t, filepath.Join(t.TempDir(), "proj"), mixedTOMLWith(`compress = ["gzip"]`), mixedSources("checked", false))
			p.mustBuild(t)
			if r := p.build(t, "--check"); r.code != 0 {
				t.Fatalf("--check after a good build:\n%s", r)
			}
			name := tt.file(p.outputs(t))
			if name == "" {
				t.Fatalf("no file to change in %s", tt.dir)
			}
			flipByte(t, p.path(tt.dir+"/"+name), 10)
			tampered := p.outputs(t)
			r := p.build(t, "--check")
			if r.code == 0 {
				t.Fatalf("--check passed with one byte of %s/%s changed:\n%s", tt.dir, name, r)
			}
			if !strings.Contains(r.stdout+r.stderr, name) {
				t.Errorf("--check does not name %s:\n%s", name, r)
			}
			if d := p.outputs(t).diff(tampered, "after --check", "before"); d != "" {
				t.Errorf("--check changed the outputs: %s", d)
			}
		})
	}
}

// mixedTOMLWith returns mixedTOML with its compress line replaced by
// compress and the default cache.
func mixedTOMLWith(compress string) string {
	return strings.Replace(strings.Replace(mixedTOML, "%s", "", 1), `compress = ["gzip", "br"]`, compress, 1)
}

// firstName returns the first file of the tree under prefix whose name
// ends with suffix, or "".
func firstName(tr tree, prefix, suffix string) string {
	for _, n := range tr.names() {
		if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, suffix) {
			return n
		}
	}
	return ""
}
