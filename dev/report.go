package dev

import (
	"strings"

	"github.com/bakefs/bakefs/internal/report"
)

// errorText is the lines of a failed build (report.ErrorLines) joined by
// newlines, for the browser's overlay.
func errorText(err error, src string) string {
	return strings.Join(report.ErrorLines(err, src), "\n")
}
