package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// devBuildLine is a rebuild line of bakefs dev's log: "bakefs dev: build
// N: … in 42ms" (or "in 1.2s").
var devBuildLine = regexp.MustCompile(`(?m)^bakefs dev: build [0-9]+: .* in ([0-9.]+)(m?s)$`)

// devedit measures section n, goal 7: bakefs dev on the real tree, the
// time from one HTML file edited to its new bytes served, over -rounds
// edits, with the server's own rebuild times from its log.
func devedit(s *suite) {
	dir := s.real()
	s.logf("bakefs dev: one HTML edit to new bytes served")
	s.out("### n. `bakefs dev` on the real tree: one HTML file edited → new bytes served", "")
	n := s.path("devedit")
	s.mkdir(n)
	const page = "docs/index.html"
	addr := fmt.Sprintf("127.0.0.1:%d", randomPort())
	logPath := filepath.Join(n, "dev.log")
	t0 := time.Now()
	server := s.start(logPath, s.bakefs, "dev", "-f", filepath.Join(dir, "bakefs.toml"), "-addr", addr)
	url := "http://" + addr + "/" + page
	if !waitFor(5*time.Minute, func() bool { _, err := s.body(url); return err == nil }) {
		s.fail("bakefs dev never served %s:\n%s", url, tail(s.readFile(logPath), 20))
	}
	s.outf("First build served after %d ms (dev profile, cold cache).", time.Since(t0).Milliseconds())
	s.out("")
	var times []int64
	for i := 1; i <= s.rounds; i++ {
		time.Sleep(time.Second)
		mark := fmt.Sprintf("bench-edit-%d-%d", i, rand.IntN(32768))
		t0 := time.Now()
		f, err := os.OpenFile(filepath.Join(dir, "web", page), os.O_APPEND|os.O_WRONLY, 0)
		s.check(err)
		_, err = fmt.Fprintf(f, "<p>%s</p>\n", mark)
		s.check(f.Close())
		s.check(err)
		// Polled every millisecond: the time measured is the wait.
		if !pollFor(time.Minute, time.Millisecond, func() bool { b, err := s.body(url); return err == nil && strings.Contains(b, mark) }) {
			s.fail("edit %d never served:\n%s", i, tail(s.readFile(logPath), 20))
		}
		times = append(times, time.Since(t0).Milliseconds())
	}
	s.stop(server)
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	median := sorted[(len(sorted)+1)/2-1]
	timesText := joinInts(times)
	// The server's own time per rebuild, apart from the watcher's quiet
	// period and the polling; the first build is the cold one.
	var builds []int64
	for i, m := range devBuildLine.FindAllStringSubmatch(s.readFile(logPath), -1) {
		if i == 0 {
			continue
		}
		v, err := strconv.ParseFloat(m[1], 64)
		s.check(err)
		if m[2] == "s" {
			v *= 1000
		}
		builds = append(builds, int64(v))
	}
	s.outf("Edit → new bytes served, %d edits (append a paragraph to %s, the page fetched every millisecond until it has it): %s ms; median **%d ms**. The server's rebuilds, from its log: %s ms.",
		s.rounds, page, timesText, median, joinInts(builds))
	s.out("")
	s.goal("7. bakefs dev, one HTML edit → new bytes served (goal ≤ 100 ms)", fmt.Sprintf("median %d ms (%s ms)", median, timesText), met(median <= 100))
}

// body GETs url and returns its body.
func (s *suite) body(url string) (string, error) {
	resp, err := s.get(url, "")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// joinInts is the numbers separated by spaces.
func joinInts(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, " ")
}
