// Sidebyside times commands against each other on a shared, noisy machine:
// it runs them in alternation, round after round, and reports each
// command's time and peak memory relative to the first command's in the
// same round.
//
// Usage:
//
//	sidebyside [-rounds 5] [-warmup 1] [-prepare NAME=CMD]... [-md FILE -title TEXT] NAME=CMD...
//
// Each CMD runs with bash -c from the current directory. A prepare command
// runs before every run of the command it names (NAME "*": every
// command), untimed; use it to empty a cache or change a file. The
// measurement is package sidebyside's (bench/sidebyside), which the bench
// suite (bench/suite) calls in process.
//
// With -md, a Markdown table of the results, headed by -title, is
// appended to FILE as well as printed.
//
// Exit status: 0 on success, 1 when a command fails, 2 on misuse.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("sidebyside: ")
	var prepare listFlag
	rounds := flag.Int("rounds", 5, "measured `rounds`; each runs every command once")
	warmup := flag.Int("warmup", 1, "unmeasured `rounds` first")
	md := flag.String("md", "", "append a Markdown table to `file`")
	title := flag.String("title", "", "heading of the Markdown table")
	flag.Var(&prepare, "prepare", "`NAME=CMD` to run untimed before each run of NAME (* for all; repeatable)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: sidebyside [flags] NAME=CMD...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	cmds, err := sidebyside.ParseCommands(flag.Args(), prepare)
	if err != nil || *rounds < 1 || *warmup < 0 {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		flag.Usage()
		os.Exit(2)
	}
	res, err := sidebyside.Measure(cmds, sidebyside.Options{Warmup: *warmup, Rounds: *rounds, Log: os.Stderr})
	if err != nil {
		log.Fatal(err)
	}
	table := res.Markdown(*title)
	fmt.Print(table)
	if *md != "" {
		f, err := os.OpenFile(*md, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		if _, err := f.WriteString(table + "\n"); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }
