package transform

import (
	"errors"
	"fmt"
)

// ErrUnknownStep reports a step name that is not registered.
var ErrUnknownStep = errors.New("transform: unknown step")

// ErrBadOption reports an option that a step does not take or a value it
// cannot accept.
var ErrBadOption = errors.New("transform: bad option")

// ErrTooLarge reports an input over a documented size bound (bytes, pixels,
// decompressed size).
var ErrTooLarge = errors.New("transform: input too large")

// A SourceError is a mistake at a known place in a source file. Its text
// has the form compilers use, "path:line:col: error: message", so that
// editors can jump to it.
type SourceError struct {
	File   string // logical source path
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
	Msg    string
	// Warning marks a mistake that does not stop the build (a reference
	// to a file that is not in the output tree, see Pipeline.Strict): its
	// text says "warning" instead of "error".
	Warning bool
}

func (e *SourceError) Error() string {
	level := "error"
	if e.Warning {
		level = "warning"
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Column, level, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, level, e.Msg)
	default:
		return fmt.Sprintf("%s: %s: %s", e.File, level, e.Msg)
	}
}

// A SourceErrors is several SourceError from one run, in source order. Its
// text is one line per error.
type SourceErrors []*SourceError

func (es SourceErrors) Error() string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += "\n"
		}
		s += e.Error()
	}
	return s
}
