package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// config is what the command line chose.
type config struct {
	rounds    int
	peers     string // where bench/run.sh installed the peers
	results   string // a copy of the report ("": none)
	bakefsBin string // a bakefs binary to measure ("": build ./cmd/bakefs)
	keep      bool
}

// A suite is one run of the chosen sections: the checkout, a temporary
// directory for every tree and output, the report and the goals.
type suite struct {
	config
	root    string // the checkout
	work    string // the temporary directory
	bakefs  string // the bakefs binary measured
	report  bytes.Buffer
	goals   []goalRow
	servers []*exec.Cmd // stopped when the suite ends
	trees   trees
}

// A failure stops the suite: what failed, with its output.
type failure struct{ msg string }

// run runs the chosen sections and prints the report; it returns the
// exit status.
func run(chosen []section, cfg config) (status int) {
	root, err := checkoutRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "suite:", err)
		return 1
	}
	work, err := os.MkdirTemp("", "bakefs-bench.")
	if err != nil {
		fmt.Fprintln(os.Stderr, "suite:", err)
		return 1
	}
	s := &suite{config: cfg, root: root, work: work}
	defer func() {
		s.stopServers()
		if s.keep {
			fmt.Fprintf(os.Stderr, "bench: kept %s\n", work)
		} else {
			os.RemoveAll(work)
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			fmt.Fprintln(os.Stderr, "bench: FAILED:", f.msg)
			status = 1
		}
	}()
	s.logf("work dir %s", work)
	s.setUp()
	s.header()
	for _, sec := range chosen {
		sec.run(s)
	}
	s.finish()
	return 0
}

// checkoutRoot is the module root above the working directory, which
// bench/run.sh makes the checkout.
func checkoutRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run from the bakefs checkout (no go.mod here)")
	}
	return filepath.Dir(mod), nil
}

// setUp builds bakefs and the bench's own programs into work/bin.
func (s *suite) setUp() {
	s.mkdir(s.path("bin"))
	s.bakefs = s.path("bin", "bakefs")
	s.logf("building bakefs and the bench's programs")
	if s.bakefsBin != "" {
		s.cmd(s.root, nil, "cp", s.bakefsBin, s.bakefs)
	} else {
		s.cmd(s.root, nil, "go", "build", "-trimpath", "-o", s.bakefs, "./cmd/bakefs")
	}
}

// tool builds the bench program at ./bench/NAME once and returns its path.
func (s *suite) tool(name string) string {
	bin := s.path("bin", name)
	if _, err := os.Stat(bin); err != nil {
		s.cmd(s.root, nil, "go", "build", "-o", bin, "./bench/"+name)
	}
	return bin
}

// path is a path under the temporary directory.
func (s *suite) path(elem ...string) string {
	return filepath.Join(append([]string{s.work}, elem...)...)
}

// logf prints progress to standard error.
func (s *suite) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// fail stops the suite with a message.
func (s *suite) fail(format string, args ...any) {
	panic(failure{fmt.Sprintf(format, args...)})
}

// check stops the suite if err is not nil.
func (s *suite) check(err error) {
	if err != nil {
		s.fail("%v", err)
	}
}

// cmd runs a program in dir with env added to the environment and returns
// its standard output; its standard error goes to work/build.log. A
// failure stops the suite with the command and the end of its output.
func (s *suite) cmd(dir string, env []string, name string, args ...string) string {
	c := exec.Command(name, args...)
	c.Dir = dir
	if len(env) > 0 {
		c.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	s.appendLog(stderr.Bytes())
	if err != nil {
		s.fail("%s %s (in %s): %v\n%s%s", name, strings.Join(args, " "), dir, err, tail(stdout.String(), 20), tail(stderr.String(), 20))
	}
	return stdout.String()
}

// bash runs script with bash -c in dir, as cmd runs a program.
func (s *suite) bash(dir, script string) string {
	return s.cmd(dir, nil, "bash", "-c", script)
}

// bakefsRun runs the measured bakefs with args in the checkout.
func (s *suite) bakefsRun(args ...string) string {
	return s.cmd(s.root, nil, s.bakefs, args...)
}

// appendLog keeps the standard error of the suite's commands.
func (s *suite) appendLog(b []byte) {
	if len(b) == 0 {
		return
	}
	f, err := os.OpenFile(s.path("build.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	s.check(err)
	defer f.Close()
	_, err = f.Write(b)
	s.check(err)
}

// tail is the last n lines of text.
func tail(text string, n int) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}

// start starts a server in the background, its output in the file logPath;
// the suite stops it when it ends, if stop has not.
func (s *suite) start(logPath string, name string, args ...string) *exec.Cmd {
	logFile, err := os.Create(logPath)
	s.check(err)
	c := exec.Command(name, args...)
	c.Dir = s.root
	c.Stdout, c.Stderr = logFile, logFile
	err = c.Start()
	logFile.Close()
	s.check(err)
	s.servers = append(s.servers, c)
	return c
}

// stop kills a server started by start and waits for it.
func (s *suite) stop(c *exec.Cmd) {
	for i, sv := range s.servers {
		if sv == c {
			s.servers = append(s.servers[:i], s.servers[i+1:]...)
			break
		}
	}
	c.Process.Kill()
	c.Wait()
}

func (s *suite) stopServers() {
	for len(s.servers) > 0 {
		s.stop(s.servers[0])
	}
}

// waitFor calls ready every 100 ms until it returns true or timeout has
// passed; it reports whether ready returned true.
func waitFor(timeout time.Duration, ready func() bool) bool {
	return pollFor(timeout, 100*time.Millisecond, ready)
}

// pollFor is waitFor calling ready every interval: where the wait itself
// is measured, the interval bounds how finely.
func pollFor(timeout, interval time.Duration, ready func() bool) bool {
	for deadline := time.Now().Add(timeout); ; time.Sleep(interval) {
		if ready() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// cores is the machine's number of cores, as the report states it.
func cores() int { return runtime.NumCPU() }
