// Package report writes what the bakefs CLI and dev mode tell their user
// about a build, the same way in both: the summary line of a run and the
// lines of a failed one.
package report

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// ErrorLines returns the lines that describe a failed build. A
// transform.SourceError becomes "file:line:col: error: message", with its
// file made openable from the working directory when src, the source
// root, is given (src joined with the logical path, relative to the
// working directory when below it); errors joined with errors.Join give
// one line or more each; any other error gives the lines of its text.
func ErrorLines(err error, src string) []string {
	var lines []string
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case *transform.SourceError:
			lines = append(lines, located(x, src).Error())
		case transform.SourceErrors:
			for _, se := range x {
				lines = append(lines, located(se, src).Error())
			}
		default:
			if inner, ok := joined(e); ok {
				for _, in := range inner {
					walk(in)
				}
				return
			}
			lines = append(lines, strings.Split(e.Error(), "\n")...)
		}
	}
	if err != nil {
		walk(err)
	}
	return lines
}

// joined returns the errors that e lists when its text is theirs, one
// per line, as errors.Join makes it; an error that wraps several with text
// of its own (fmt.Errorf("%w: %w", …)) is read as its text.
func joined(e error) ([]error, bool) {
	j, ok := e.(interface{ Unwrap() []error })
	if !ok {
		return nil, false
	}
	inner := j.Unwrap()
	texts := make([]string, len(inner))
	for i, x := range inner {
		texts[i] = x.Error()
	}
	return inner, e.Error() == strings.Join(texts, "\n")
}

// located returns a copy of e whose File is a path on disk under src.
func located(e *transform.SourceError, src string) *transform.SourceError {
	c := *e
	if src == "" || filepath.IsAbs(c.File) {
		return &c
	}
	file := filepath.Join(src, filepath.FromSlash(c.File))
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	c.File = file
	return &c
}
