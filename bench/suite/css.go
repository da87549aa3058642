package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the unit of the CPU times in /proc/PID/stat (USER_HZ,
// which Linux fixes at 100 for user space).
const clockTicks = 100

// A cssRun is one wrk run of section o: its round, its server, its
// requests/s and the server's CPU per request in µs, as the table shows
// them.
type cssRun struct {
	round      int
	side       string
	rps, cpuUs float64
}

// css measures section o, goal 8: bulma.min.css served by the bakefs
// handler, by statigz with the same .br and .gz bytes as sidecars, and by
// http.FileServer, the three servers run in turn in each round.
func css(s *suite) {
	s.logf("serving a real stylesheet: bakefs handler vs statigz vs http.FileServer")
	sheet := filepath.Join(s.nodeModules(), "bulma", "css", "bulma.min.css")
	s.outf("### o. Serving a real stylesheet (bulma@%s css/bulma.min.css, %d B): bakefs handler vs statigz %s vs http.FileServer", bulmaVersion, s.size(sheet), statigzVersion)
	s.out("")
	o := s.path("css")
	srv := filepath.Join(o, "srv")
	s.benchServerModule(srv)
	tree := filepath.Join(srv, "site", "tree")
	s.bakefsRun("transform", "--no-cache", "--root", filepath.Dir(sheet), "--out", tree, "--compress", "br,gzip", sheet)
	statigz := s.statigzServer(filepath.Join(o, "statigz"), tree, "bulma.min.css")

	port := randomPort()
	server := s.startBenchServer(srv, "bulma.min.css", port)
	statigzAddr := fmt.Sprintf("127.0.0.1:%d", port+2)
	statigzLog := filepath.Join(o, "statigz.log")
	statigzCmd := s.start(statigzLog, statigz, statigzAddr, "5m")
	statigzURL := "http://" + statigzAddr + "/bulma.min.css"
	if !waitFor(10*time.Second, func() bool {
		resp, err := s.get(statigzURL, "")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	}) {
		s.fail("statigz-server did not answer in 10 s:\n%s", tail(s.readFile(statigzLog), 20))
	}

	urls := map[string]string{"bakefs": server.bakefsURL, "statigz": statigzURL, "plain": server.plainURL}
	pids := map[string]int{"bakefs": server.cmd.Process.Pid, "statigz": statigzCmd.Process.Pid, "plain": server.cmd.Process.Pid}
	sent := map[string]string{}
	for _, side := range []string{"bakefs", "statigz", "plain"} {
		n, enc := s.fetch(urls[side])
		sent[side] = fmt.Sprintf("%d %s", n, enc)
	}
	s.outf("Sent for `Accept-Encoding: br, gzip`: bakefs %s, statigz %s, http.FileServer %s (bytes, encoding); br %d B, gzip %d B.",
		sent["bakefs"], sent["statigz"], sent["plain"], server.br, server.gzip)
	s.out("")

	// Each round runs the three servers in turn, rotating which goes first;
	// a ratio is the median over the rounds of the ratio within a round, so
	// that a neighbour's load that slows a whole round cancels out. Server
	// CPU per request (user + system time of the server process over the
	// run, divided by the requests wrk counted) is less affected by that
	// load than requests/s, which also measure wrk on the same cores.
	s.out("| round | server | requests/s | transfer/s | server CPU per request | socket errors |", "|---|---|---:|---:|---:|---|")
	sides := []string{"bakefs", "statigz", "plain"}
	var runs []cssRun
	for round := 1; round <= s.rounds; round++ {
		for k := range 3 {
			side := sides[(round-1+k)%3]
			t0 := s.cpuTicks(pids[side])
			w := s.wrk(urls[side], "5s", filepath.Join(o, fmt.Sprintf("wrk-%s-%d.txt", side, round)))
			t1 := s.cpuTicks(pids[side])
			if w.requests == 0 {
				s.fail("wrk %s counted no requests", urls[side])
			}
			cpu := fmt.Sprintf("%.1f", float64(t1-t0)*1e6/clockTicks/float64(w.requests))
			cpuUs, err := strconv.ParseFloat(cpu, 64)
			s.check(err)
			runs = append(runs, cssRun{round: round, side: side, rps: w.rps, cpuUs: cpuUs})
			s.outf("| %d | %s | %s | %s | %s µs | %s |", round, side, w.rpsText, w.transfer, cpu, w.socketErrors)
		}
	}
	s.stop(server.cmd)
	s.stop(statigzCmd)

	rps := func(r cssRun) float64 { return r.rps }
	cpu := func(r cssRun) float64 { return r.cpuUs }
	rs, rsMedian := roundRatio(runs, "bakefs", "statigz", rps)
	rp, _ := roundRatio(runs, "bakefs", "plain", rps)
	cs, _ := roundRatio(runs, "statigz", "bakefs", cpu)
	s.out("", fmt.Sprintf("Requests/s, bakefs / statigz: **%s**; bakefs / http.FileServer: **%s**. Server CPU per request, statigz / bakefs: **%s** (medians of the ratios within each of %d rounds, smallest and largest in brackets).", rs, rp, cs, s.rounds),
		fmt.Sprintf("Command: `wrk -t1 -c16 -d5s -H 'Accept-Encoding: br, gzip' URL`, loopback, servers and wrk on the same %d cores.", cores()), "")
	s.goal("8. serving bulma.min.css, bakefs / statigz (goal ≥ 1.5×)",
		fmt.Sprintf("%s requests/s; server CPU per request statigz / bakefs %s (bakefs / http.FileServer %s)", rs, cs, rp), met(rsMedian >= 1.5))
}

// statigzServer builds the statigz peer in dir, a copy of its module, with
// the file name of tree and its sidecars (name.br, name.gz) in its site/,
// and returns the binary's path.
func (s *suite) statigzServer(dir, tree, name string) string {
	mod := s.peerModule("statigz-server")
	site := filepath.Join(dir, "site")
	s.mkdir(site)
	for _, f := range []string{"main.go", "go.mod", "go.sum"} {
		s.writeFile(filepath.Join(dir, f), s.readFile(filepath.Join(mod, f)))
	}
	sidecars, err := filepath.Glob(filepath.Join(tree, name+"*"))
	s.check(err)
	for _, f := range sidecars {
		s.writeFile(filepath.Join(site, filepath.Base(f)), s.readFile(f))
	}
	bin := s.path("bin", "statigz-server")
	s.cmd(dir, nil, "go", "build", "-o", bin, ".")
	return bin
}

// cpuTicks is the user and system time of process pid so far, in clock
// ticks: fields 14 and 15 of /proc/PID/stat.
func (s *suite) cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	s.check(err)
	// Field 2, the command name in parentheses, may hold spaces: count
	// from the field after it, field 3.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		s.fail("/proc/%d/stat: unexpected %q", pid, b)
	}
	f := strings.Fields(string(b)[i+1:])
	if len(f) < 13 {
		s.fail("/proc/%d/stat: unexpected %q", pid, b)
	}
	var ticks int64
	for _, field := range f[14-3 : 15-3+1] {
		n, err := strconv.ParseInt(field, 10, 64)
		s.check(err)
		ticks += n
	}
	return ticks
}

// roundRatio is, over the rounds where both ran and b's value is above 0,
// the ratio of a's value to b's in the same round: its median, with the
// smallest and largest, as "1.52× (1.48–1.60)", and the median as that
// text rounds it.
func roundRatio(runs []cssRun, a, b string, value func(cssRun) float64) (text string, median float64) {
	x, y := map[int]float64{}, map[int]float64{}
	for _, r := range runs {
		switch r.side {
		case a:
			x[r.round] = value(r)
		case b:
			y[r.round] = value(r)
		}
	}
	var q []float64
	for round, v := range x {
		if y[round] > 0 {
			q = append(q, v/y[round])
		}
	}
	if len(q) == 0 {
		return "—", 0
	}
	slices.Sort(q)
	n := len(q)
	m := q[n/2]
	if n%2 == 0 {
		m = (q[n/2-1] + q[n/2]) / 2
	}
	median, _ = strconv.ParseFloat(fmt.Sprintf("%.2f", m), 64)
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", m, q[0], q[n-1]), median
}
