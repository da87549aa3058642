package consistency

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestIncrementalEqualsClean is the property "incremental = clean": after
// every edit of a seeded random sequence, the build with the project's
// cache and previous outputs writes the same output tree (manifest
// included) and the same Go package, byte for byte, as a build of a fresh
// copy of the sources with no cache and no previous output. An edit that
// makes the build fail must make both fail, and the failed incremental
// build must leave the previous tree and package as they were.
//
// The edits change, add, delete and rename files (among them modules that
// the two entries share through a chunk and a module loaded with
// import()), edit tsconfig.json, add a .ts or .tsx beside an imported
// module of the same stem and change the fields of a local package's
// package.json (see site). Each sequence stops at
// its first mismatch, so the sequences run independently.
func TestIncrementalEqualsClean(t *testing.T) {
	seed := testSeed(t)
	perSequence := envInt(t, "BAKEFS_EDITS", 16)
	const sequences = 4
	var edits, failed, cached atomic.Int64
	for i := range sequences {
		// Even sequences age every change (see project.age), so that the
		// cache keeps bundles and answers from them; odd ones build
		// right after each edit, as a user would.
		aged := i%2 == 0
		name := fmt.Sprintf("seq%d-fresh", i)
		if aged {
			name = fmt.Sprintf("seq%d-aged", i)
		}
		t.Run(name, func(t *testing.T) {
			e, f, c := editSequence(t, seed+int64(i), seed, perSequence, aged)
			edits.Add(int64(e))
			failed.Add(int64(f))
			cached.Add(int64(c))
		})
	}
	t.Logf("%d edits compared in %d sequences of up to %d (%d of them builds that failed in both); the incremental builds answered %d jobs from the cache", edits.Load(), sequences, perSequence, failed.Load(), cached.Load())
	// Mostly failing builds would compare little; the edits are weighted
	// so that most builds succeed.
	if !t.Failed() && failed.Load()*2 > edits.Load() {
		t.Errorf("%d of %d builds failed: the edits no longer exercise successful builds", failed.Load(), edits.Load())
	}
}

// editSequence runs one sequence of n edits from seed and returns how many
// were compared, how many of those made both builds fail and how many jobs
// the incremental builds answered from the cache; replaySeed is the seed
// that replays the whole test. When aged is
// set, each edit's files are given a modification time of their own, an
// hour ago.
func editSequence(t *testing.T, seed, replaySeed int64, n int, aged bool) (compared, failed, cached int) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6261_6b65))
	root := t.TempDir()
	p := newProject(t, filepath.Join(root, "inc", "site"), siteTOML, nil)
	s := newSite(t, p)
	var history []string
	start := time.Now()
	age := func() {
		if aged {
			p.age(t, start.Add(-time.Minute), start.Add(-time.Hour+time.Duration(len(history))*time.Second))
		}
	}
	report := func(format string, args ...any) {
		t.Helper()
		var b strings.Builder
		fmt.Fprintf(&b, "%s (sequence seed %d), edit %d of %d: %s\nedits so far:\n", t.Name(), seed, len(history)-1, n, fmt.Sprintf(format, args...))
		for i, h := range history {
			fmt.Fprintf(&b, "\t%2d. %s\n", i, h)
		}
		fmt.Fprintf(&b, "replay: BAKEFS_SEED=%d go test -run '^%s$' ./tests/consistency/", replaySeed, strings.ReplaceAll(t.Name(), "/", "$/^"))
		t.Fatal(b.String())
	}
	history = append(history, "first build")
	age()
	for {
		before := p.outputs(t)
		inc := p.build(t)
		clean, want := p.cleanCopy(t, root)
		compared++
		switch {
		case inc.code != clean.code:
			report("the incremental build exited %d, the clean one %d\nincremental: %s\nclean: %s", inc.code, clean.code, inc, clean)
		case inc.code != 0 && len(history) == 1:
			report("the first build failed:\n%s", inc)
		case inc.code != 0:
			failed++
			if d := before.diff(p.outputs(t), "before", "after"); d != "" {
				report("the failed build changed the previous outputs: %s\n%s", d, inc)
			}
		default:
			_, c := summary(inc.stderr)
			cached += c
			if d := p.outputs(t).diff(want, "incremental", "clean"); d != "" {
				report("incremental and clean builds differ: %s", d)
			}
		}
		if len(history) > n {
			return compared - 1, failed, cached
		}
		history = append(history, s.randomEdit(t, rng, inc.code != 0))
		age()
	}
}
