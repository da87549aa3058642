package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/bakefs/bakefs/internal/report"
)

// errUsage marks misuse: exit status 2.
var errUsage = errors.New("usage")

// usageError returns an error that exits with status 2.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// exitStatus prints err, one line per error, and maps it to an exit status:
// 0 for nil, 2 for misuse, 130 for an interrupt (one line, whatever the
// steps said), 1 for every other failure.
func exitStatus(env *environment, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled):
		fmt.Fprintln(env.stderr, "bakefs: interrupted")
		return 130
	case errors.Is(err, errUsage):
		fmt.Fprintf(env.stderr, "bakefs: %s\n", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		return 2
	}
	for _, line := range report.ErrorLines(err, "") {
		if strings.Contains(line, ": error: ") {
			fmt.Fprintln(env.stderr, line) // file:line:col: error: … stands alone, as compilers print it
		} else {
			fmt.Fprintf(env.stderr, "bakefs: %s\n", line)
		}
	}
	return 1
}
