package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRelease writes an empty output tree, a release's manifest alone, at dir.
func writeRelease(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bakefs-manifest.json"), []byte("{\n  \"version\": 1,\n  \"files\": []\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDeltaSection(t *testing.T) {
	const rule = "\n[[rule]]\nmatch = \"a.js\"\nsteps = []\n"
	for _, c := range []struct{ toml, want string }{
		{"src = \"web\"\nout = \"out\"\n[delta]\nreleases = 1\n" + rule, ":3: delta: previous is required"},
		{"src = \"web\"\nout = \"out\"\n[delta]\nprevious = \"out/old\"\n" + rule, ":4: delta: previous out/old is the output tree or inside it"},
		{"src = \"web\"\nout = \"out\"\n[delta]\nprevious = \"v1\"\nreleases = 0\n" + rule, ":5: delta: releases must be 1 or more"},
		{"src = \"web\"\nout = \"out\"\n[delta]\nprevious = \"missing\"\n" + rule, ":4: delta: previous release: open"},
	} {
		file := writeProject(t, c.toml, "a.js")
		writeRelease(t, filepath.Join(filepath.Dir(file), "v1"))
		_, err := Load(file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load of\n%s\n= %v, want an error with %q", c.toml, err, c.want)
		}
	}
}
