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
// under the race detector (see raceEnabled). Otherwise it reports whether
// the range was marked.
func Reserve(size int) bool {
	if size <= 0 || raceEnabled || thpDisabledByGODEBUG(os.Getenv("GODEBUG")) {
		return false
	}
	policy, err := os.ReadFile(thpEnabled)
	if err != nil || !bytes.Contains(policy, []byte("[madvise]")) {
		return false
	}
	ok := mark(size)
	debug.FreeOSMemory() // the slice is unreachable: its pages go back
	return ok
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
