package consistency

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// byteMakers are the modules whose code makes output bytes; their versions
// are part of every cache key, and bakefs version names them.
var byteMakers = []string{
	"github.com/evanw/esbuild",
	"github.com/tdewolff/minify/v2",
	"github.com/disintegration/imaging",
	"golang.org/x/image",
	"github.com/molecule-man/go-brrr",
	"github.com/klauspost/compress",
}

// TestVersionNamesByteMakers: bakefs version prints bakefs's version, the
// Go version it was built with and the version of every module that makes
// output bytes, as go.mod requires them: the identity that the cache keys
// hold, so that an upgrade of any of them is seen.
func TestVersionNamesByteMakers(t *testing.T) {
	r := bakefs(t, t.TempDir(), "version")
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	lines := strings.Split(r.stdout, "\n")
	if !strings.HasPrefix(lines[0], "bakefs") {
		t.Errorf("first line %q does not name bakefs", lines[0])
	}
	if !strings.Contains(r.stdout, runtime.Version()) {
		t.Errorf("no Go version %s in:\n%s", runtime.Version(), r.stdout)
	}
	required := goModRequires(t)
	for _, mod := range byteMakers {
		version, ok := required[mod]
		if !ok {
			t.Fatalf("go.mod does not require %s", mod)
		}
		found := false
		for _, l := range lines {
			if strings.Contains(l, mod) && strings.Contains(l, version) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line names %s %s in:\n%s", mod, version, r.stdout)
		}
	}
}

// goModRequires returns the module versions that the repository's go.mod
// requires.
func goModRequires(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	req := make(map[string]string)
	inBlock := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
			continue
		case line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		if f := strings.Fields(line); len(f) >= 2 {
			req[f[0]] = f[1]
		}
	}
	return req
}
