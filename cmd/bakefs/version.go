package main

import (
	"fmt"

	"github.com/bakefs/bakefs/internal/toolid"
)

const versionManual = `
Usage: bakefs version

Version prints bakefs's version, the Go toolchain it was built with and the
versions of the libraries that make output bytes (esbuild, the minifiers,
the image and compression libraries). All of them are part of every cache
key: a build after an upgrade of any of them runs its steps again.
`

// runVersion implements bakefs version.
func runVersion(env *environment, args []string) error {
	fs := newFlagSet(env, "version", versionManual)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("version: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprint(env.stdout, toolid.Read())
	return nil
}
