package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// newFlagSet returns a flag set whose usage prints the given manual text
// (synopsis, description, examples) before the flags.
func newFlagSet(env *environment, name, manual string) *flag.FlagSet {
	fs := flag.NewFlagSet("bakefs "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\nFlags:\n", strings.TrimSpace(manual))
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and maps a bad flag to a usage error. -h and --help
// print the manual to stdout and return flag.ErrHelp.
func parseFlags(env *environment, fs *flag.FlagSet, args []string) error {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			fs.SetOutput(env.stdout)
			fs.Usage()
			return flag.ErrHelp
		}
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// commaList splits "br,gzip" into its items, refusing empty ones.
func commaList(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	items := strings.Split(s, ",")
	for _, it := range items {
		if it == "" {
			return nil, errors.New("empty item in list")
		}
	}
	return items, nil
}
