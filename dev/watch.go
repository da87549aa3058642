package dev

import (
	"context"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/bakefs/bakefs/project"
)

// Run watches the project file and its source tree and rebuilds after
// every change, once the sources have stayed unchanged for Options.Quiet.
// It returns nil when ctx is done or the server is closed, and an error
// when the watcher cannot start. Run is called once per Server.
func (s *Server) Run(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("dev: watcher: %w", err)
	}
	defer w.Close()
	wt := &watchTree{w: w, file: s.file, watched: make(map[string]bool)}
	if err := wt.add(filepath.Dir(s.file)); err != nil {
		return fmt.Errorf("dev: watching %s: %w", filepath.Dir(s.file), err)
	}
	wt.refresh()
	fmt.Fprintf(s.log, "bakefs dev: watching %s\n", wt.describe())
	close(s.watching)

	var quiet, idle <-chan time.Time
	var timer *time.Timer
	projectEdited := false
	idleTimer := time.NewTimer(time.Hour)
	idleTimer.Stop()
	defer idleTimer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.closed:
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.layout.Add(1) // events may have been lost
			s.noteUnknown()
			fmt.Fprintf(s.log, "bakefs dev: watcher: %v\n", err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !wt.relevant(ev) {
				continue
			}
			projectEdited = projectEdited || ev.Name == wt.file
			if ev.Name == wt.file || ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				s.layout.Add(1)
			}
			isDir := false
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && wt.inSources(ev.Name) {
					isDir = true
					wt.addTree(ev.Name)
				}
			}
			// A file written or created is named to the next build, which
			// looks at no other; anything else makes it look at every file.
			if name, ok := wt.logical(ev.Name); ok && !isDir && ev.Op&^(fsnotify.Write|fsnotify.Create|fsnotify.Chmod) == 0 {
				s.noteChanged(name)
			} else {
				s.noteUnknown()
			}
			idle = nil // flushed after the build to come
			if timer == nil {
				timer = time.NewTimer(s.opts.Quiet)
			} else {
				timer.Reset(s.opts.Quiet)
			}
			quiet = timer.C
		case <-quiet:
			quiet = nil
			s.Rebuild(ctx)
			if projectEdited {
				// It may name another source root or skip other directories.
				projectEdited = false
				wt.refresh()
			}
			idleTimer.Reset(flushDelay)
			idle = idleTimer.C
		case <-idle:
			idle = nil
			s.FlushCache() // an error is logged
		}
	}
}

// flushDelay is how long the sources must stay quiet after a build
// before Run writes the cache's indexes (Server.FlushCache): long enough
// that a run of edits does not wait for it.
const flushDelay = 2 * time.Second

// A watchTree is the set of directories watched: the project file's
// directory (for the file itself) and every directory of the source root
// except the output tree, the cache and hidden directories.
type watchTree struct {
	w       *fsnotify.Watcher
	file    string
	src     string
	skip    []string
	watched map[string]bool
}

// refresh reads the project file for its source root and skipped
// directories and watches every directory of the source root. A project
// file that does not load keeps the previous roots.
func (wt *watchTree) refresh() {
	p, err := project.Load(wt.file)
	if err != nil {
		return
	}
	wt.src = p.Src
	wt.skip = wt.skip[:0]
	for _, d := range []string{p.Out, p.Cache} {
		if d != "" {
			wt.skip = append(wt.skip, filepath.Clean(d))
		}
	}
	wt.addTree(p.Src)
}

func (wt *watchTree) add(dir string) error {
	if wt.watched[dir] {
		return nil
	}
	if err := wt.w.Add(dir); err != nil {
		return err
	}
	wt.watched[dir] = true
	return nil
}

// addTree watches dir and every directory below it.
func (wt *watchTree) addTree(dir string) {
	filepath.WalkDir(dir, func(p string, d iofs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && (strings.HasPrefix(d.Name(), ".") || wt.skipped(p)) {
			return filepath.SkipDir
		}
		wt.add(p)
		return nil
	})
}

func (wt *watchTree) skipped(p string) bool {
	for _, s := range wt.skip {
		if p == s || strings.HasPrefix(p, s+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (wt *watchTree) inSources(p string) bool {
	return wt.src != "" && (p == wt.src || strings.HasPrefix(p, wt.src+string(filepath.Separator))) && !wt.skipped(p)
}

// relevant reports whether an event may change the build: a change to the
// project file or to a file of the source root. Changes of permissions
// alone are not.
func (wt *watchTree) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	return ev.Name == wt.file || wt.inSources(ev.Name)
}

// logical returns the path of file relative to the source root,
// slash-separated, as a job's Path is.
func (wt *watchTree) logical(file string) (string, bool) {
	if file == wt.file || !wt.inSources(file) {
		return "", false
	}
	rel, err := filepath.Rel(wt.src, file)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func (wt *watchTree) describe() string {
	if wt.src == "" {
		return wt.file
	}
	return wt.file + " and " + wt.src
}
