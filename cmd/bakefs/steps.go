package main

import (
	"fmt"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

const stepsManual = `
Usage: bakefs steps [NAME]

Steps lists every step with its options, or one step when NAME is given.
A step is written NAME or NAME:KEY=VALUE,KEY=VALUE; a list option takes
items joined by "+" or a repeated key; a value with a comma, space or quote
is written in double quotes.
`

// runSteps implements bakefs steps.
func runSteps(env *environment, args []string) error {
	fs := newFlagSet(env, "steps", stepsManual)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	found := false
	for _, s := range transform.Steps() {
		if fs.NArg() > 0 && s.Name != fs.Arg(0) {
			continue
		}
		found = true
		kind := ""
		if s.Kind == transform.Finishing {
			kind = " (finishing: after every content step)"
		}
		fmt.Fprintf(env.stdout, "%s  %s%s\n", s.Name, s.Doc, kind)
		keyWidth := 16
		for _, o := range s.Options {
			keyWidth = max(keyWidth, len(o.Key))
		}
		for _, o := range s.Options {
			typ := o.Type
			if len(o.Values) > 0 {
				typ = strings.Join(o.Values, "|")
			}
			fmt.Fprintf(env.stdout, "    %-*s %-22s %s\n", keyWidth, o.Key, typ, o.Doc)
		}
	}
	if !found {
		return usageError("steps: no step named %q", fs.Arg(0))
	}
	return nil
}
