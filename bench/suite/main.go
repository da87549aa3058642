// Command suite runs the side-by-side benchmarks of bakefs against its
// peers and prints one Markdown report: each section's tables, then the
// goals of the performance work with their ratios, ranges and whether they
// are met. bench/run.sh installs the peers (suite -peers-needed tells it
// which) and runs it; see bench/README.md for what each section measures.
//
// Usage:
//
//	suite [-rounds 5] [-peers DIR] [-results FILE] [-bakefs BIN] [-keep] [SECTION...]
//	suite -peers-needed [SECTION...]
//
// SECTION is a section's name, or "goals" for every section that checks a
// goal; no SECTION means all of them. Every server listens on loopback
// only and every load run is bounded.
//
// Exit status: 0 when every section ran, 1 when one failed (its command
// and output are printed), 2 on misuse.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	rounds := flag.Int("rounds", 5, "`rounds` of each side-by-side comparison")
	peers := flag.String("peers", defaultPeers(), "`dir`ectory where bench/run.sh installed the peers")
	results := flag.String("results", "", "also write the Markdown report to `file`")
	bakefs := flag.String("bakefs", "", "a bakefs `binary` to measure instead of building ./cmd/bakefs")
	keep := flag.Bool("keep", false, "keep the temporary directory and print its path")
	needed := flag.Bool("peers-needed", false, "print the peers the sections need, one per line, and exit")
	flag.Usage = usage
	flag.Parse()
	chosen, err := choose(flag.Args())
	if err != nil || *rounds < 1 {
		if err != nil {
			fmt.Fprintln(os.Stderr, "suite:", err)
		}
		flag.Usage()
		os.Exit(2)
	}
	if *needed {
		lines, err := peerLines(chosen)
		if err != nil {
			fmt.Fprintln(os.Stderr, "suite:", err)
			os.Exit(1)
		}
		for _, l := range lines {
			fmt.Println(l)
		}
		return
	}
	os.Exit(run(chosen, config{rounds: *rounds, peers: *peers, results: *results, bakefsBin: *bakefs, keep: *keep}))
}

func usage() {
	fmt.Fprintf(os.Stderr, "Usage: suite [flags] [SECTION...]\n\nSections (goals: those marked *):\n")
	for _, s := range sections {
		mark := " "
		if s.goal {
			mark = "*"
		}
		fmt.Fprintf(os.Stderr, "  %s %-9s %s\n", mark, s.name, s.title)
	}
	fmt.Fprintf(os.Stderr, "\nFlags:\n")
	flag.PrintDefaults()
}

// defaultPeers is bench/run.sh's default peers directory.
func defaultPeers() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "bakefs-bench")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "bakefs-bench")
}

// choose returns the sections named by args, in the suite's order.
func choose(args []string) ([]section, error) {
	if len(args) == 0 {
		return sections, nil
	}
	want := make(map[string]bool)
	for _, a := range args {
		if a == "goals" {
			for _, s := range sections {
				if s.goal {
					want[s.name] = true
				}
			}
			continue
		}
		if _, ok := sectionNamed(a); !ok {
			return nil, fmt.Errorf("unknown section %q (one of %s, or goals)", a, strings.Join(sectionNames(), " "))
		}
		want[a] = true
	}
	var chosen []section
	for _, s := range sections {
		if want[s.name] {
			chosen = append(chosen, s)
		}
	}
	return chosen, nil
}
