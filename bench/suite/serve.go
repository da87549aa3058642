package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serve measures section e: a ~400 KB script served by the bakefs handler
// (its precompressed br) and by http.FileServer, in two alternating wrk
// runs each.
func serve(s *suite) {
	s.logf("handler throughput")
	s.out("### e. Serving a ~400 KB script: bakefs handler (precompressed br) vs http.FileServer(http.FS(embed.FS))", "")
	e := s.path("serve")
	src := filepath.Join(e, "src")
	s.cmd(s.root, nil, s.tool("gen"), "-out", src, "-files", "620")
	srv := filepath.Join(e, "srv")
	s.benchServerModule(srv)
	s.bakefsRun("transform", "--no-cache", "--root", src+"/web", "--out", srv+"/site/tree",
		"--step", "bundle:format=esm", "--step", "minify", "--compress", "br,gzip",
		"--file", "js/app.ts="+src+"/web/ts/all.ts")
	server := s.startBenchServer(srv, "js/app.js", randomPort())
	// Check what each side sends before measuring it.
	if n, _ := s.fetch(server.bakefsURL); n != server.br {
		s.fail("%s sent %d B for br, gzip, not its br variant's %d B", server.bakefsURL, n, server.br)
	}
	if n, _ := s.fetch(server.plainURL); n != server.size {
		s.fail("%s sent %d B, not the file's %d B", server.plainURL, n, server.size)
	}
	s.outf("js/app.js: %d B, br %d B, gzip %d B (synthetic code compresses %.1f× with Brotli; real minified code compresses about 3–5×, which narrows the gap).",
		server.size, server.br, server.gzip, float64(server.size)/float64(server.br))
	s.out("")
	s.out("| run | server | requests/s | transfer/s | socket errors |", "|---|---|---:|---:|---|")
	sum := map[string]float64{}
	runs := map[string]int{}
	run := 0
	for round := 1; round <= 2; round++ {
		for _, side := range []string{"bakefs", "plain"} {
			url := server.bakefsURL
			if side == "plain" {
				url = server.plainURL
			}
			run++
			w := s.wrk(url, "10s", filepath.Join(e, fmt.Sprintf("wrk-%s-%d.txt", side, round)))
			sum[side] += w.rps
			runs[side]++
			s.outf("| %d | %s | %s | %s | %s |", run, side, w.rpsText, w.transfer, w.socketErrors)
		}
	}
	s.stop(server.cmd)
	ratio := (sum["bakefs"] / float64(runs["bakefs"])) / (sum["plain"] / float64(runs["plain"]))
	s.out("", fmt.Sprintf("Requests/s, bakefs / http.FileServer: **%.2f×** (mean of two alternating runs each; goal ≥ 3×).", ratio),
		fmt.Sprintf("Command: `wrk -t1 -c16 -d10s -H 'Accept-Encoding: br, gzip' URL`, loopback, server and wrk on the same %d cores.", cores()), "")
}

// A benchServer is a running copy of bench/server, with what its ready
// line says: the URLs of the file through the bakefs handler and through
// http.FileServer, and the sizes of the file and of its variants.
type benchServer struct {
	cmd                 *exec.Cmd
	bakefsURL, plainURL string
	size, br, gzip      int64
}

// benchServerModule copies bench/server to dir as a module of its own
// that depends on this checkout's runtime, so that the checkout is left
// as it is; the caller writes the tree to serve into dir/site/tree.
func (s *suite) benchServerModule(dir string) {
	s.mkdir(filepath.Join(dir, "site"))
	for _, f := range []string{"main.go", "handlers.go", "site/README.md"} {
		s.writeFile(filepath.Join(dir, f), s.readFile(filepath.Join(s.root, "bench", "server", f)))
	}
	s.runtimeModule("benchserver", dir)
}

// startBenchServer builds the module dir made by benchServerModule and
// starts it serving file, the bakefs handler on 127.0.0.1:port and
// http.FileServer on the port after, for at most 5 minutes, its output in
// dir/server.log; it waits for the ready line and returns what it says.
// The suite stops the server when it ends, if the caller has not.
func (s *suite) startBenchServer(dir, file string, port int) *benchServer {
	bin := s.path("bin", "server")
	s.cmd(dir, []string{"GOFLAGS=-mod=mod"}, "go", "build", "-o", bin, ".")
	logPath := filepath.Join(dir, "server.log")
	c := s.start(logPath, bin, "-bakefs", fmt.Sprintf("127.0.0.1:%d", port), "-plain", fmt.Sprintf("127.0.0.1:%d", port+1),
		"-file", file, "-timeout", "5m")
	var ready string
	if !waitFor(10*time.Second, func() bool { ready = readyLine(logPath); return ready != "" }) {
		s.fail("bench/server did not print its ready line in 10 s:\n%s", tail(s.readFile(logPath), 20))
	}
	fields := map[string]string{}
	for _, f := range strings.Fields(ready)[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			fields[k] = v
		}
	}
	server := &benchServer{cmd: c, bakefsURL: fields["bakefs"], plainURL: fields["plain"]}
	for k, n := range map[string]*int64{"size": &server.size, "br": &server.br, "gzip": &server.gzip} {
		v, err := strconv.ParseInt(fields[k], 10, 64)
		if err != nil {
			s.fail("bench/server's ready line %q: %s: %v", ready, k, err)
		}
		*n = v
	}
	if server.bakefsURL == "" || server.plainURL == "" {
		s.fail("bench/server's ready line %q lacks a URL", ready)
	}
	return server
}

// readyLine is the first line of the log at path that starts with
// "ready ", or "" when there is none yet.
func readyLine(path string) string {
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "ready ") {
			return l
		}
	}
	return ""
}

// randomPort is a port from 20000 to 39999, with the two after it, for
// the section's servers.
func randomPort() int { return 20000 + rand.IntN(20000) }

// fetch GETs url with Accept-Encoding: br, gzip, as a browser asks, and
// returns the bytes sent (not decoded) and their Content-Encoding; a
// failure or a status other than 200 stops the suite.
func (s *suite) fetch(url string) (n int64, encoding string) {
	resp, err := s.get(url, "br, gzip")
	s.check(err)
	defer resp.Body.Close()
	n, err = io.Copy(io.Discard, resp.Body)
	s.check(err)
	return n, resp.Header.Get("Content-Encoding")
}

// get GETs url with the Accept-Encoding acceptEncoding ("": none) and
// does not decode the body; a status of 400 or more is an error.
func (s *suite) get(url, acceptEncoding string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return resp, nil
}

// A wrkRun is what one wrk run printed: requests/s (as printed and as a
// number), transfer/s, the socket errors ("none" when it printed none)
// and the requests it counted.
type wrkRun struct {
	rpsText, transfer, socketErrors string
	rps                             float64
	requests                        int64
}

// wrk runs wrk for duration against url with one thread, 16 connections
// and Accept-Encoding: br, gzip, bounded to 30 s, keeps its output in
// outPath and returns what it printed. Responses other than 2xx or 3xx
// stop the suite with the output.
func (s *suite) wrk(url, duration, outPath string) wrkRun {
	out := s.cmd(s.root, nil, "timeout", "30", "wrk", "-t1", "-c16", "-d"+duration, "--timeout", "5s", "-H", "Accept-Encoding: br, gzip", url)
	s.check(os.WriteFile(outPath, []byte(out), 0o644))
	if strings.Contains(out, "Non-2xx") {
		s.fail("wrk %s: responses other than 2xx or 3xx:\n%s", url, out)
	}
	w := wrkRun{socketErrors: "none", requests: -1}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "Requests/sec:") && len(f) >= 2:
			w.rpsText = f[1]
		case strings.HasPrefix(l, "Transfer/sec:") && len(f) >= 2:
			w.transfer = f[1]
		case strings.Contains(l, "Socket errors: "):
			// wrk counts the requests still open when it stops as timeouts.
			_, w.socketErrors, _ = strings.Cut(l, ": ")
		case strings.Contains(l, " requests in ") && len(f) > 0:
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err == nil {
				w.requests = n
			}
		}
	}
	rps, err := strconv.ParseFloat(w.rpsText, 64)
	if err != nil || w.requests < 0 {
		s.fail("wrk %s: no requests/s or request count in its output:\n%s", url, out)
	}
	w.rps = rps
	return w
}
