package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// out appends lines to the report.
func (s *suite) out(lines ...string) {
	for _, l := range lines {
		s.report.WriteString(l)
		s.report.WriteByte('\n')
	}
}

// outf appends one formatted line to the report.
func (s *suite) outf(format string, args ...any) {
	s.out(fmt.Sprintf(format, args...))
}

// fenced appends text to the report as a fenced block and an empty line.
func (s *suite) fenced(text string) {
	s.out("```", strings.TrimRight(text, "\n"), "```", "")
}

// A goalRow is one line of the goals table at the end of the report.
type goalRow struct{ goal, measured, met string }

// goal adds a row to the goals table; met is yes, no or — (no goal).
func (s *suite) goal(goal, measured, met string) {
	s.goals = append(s.goals, goalRow{goal, measured, met})
}

// met is the goals table's cell for a condition.
func met(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// yesNo is "yes" or "no", for the report's "same bytes" remarks.
func yesNo(ok bool) string { return met(ok) }

// header starts the report with the machine and the peers' versions.
func (s *suite) header() {
	s.outf("## Results of bench/run.sh — %s", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	s.out("")
	versions := []string{goVersion()}
	if v := s.esbuildVersion(); v != "" {
		versions = append(versions, "esbuild "+v)
	}
	for _, v := range [][]string{{"hugo", "version"}, {"wrk", "--version"}, {"hyperfine", "--version"}} {
		if line := firstLine(v[0], v[1:]...); line != "" {
			f := strings.Fields(line)
			versions = append(versions, strings.Join(f[:min(2, len(f))], " "))
		}
	}
	s.outf("Machine: %d cores, %s, load average at start %s; %s.", cores(), memTotal(), loadAverage(), strings.Join(versions, "; "))
	s.out("Ratios compare commands run in alternation in the same rounds; below 1× means faster than the first row.", "")
}

// finish appends the goals table, prints the report with the temporary
// paths as $WORK and the peers as $BENCH_PEERS, and copies it to -results.
func (s *suite) finish() {
	if len(s.goals) > 0 {
		s.out("### Goals (this run)", "", "| goal | measured | met |", "|---|---|---|")
		for _, g := range s.goals {
			s.outf("| %s | %s | %s |", g.goal, g.measured, g.met)
		}
		s.out("", "For a goal not met, its section above ends with the top lines of the bakefs command's profiles; bench/README.md (\"Goals not met, and why\") reads them.", "")
	}
	text := strings.NewReplacer(s.work, "$WORK", s.peers, "$BENCH_PEERS").Replace(s.report.String())
	fmt.Print(text)
	if s.results != "" {
		s.check(os.WriteFile(s.results, []byte(text), 0o644))
	}
}

// firstLine is the first line a command prints (either stream), or "" when
// it cannot run.
func firstLine(name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

func goVersion() string {
	f := strings.Fields(firstLine("go", "version"))
	if len(f) < 3 {
		return "go (unknown version)"
	}
	return f[2]
}

// memTotal is the machine's memory from /proc/meminfo, in GiB.
func memTotal() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown memory"
	}
	var kib float64
	for _, l := range strings.Split(string(b), "\n") {
		if _, err := fmt.Sscanf(l, "MemTotal: %f kB", &kib); err == nil {
			break
		}
	}
	return fmt.Sprintf("%.0f GiB", kib/1048576)
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
