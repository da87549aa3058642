package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// realFloorScript compresses every file of list.txt under src/ with the C
// CLIs at the release levels (brotli 11, gzip 9, zstd 11, the level
// klauspost/compress documents its best as), as many files at a time as
// bakefs runs jobs (one per core): fmt arguments are the floor's directory
// and the number of cores.
const realFloorScript = `#!/usr/bin/env bash
set -e
cd %[1]s/src
xargs -P %[2]d -n 16 brotli -f -k -q 11 <%[1]s/list.txt
xargs -P %[2]d -n 16 gzip -f -k -9 <%[1]s/list.txt
xargs -P %[2]d -n 16 zstd -f -k -q -11 <%[1]s/list.txt
`

// real measures section j: a cold release build of the real tree against
// the brotli, gzip and zstd CLIs compressing the same outputs, the
// brotli bytes of both compared (goal 3), then the peak RSS and time of a
// cold build of the real tree with photos, with GOGC=400 beside it.
func real(s *suite) {
	tree := s.real()
	s.logf("real tree: cold release build against the compression CLIs")
	s.out("### j. Cold release build of the real mixed tree: against the brotli, gzip and zstd CLIs, and peak RSS with photos", "")
	s.outf("Tree: %s.", s.realInfo())
	s.out("")
	floor := s.path("realfloor")
	build := filepath.Join(s.realBuilt(), "build")
	list := compressedOutputs(s.files(build, nil))
	for _, f := range list {
		s.writeFile(filepath.Join(floor, "src", f), s.readFile(filepath.Join(build, f)))
	}
	s.writeFile(filepath.Join(floor, "list.txt"), strings.Join(list, "\n")+"\n")
	s.writeFile(filepath.Join(floor, "clis.sh"), fmt.Sprintf(realFloorScript, floor, cores()))
	res := s.compare(comparison{
		title:  fmt.Sprintf("Cold build, %d of the outputs get variants", len(list)),
		warmup: 0, rounds: 2,
		cmds: []sidebyside.Command{
			contender("bakefs-build", s.bakefs+" build -f "+tree+"/bakefs.toml", coldClean(tree)),
			contender("c-clis", "bash "+floor+"/clis.sh", "find "+floor+"/src -name '*.br' -o -name '*.gz' -o -name '*.zst' | xargs rm -f"),
		},
	})
	// Brotli's bytes: each .br of the tree against the C tool's for the
	// same file (its window is chosen from the file's size, as bakefs
	// chooses it).
	var nbr, sameBr int
	var differ []string
	for _, f := range list {
		ours := filepath.Join(build, f+".br")
		if _, err := os.Stat(ours); err != nil {
			continue
		}
		nbr++
		if sameFile(ours, filepath.Join(floor, "src", f+".br")) {
			sameBr++
		} else {
			differ = append(differ, f)
		}
	}
	differs := ""
	if len(differ) > 0 {
		differs = "; differ: " + strings.Join(differ[:min(5, len(differ))], " ")
	}
	s.outf("The C CLIs: %s; they compress without minifying, so they are a floor. Brotli: %d of %d .br files byte for byte the C tool's%s.", cliVersions(), sameBr, nbr, differs)
	s.out("")
	s.removeCold(tree)
	s.profile("cold release build of the real tree", 1, "build", "-f", tree+"/bakefs.toml")
	clis := res.Stats("c-clis")
	s.goal("3. real tree cold build / C CLIs on the same files, same parallelism (goal ≤ 0.9×, same brotli bytes)",
		fmt.Sprintf("CLIs are %s of bakefs; brotli bytes the same in %d of %d files", clis.RatioText(), sameBr, nbr),
		met(1/clis.Ratio <= 0.9 && sameBr == nbr))

	// Peak RSS: the same tree with photos, each made into a srcset of
	// AVIF, WebP and JPEG at two widths.
	photos := s.realPhotos()
	s.logf("real tree with photos: cold release build, peak RSS, GOGC=400")
	def, gogc := s.compareGOGC(fmt.Sprintf("Cold build of the real tree with %d photos (srcset 480+960, AVIF, WebP, JPEG)", len(s.files(filepath.Join(photos, "web", "photos"), nil))),
		photos, "cold release build of the real tree with photos")
	s.goal("3. real tree with photos (AVIF, WebP) cold build: peak RSS (goal ≤ 256 MB)",
		fmt.Sprintf("%s (GOGC=400: %s)", def.RSSText(), gogc.RSSText()), met(rssMiB(def)*1.048576 <= 256))
	s.goal("3. same, time with GOGC=400 / default (goal: default ≤ 1.05× GOGC=400)",
		fmt.Sprintf("GOGC=400 is %s of the default", gogc.RatioText()), met(1/gogc.Ratio <= 1.05))
}

// compareGOGC measures two cold builds of project side by side, with the
// default collector and with GOGC=400, each from an empty build, cache and
// package, then profiles one cold build under profileTitle; it returns
// the two rows' statistics.
func (s *suite) compareGOGC(title, project, profileTitle string) (def, gogc sidebyside.Stats) {
	build := s.bakefs + " build -f " + project + "/bakefs.toml"
	res := s.compare(comparison{
		title:  title,
		warmup: 0, rounds: 2,
		cmds: []sidebyside.Command{
			contender("bakefs-build", build, coldClean(project)),
			contender("bakefs-build-gogc400", "GOGC=400 "+build, coldClean(project)),
		},
	})
	s.removeCold(project)
	s.profile(profileTitle, 1, "build", "-f", project+"/bakefs.toml")
	return res.Stats("bakefs-build"), res.Stats("bakefs-build-gogc400")
}

// compressedOutputs is the outputs of a build that have a .br, .gz or
// .zst variant, each once, in lexical order.
func compressedOutputs(files []string) []string {
	var list []string
	for _, f := range files {
		for _, ext := range []string{".br", ".gz", ".zst"} {
			if base, ok := strings.CutSuffix(f, ext); ok {
				list = append(list, base)
				break
			}
		}
	}
	slices.Sort(list)
	return slices.Compact(list)
}

// cliVersions is "brotli V, gzip V, zstd V" from each CLI's --version.
func cliVersions() string {
	field2 := func(line string) string {
		if f := strings.Fields(line); len(f) > 1 {
			return f[1]
		}
		return "?"
	}
	zstd := "?"
	if m := regexp.MustCompile(` v([0-9.]+)`).FindStringSubmatch(firstLine("zstd", "--version")); m != nil {
		zstd = m[1]
	}
	return fmt.Sprintf("brotli %s, gzip %s, zstd %s", field2(firstLine("brotli", "--version")), field2(firstLine("gzip", "--version")), zstd)
}

// coldClean is the shell command that empties a project's build, cache
// and package directories, so that its next build is cold.
func coldClean(project string) string {
	return fmt.Sprintf("rm -rf %[1]s/build %[1]s/.bakefs-cache %[1]s/pkg", project)
}

// removeCold empties a project's build, cache and package directories, as
// coldClean's command does.
func (s *suite) removeCold(project string) {
	for _, d := range []string{"build", ".bakefs-cache", "pkg"} {
		s.check(os.RemoveAll(filepath.Join(project, d)))
	}
}

// rssMiB is a command's median peak RSS in whole MiB, as RSSText prints it.
func rssMiB(st sidebyside.Stats) float64 {
	return math.Round(float64(st.RSSKiB) / 1024)
}
