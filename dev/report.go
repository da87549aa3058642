package dev

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// errorLines returns the lines that describe a failed build. A
// transform.SourceError becomes "file:line:col: error: message" with file
// made openable from the working directory (src joined with its logical
// path, relative to the working directory when that is shorter); joined
// errors give one line or more each; anything else gives its text.
func errorLines(err error, src string) []string {
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
		case interface{ Unwrap() []error }:
			for _, inner := range x.Unwrap() {
				walk(inner)
			}
		default:
			lines = append(lines, strings.Split(e.Error(), "\n")...)
		}
	}
	if err != nil {
		walk(err)
	}
	return lines
}

// errorText is errorLines joined by newlines, for the browser's overlay.
func errorText(err error, src string) string {
	return strings.Join(errorLines(err, src), "\n")
}

// located returns a copy of e whose File is a path on disk.
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
