package consistency

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarySaysWhatChanged: the summary line of a build says "wrote"
// when the build changed the output tree or the package, and "unchanged"
// when it changed neither.
func TestSummarySaysWhatChanged(t *testing.T) {
	p := newProject(t, filepath.Join(t.TempDir(), "proj"), stylesTOML, map[string]string{
		"src/styles/a.css": "body {\n  color: #123456;\n}\n",
	})
	steps := []struct {
		name   string
		change func()
		want   string
	}{
		{"first build", func() {}, "wrote"},
		{"nothing changed", func() {}, "unchanged"},
		{"source edited", func() { p.write(t, "src/styles/a.css", "body {\n  color: #654321;\n}\n") }, "wrote"},
		{"edited back", func() { p.write(t, "src/styles/a.css", "body {\n  color: #123456;\n}\n") }, "wrote"},
		{"nothing changed again", func() {}, "unchanged"},
	}
	for _, s := range steps {
		s.change()
		r := p.mustBuild(t)
		if !strings.Contains(r.stderr, ", "+s.want+" ") {
			t.Errorf("%s: the summary does not say %q:\n%s", s.name, s.want, r.stderr)
		}
	}
}
