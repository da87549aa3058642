// Bakefs runs the asset transformations that go build refuses to run, and
// writes the exact bytes for //go:embed together with a Go package that
// serves them.
//
// Usage:
//
//	bakefs build [-f bakefs.toml]          run a project file, then write its Go package
//	bakefs transform --out DIR [flags]     run steps over files into an output tree + manifest
//	bakefs embed --tree DIR --out PKGDIR   write a Go package that embeds an output tree
//	bakefs steps [NAME]                    list the steps and their options
//	bakefs dev [-f bakefs.toml]            serve the assets from source, rebuilding and reloading on change
//	bakefs cache prune [--max-size SIZE]   shrink the build cache
//	bakefs version                         print the versions that make the bytes
//	bakefs help COMMAND                    show a command's flags and examples
//
// A step is written in one small language everywhere (command line, project
// file, Bazel attributes): a name, then options after a colon,
//
//	minify
//	resize:width=800,fit=cover
//	bundle:format=esm,external=react+react-dom,define=DEBUG:false
//
// Steps chain in order; compression (gzip, br, zstd) and hash come last.
//
// Examples:
//
//	bakefs build                                   # ./bakefs.toml
//	bakefs transform --out build/js --file app.js=web/app.ts --step bundle --step minify --compress br,gzip --hash
//	bakefs embed --tree build/js --out internal/assets --package assets
//
// Exit status: 0 on success, 1 when a build fails (the previous output is
// left intact), 2 on misuse (bad flags, unknown command, bad step syntax),
// 130 when interrupted (Ctrl-C; the previous output is left intact).
//
// Environment: BAKEFS_REMOTE_HEADER (see bakefs help build);
// BAKEFS_CPUPROFILE=FILE and BAKEFS_MEMPROFILE=FILE write a CPU profile of
// the run and a heap profile at its end, for go tool pprof.
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// A command is one subcommand: its name, a one-line summary, and the
// function that runs it.
type command struct {
	name    string
	summary string
	run     func(env *environment, args []string) error
}

func commands() []command {
	return []command{
		{"build", "run a project file and write its output tree and Go package", runBuild},
		{"transform", "run steps over files into an output tree + manifest", runTransform},
		{"embed", "write a Go package that embeds an output tree", runEmbed},
		{"steps", "list the steps and their options", runSteps},
		{"dev", "serve a project's assets, rebuilding and reloading on change", runDev},
		{"cache", "prune the build cache", runCache},
		{"version", "print the versions of bakefs and of the libraries that make bytes", runVersion},
	}
}

// environment is what a command may touch: its streams and whether stderr
// is a terminal that can show progress.
type environment struct {
	stdout, stderr io.Writer
	interactive    bool
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("bakefs: ")
	env := &environment{stdout: os.Stdout, stderr: os.Stderr, interactive: isTerminal(os.Stderr) && os.Getenv("CI") == ""}
	stopProfiles := startProfiles(env)
	status := run(env, os.Args[1:])
	stopProfiles()
	os.Exit(status)
}

// run executes a command line and returns the exit status.
func run(env *environment, args []string) int {
	if len(args) == 0 {
		usage(env.stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 && args[1] == "project" {
			fmt.Fprint(env.stdout, project.Reference)
			return 0
		}
		if len(args) > 1 {
			name, args = args[1], []string{args[1], "--help"}
		} else {
			usage(env.stdout)
			return 0
		}
	}
	for _, c := range commands() {
		if c.name == name {
			return exitStatus(env, c.run(env, args[1:]))
		}
	}
	fmt.Fprintf(env.stderr, "bakefs: unknown command %q\n\n", name)
	usage(env.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "bakefs runs asset transforms for //go:embed and writes a Go package that serves them.\n\nUsage:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "\tbakefs %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'bakefs help COMMAND' for a command's flags and examples, 'bakefs help project'\nfor every key of a project file.\n")
	fmt.Fprintf(w, "\nEnvironment: BAKEFS_CPUPROFILE=FILE and BAKEFS_MEMPROFILE=FILE write a CPU profile\nof the run and a heap profile at its end, for go tool pprof.\n")
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
