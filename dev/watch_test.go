package dev

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunFilesComeAndGo: while Run watches, rebuilds after edits reuse the
// last build's jobs and look only at the files written, and a file
// created, renamed or removed still shows in the next build. The sources
// are dated an hour back, and each edit a minute later than the last, so
// that the rebuilds take unchanged files from memory.
func TestRunFilesComeAndGo(t *testing.T) {
	file := writeProject(t, cleanProject)
	root := filepath.Dir(file)
	web := filepath.Join(root, "web")
	old := time.Now().Add(-time.Hour)
	for name := range cleanProject {
		os.Chtimes(filepath.Join(root, name), old, old)
	}
	edits := 0
	edit := func(t *testing.T, name, text string) {
		writeFile(t, filepath.Join(web, name), text)
		edits++
		mtime := old.Add(time.Duration(edits) * time.Minute)
		os.Chtimes(filepath.Join(web, name), mtime, mtime)
	}
	s, log := newTestServer(t, file, Options{})
	states, ctx, stop := startRun(t, s)

	steps := []struct {
		name   string
		change func(t *testing.T)
		has    []string // files of the FS afterwards
		lacks  []string
		inPage string // in about.html afterwards, when set
	}{
		{"a page edited", func(t *testing.T) {
			edit(t, "about.html", strings.Replace(cleanProject["web/about.html"], "about", "edited", 1))
		}, []string{"about.html"}, nil, "edited"},
		{"a page created", func(t *testing.T) {
			edit(t, "new.html", "<p>new</p>\n")
		}, []string{"new.html"}, nil, ""},
		{"a page renamed", func(t *testing.T) {
			if err := os.Rename(filepath.Join(web, "new.html"), filepath.Join(web, "renamed.html")); err != nil {
				t.Fatal(err)
			}
		}, []string{"renamed.html"}, []string{"new.html"}, ""},
		{"a page removed", func(t *testing.T) {
			if err := os.Remove(filepath.Join(web, "renamed.html")); err != nil {
				t.Fatal(err)
			}
		}, nil, []string{"renamed.html"}, ""},
		{"a page edited again", func(t *testing.T) {
			edit(t, "about.html", strings.Replace(cleanProject["web/about.html"], "about", "again", 1))
		}, []string{"about.html"}, []string{"renamed.html"}, "again"},
		{"a page edited a third time", func(t *testing.T) {
			edit(t, "about.html", strings.Replace(cleanProject["web/about.html"], "about", "third", 1))
		}, []string{"about.html"}, nil, "third"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change(t)
			for {
				select {
				case state := <-states:
					if state.Error != "" {
						t.Fatalf("build failed: %s", state.Error)
					}
				case <-ctx.Done():
					t.Fatalf("the change was not built; log:\n%s", log)
				}
				if matches(s, st.has, st.lacks, st.inPage) {
					return
				}
			}
		})
	}
	if err := stop(); err != nil {
		t.Errorf("Run = %v", err)
	}
}

// matches reports whether the FS of s has the files has, lacks the files
// lacks, and has inPage in about.html.
func matches(s *Server, has, lacks []string, inPage string) bool {
	f := s.FS()
	for _, name := range has {
		if _, err := f.Stat(name); err != nil {
			return false
		}
	}
	for _, name := range lacks {
		if _, err := f.Stat(name); err == nil {
			return false
		}
	}
	if inPage != "" {
		b, err := f.ReadFile("about.html")
		if err != nil || !strings.Contains(string(b), inPage) {
			return false
		}
	}
	return true
}
