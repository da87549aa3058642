package consistency

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// brotliTOML compresses one large text file with Brotli at the release
// level (11), into a tree and a package.
const brotliTOML = `src      = "src"
out      = "out"
profile  = "release"
compress = ["br"]

[package]
dir  = "pkg/assets"
name = "assets"

[[rule]]
match = "big.txt"
steps = []
`

// bigText returns about size bytes of text: lines of words drawn from a
// fixed vocabulary by a fixed-seed generator, compressible but not
// trivially so.
func bigText(size int) string {
	rng := rand.New(rand.NewPCG(8, 8))
	syllables := []string{"ka", "lo", "mer", "tin", "sa", "vu", "rel", "pon", "di", "gra", "ush", "te", "bri", "an", "ol", "zen"}
	words := make([]string, 512)
	for i := range words {
		var w strings.Builder
		for range 1 + rng.IntN(4) {
			w.WriteString(syllables[rng.IntN(len(syllables))])
		}
		words[i] = w.String()
	}
	var b strings.Builder
	b.Grow(size + 100)
	for b.Len() < size {
		n := 6 + rng.IntN(12)
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// cpuTime returns the CPU time a running process has used, from
// /proc/PID/stat (user and system time, in clock ticks of 10ms).
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses: state
	// is the first, utime the 12th and stime the 13th.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// needProc skips a test that reads a process's CPU time where there is no
// /proc to read it from.
func needProc(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("reads /proc/PID/stat, which %s does not have", runtime.GOOS)
	}
}

// interruptedBuild starts a build of p, waits until it has used busy of
// CPU time (compressing, in a project whose other work takes far less),
// sends it SIGINT and waits for it to exit. It returns the exit status,
// the standard error and the time from the signal to the exit.
func (p *project) interruptedBuild(t *testing.T, busy time.Duration) (int, string, time.Duration) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := command(p.dir, &stdout, &stderr, "build", "-f", p.path("bakefs.toml"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case err := <-done:
			t.Fatalf("the build ended (%v) before it had used %s of CPU time; nothing to interrupt\n%s", err, busy, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		used, err := cpuTime(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if used >= busy {
			break
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the build still ran %s after SIGINT\n%s", hangGuard, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stderr.String(), time.Since(sent)
}

// newBrotliProject writes a brotliTOML project whose big.txt is small,
// builds it, and then replaces big.txt with 6 MB of text.
func newBrotliProject(t *testing.T) *project {
	t.Helper()
	text := bigText(6 << 20)
	p := newProject(t, filepath.Join(t.TempDir(), "proj"), brotliTOML, map[string]string{"src/big.txt": text[:16<<10]})
	p.mustBuild(t)
	p.write(t, "src/big.txt", text)
	return p
}

// TestInterruptKeepsOutputs: SIGINT to a build busy compressing a large
// file with Brotli at level 11 ends it with exit status 130 and one line
// saying it was interrupted (not one "context canceled" per job), and
// leaves the previous tree and package as they were. The time from the
// signal to the exit is logged, not checked (see TestInterruptLatency).
func TestInterruptKeepsOutputs(t *testing.T) {
	needProc(t)
	p := newBrotliProject(t)
	before := p.outputs(t)
	code, stderr, latency := p.interruptedBuild(t, 500*time.Millisecond)
	t.Logf("exit %d %s after SIGINT", code, latency.Round(time.Millisecond))
	if code != 130 {
		t.Errorf("exit status %d after SIGINT, want 130\n%s", code, stderr)
	}
	var mentions []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(strings.ToLower(line), "interrupted") {
			mentions = append(mentions, line)
		}
	}
	if len(mentions) != 1 {
		t.Errorf("%d lines of standard error say interrupted, want 1:\n%s", len(mentions), stderr)
	}
	if strings.Contains(stderr, "context canceled") {
		t.Errorf("standard error reports the cancellation as errors:\n%s", stderr)
	}
	if d := p.outputs(t).diff(before, "after SIGINT", "before"); d != "" {
		t.Errorf("the interrupted build changed the previous outputs: %s", d)
	}
	if extra := p.leftovers(t); len(extra) > 0 {
		t.Errorf("the interrupted build left beside the outputs: %s", strings.Join(extra, ", "))
	}
}

// TestInterruptLatency reports the median time from SIGINT to exit of
// five builds busy with Brotli at level 11, for the record; it checks
// nothing about the time. It runs only with BAKEFS_LATENCY=1:
//
//	BAKEFS_LATENCY=1 go test -v -run TestInterruptLatency ./tests/consistency/
func TestInterruptLatency(t *testing.T) {
	if os.Getenv("BAKEFS_LATENCY") != "1" {
		t.Skip("set BAKEFS_LATENCY=1 to measure")
	}
	needProc(t)
	p := newBrotliProject(t)
	var latencies []time.Duration
	for i := range 5 {
		code, stderr, latency := p.interruptedBuild(t, 500*time.Millisecond)
		if code == 0 {
			t.Fatalf("run %d: the build finished despite SIGINT\n%s", i+1, stderr)
		}
		latencies = append(latencies, latency)
		t.Logf("run %d: exit %d, %s from SIGINT to exit", i+1, code, latency.Round(time.Millisecond))
	}
	sorted := slices.Clone(latencies)
	slices.Sort(sorted)
	t.Logf("median time from SIGINT to exit over %d runs: %s (all: %v)", len(sorted), sorted[len(sorted)/2].Round(time.Millisecond), latencies)
}
