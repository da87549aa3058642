package hugeheap

import (
	"bytes"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/sys/unix"
)

// thpEnabled is the kernel's transparent huge page policy.
const thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"

// Reserve makes the next size bytes of the heap's address space ask for
// transparent huge pages: it allocates a slice of that size, which the
// runtime maps without touching, marks it with madvise(MADV_HUGEPAGE),
// and gives it back to the runtime (a collection, then the pages returned
// to the system), so that the allocations that follow reuse the marked
// range. The mark is on the range, not on the slice: it lasts for the
// process, which is why this is for short-lived processes only (a long
// one's heap is better left to the runtime's own policy).
//
// Reserve does nothing, and reports false, where it would not help or is
// not wanted: when the kernel's policy is not "madvise" ("always" backs
// the heap with huge pages already, "never" refuses them), when GODEBUG
// holds disablethp=1 (the runtime's own switch against huge pages), and
// under the race detector (see raceEnabled). The span is bounded by the
// machine's memory (see boundedSpan). Otherwise it reports whether the
// range was marked.
func Reserve(size int) bool {
	if size <= 0 || raceEnabled || thpDisabledByGODEBUG(os.Getenv("GODEBUG")) {
		return false
	}
	policy, err := os.ReadFile(thpEnabled)
	if err != nil || !bytes.Contains(policy, []byte("[madvise]")) {
		return false
	}
	overcommit, _ := os.ReadFile(overcommitMode)
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) != nil {
		return false
	}
	if size = boundedSpan(size, uint64(info.Totalram)*uint64(info.Unit), string(overcommit)); size == 0 {
		return false
	}
	ok := mark(size)
	debug.FreeOSMemory() // the slice is unreachable: its pages go back
	return ok
}

// overcommitMode is the kernel's policy for mappings beyond the memory
// there is.
const overcommitMode = "/proc/sys/vm/overcommit_memory"

// boundedSpan is the part of a span of size bytes that Reserve may map on
// a machine of ram bytes under the overcommit mode: none under strict
// accounting ("2"), where a mapping counts against the commit limit
// whether it is touched or not, and at most half the memory otherwise,
// which the kernel's heuristic accepts however little of it is free (a
// refused mapping would stop the runtime, not fail an allocation).
func boundedSpan(size int, ram uint64, overcommit string) int {
	if strings.TrimSpace(overcommit) == "2" {
		return 0
	}
	return int(min(uint64(size), ram/2))
}

// mark allocates a slice of size bytes and marks its pages for huge pages.
func mark(size int) bool {
	return unix.Madvise(make([]byte, size), unix.MADV_HUGEPAGE) == nil
}

// thpDisabledByGODEBUG reports whether a GODEBUG value sets disablethp=1.
// The last setting of a name wins, as in the runtime.
func thpDisabledByGODEBUG(godebug string) bool {
	disabled := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == "disablethp" {
			disabled = v == "1"
		}
	}
	return disabled
}
