package consistency

import (
	"path/filepath"
	"strings"
	"testing"
)

// stylesTOML minifies stylesheets, with variants and hashed names, into a
// tree and a package.
const stylesTOML = `src      = "src"
out      = "out"
profile  = "dev"
compress = ["gzip"]
hash     = true

[package]
dir  = "pkg/assets"
name = "assets"

[[rule]]
match = "styles/*.css"
steps = ["minify"]
`

// TestEmbedFailureKeepsTreeAndPackage: when the package cannot be written
// (a source named x*.css, which the transforms accept and //go:embed does
// not), the build fails, names the file, and leaves both the output tree
// and the package byte-identical to the previous build's: the tree is not
// replaced ahead of a package that never comes. Once the file is gone the
// build gives the clean build's bytes again.
func TestEmbedFailureKeepsTreeAndPackage(t *testing.T) {
	root := t.TempDir()
	p := newProject(t, filepath.Join(root, "proj"), stylesTOML, map[string]string{
		"src/styles/a.css": "body {\n  color: #123456;\n}\n",
		"src/styles/b.css": ".b {\n  margin: 0px;\n}\n",
	})
	p.mustBuild(t)
	before := p.outputs(t)

	p.write(t, "src/styles/x*.css", ".x {\n  color: red;\n}\n")
	r := p.build(t)
	if r.code == 0 {
		t.Fatalf("the build accepted a file //go:embed cannot take:\n%s", r)
	}
	if !strings.Contains(r.stderr, "x*.css") {
		t.Errorf("the error does not name x*.css:\n%s", r)
	}
	if d := p.outputs(t).diff(before, "after the failed build", "before"); d != "" {
		t.Fatalf("the failed build changed the previous outputs: %s\n%s", d, r)
	}
	if extra := p.leftovers(t); len(extra) > 0 {
		t.Errorf("the failed build left beside the outputs: %s", strings.Join(extra, ", "))
	}

	p.remove(t, "src/styles/x*.css")
	p.write(t, "src/styles/b.css", ".b {\n  margin: 1px;\n}\n")
	p.mustBuild(t)
	_, want := p.cleanCopy(t, root)
	if d := p.outputs(t).diff(want, "incremental", "clean"); d != "" {
		t.Fatalf("after the failure, incremental and clean builds differ: %s", d)
	}
}
