package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfiles: the profile variables make a command write a CPU profile
// and a heap profile (gzipped protocol buffers, as go tool pprof reads);
// an unwritable file is reported and the command still runs.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	t.Setenv(cpuProfileEnv, cpu)
	t.Setenv(memProfileEnv, mem)
	var stderr bytes.Buffer
	env := &environment{stdout: &bytes.Buffer{}, stderr: &stderr}
	stop := startProfiles(env)
	if status := run(env, []string{"version"}); status != 0 {
		t.Fatalf("version: status %d", status)
	}
	stop()
	for _, f := range []string{cpu, mem} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a gzipped profile: % x", filepath.Base(f), data[:min(len(data), 8)])
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", &stderr)
	}

	t.Setenv(cpuProfileEnv, filepath.Join(dir, "missing", "cpu.pprof"))
	t.Setenv(memProfileEnv, "")
	stderr.Reset()
	stop = startProfiles(env)
	if status := run(env, []string{"version"}); status != 0 {
		t.Fatalf("version with an unwritable profile: status %d", status)
	}
	stop()
	if !strings.Contains(stderr.String(), "$"+cpuProfileEnv+": ") {
		t.Errorf("stderr %q: want the variable named", &stderr)
	}
}
