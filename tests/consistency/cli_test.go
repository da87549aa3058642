package consistency

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bakefsBin is the CLI under test, built once by TestMain; repoRoot is the
// module root it was built from; binDir is the directory of bakefsBin, for
// other programs the tests build (see esbuildCLI), removed after the tests.
var bakefsBin, repoRoot, binDir string

var seedFlag = flag.Int64("consistency.seed", 0, "seed of the random edits and kill delays (0: BAKEFS_SEED, or the time)")

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "bakefs-consistency-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintf(os.Stderr, "finding the module root: %v\n", err)
			return 1
		}
		repoRoot, binDir = root, dir
		bakefsBin = filepath.Join(dir, "bakefs")
		build := exec.Command("go", "build", "-o", bakefsBin, "./cmd/bakefs")
		build.Dir = root
		build.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build ./cmd/bakefs: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// moduleRoot returns the directory of the go.mod that holds this package.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a module")
	}
	return filepath.Dir(mod), nil
}

// testSeed returns the seed given by -consistency.seed or BAKEFS_SEED, or
// one from the clock, and logs it with the way to replay it.
func testSeed(t *testing.T) int64 {
	t.Helper()
	seed := *seedFlag
	if seed == 0 {
		if s := os.Getenv("BAKEFS_SEED"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("BAKEFS_SEED=%q: %v", s, err)
			}
			seed = n
		}
	}
	if seed == 0 {
		seed = time.Now().UnixNano() % 1_000_000_000
	}
	t.Logf("seed %d (replay with BAKEFS_SEED=%d go test -run '^%s$' ./tests/consistency/)", seed, seed, t.Name())
	return seed
}

// envInt returns the integer in the environment variable name, or def.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// A result is how one run of the CLI ended.
type result struct {
	args           []string
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("bakefs %s: exit %d\nstdout:\n%sstderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// hangGuard ends a CLI run that has not finished after this long; it
// bounds a hang and measures nothing.
const hangGuard = 5 * time.Minute

// command returns the CLI with args, run in dir, its output going to
// stdout and stderr.
func command(dir string, stdout, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	cmd := exec.Command(bakefsBin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(os.Environ(), "CI=true")
	return cmd
}

// bakefs runs the CLI in dir and returns how it ended. A failure to start
// it, or a hang, fails the test.
func bakefs(t testing.TB, dir string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := command(dir, &stdout, &stderr, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-ctx.Done():
		cmd.Process.Kill()
		<-waited
		t.Fatalf("bakefs %s: still running after %s\n%s", strings.Join(args, " "), hangGuard, stderr.String())
	}
	r := result{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("bakefs %s: %v", strings.Join(args, " "), err)
	}
	return r
}

var summaryRE = regexp.MustCompile(`(\d+) ran, (\d+) cached`)

// summary reads the numbers of jobs run and answered from the cache from
// the summary line of a build's standard error; -1, -1 when it has none.
func summary(stderr string) (ran, cached int) {
	m := summaryRE.FindStringSubmatch(stderr)
	if m == nil {
		return -1, -1
	}
	ran, _ = strconv.Atoi(m[1])
	cached, _ = strconv.Atoi(m[2])
	return ran, cached
}
