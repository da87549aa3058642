package embedgen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An appModule is an application module in a temporary directory that
// depends on the runtime of this repository, fs/, the way an application
// depends on a released runtime: by its module path, here resolved by a
// replace directive. The go command runs in it offline (GOPROXY=off,
// GOWORK=off), so a requirement it cannot satisfy from the runtime is an
// error, not a download.
type appModule struct {
	t     testing.TB
	dir   string
	gobin string
}

// newAppModule writes dir/go.mod for module path at language version
// goVersion, with no requirement: the go command adds the runtime's.
func newAppModule(t testing.TB, dir, path, goVersion string) *appModule {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH:", err)
	}
	runtime, err := filepath.Abs(filepath.Join("..", "fs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(runtime, "go.mod")); err != nil {
		t.Fatal("the runtime is not a module:", err)
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n\nreplace github.com/bakefs/bakefs/fs => %s\n", path, goVersion, runtime)
	put(t, dir, "go.mod", []byte(gomod))
	return &appModule{t: t, dir: dir, gobin: gobin}
}

// goCmd runs the go command in the module and returns its output; a
// failure ends the test with that output.
func (m *appModule) goCmd(args ...string) string {
	m.t.Helper()
	return m.run(m.gobin, args...)
}

// run runs a program in the module's directory, with the go command's
// offline environment.
func (m *appModule) run(name string, args ...string) string {
	m.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = m.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		m.t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}
