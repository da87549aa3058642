package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// The profiles of a run, for finding where a build spends its time and
// memory (bench/suite prints their top lines): with BAKEFS_CPUPROFILE set
// to a file name, the command writes a CPU profile of its whole run there;
// with BAKEFS_MEMPROFILE, a heap profile taken when it ends (its
// alloc_space sample says where the run allocated). Read them with
// `go tool pprof -top FILE`.
const (
	cpuProfileEnv = "BAKEFS_CPUPROFILE"
	memProfileEnv = "BAKEFS_MEMPROFILE"
)

// startProfiles starts the profiles the environment asks for and returns
// the function that writes them, to be called when the command ends.
// Failing to write a profile is reported on stderr and does not change
// the command's exit status.
func startProfiles(env *environment) (stop func()) {
	cpu, mem := os.Getenv(cpuProfileEnv), os.Getenv(memProfileEnv)
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "bakefs: $%s: %v\n", cpuProfileEnv, err)
		} else {
			cpuFile = f
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				fmt.Fprintf(env.stderr, "bakefs: $%s: %v\n", cpuProfileEnv, err)
			}
		}
		if mem != "" {
			runtime.GC() // the heap profile shows the last collection's state
			if err := writeHeapProfile(mem); err != nil {
				fmt.Fprintf(env.stderr, "bakefs: $%s: %v\n", memProfileEnv, err)
			}
		}
	}
}

// writeHeapProfile writes the heap profile to the file name.
func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
