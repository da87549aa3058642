package project

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReferenceLoads: the project file that Reference shows, its indented
// lines, is one that Load takes with every key it names.
func TestReferenceLoads(t *testing.T) {
	var lines []string
	for _, line := range strings.Split(Reference, "\n") {
		if rest, ok := strings.CutPrefix(line, "  "); ok {
			lines = append(lines, rest)
		}
	}
	file := writeProject(t, strings.Join(lines, "\n"))
	writeRelease(t, filepath.Join(filepath.Dir(file), "releases", "v1"))
	p, err := Load(file)
	if err != nil {
		t.Fatalf("the reference's project file: %v", err)
	}
	if len(p.Rules) != 4 || p.Rules[1].Output != "js/legacy.js" || p.Rules[2].StripPrefix != "public/" || p.Package == nil || p.RemoteCache == "" || p.Previous == nil || p.Releases != 2 {
		t.Errorf("the reference's project file reads as %+v", p)
	}
}
