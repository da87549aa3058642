package hugeheap

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestReserveMarksTheHeap(t *testing.T) {
	if raceEnabled {
		t.Skip("Reserve does nothing under the race detector")
	}
	policy, err := os.ReadFile(thpEnabled)
	if err != nil || !bytes.Contains(policy, []byte("[madvise]")) {
		t.Skipf("the kernel's huge page policy is not madvise (%q, %v): Reserve does nothing", policy, err)
	}
	t.Setenv("GODEBUG", "")
	before := markedBytes(t)
	const size = 64 << 20
	if !Reserve(size) {
		t.Fatal("Reserve reported false under the madvise policy")
	}
	// The marked span is the slice's pages, 8 KiB-aligned by the runtime;
	// the kernel keeps the mark on every page of the range.
	if got := markedBytes(t) - before; got < size {
		t.Fatalf("after Reserve(%d), %d more bytes of the address space are marked for huge pages", size, got)
	}
	// The runtime reuses the marked range: a fresh allocation of half its
	// size lands in a marked mapping.
	b := make([]byte, size/2)
	if !inMarkedMapping(t, &b[0]) {
		t.Error("an allocation after Reserve is not in a mapping marked for huge pages")
	}
}

func TestReserveRespectsGODEBUG(t *testing.T) {
	t.Setenv("GODEBUG", "madvdontneed=1,disablethp=1")
	if Reserve(8 << 20) {
		t.Error("Reserve marked the heap with GODEBUG=disablethp=1")
	}
}

func TestThpDisabledByGODEBUG(t *testing.T) {
	for godebug, want := range map[string]bool{
		"":                          false,
		"disablethp=1":              true,
		"disablethp=0":              false,
		"gctrace=1, disablethp=1":   true,
		"disablethp=1,disablethp=0": false,
		"xdisablethp=1":             false,
		"disablethp":                false,
	} {
		if got := thpDisabledByGODEBUG(godebug); got != want {
			t.Errorf("thpDisabledByGODEBUG(%q) = %v, want %v", godebug, got, want)
		}
	}
}

func TestBoundedSpan(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		size       int
		ram        uint64
		overcommit string
		want       int
	}{
		{gib, 24 * gib, "0\n", gib},
		{gib, 24 * gib, "1\n", gib},
		{gib, 24 * gib, "2\n", 0},
		{gib, 1 * gib, "0\n", gib / 2},
		{64 << 20, 512 << 20, "", 64 << 20},
	} {
		if got := boundedSpan(c.size, c.ram, c.overcommit); got != c.want {
			t.Errorf("boundedSpan(%d, %d, %q) = %d, want %d", c.size, c.ram, c.overcommit, got, c.want)
		}
	}
}

// mapping is one mapping of /proc/self/smaps: its range and whether its
// VmFlags hold hg (MADV_HUGEPAGE).
type mapping struct {
	start, end uint64
	marked     bool
}

func mappings(t *testing.T) []mapping {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var ms []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(ms) > 0 {
			ms[len(ms)-1].marked = strings.Contains(" "+flags+" ", " hg ")
			continue
		}
		addrs, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(addrs, "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			ms = append(ms, mapping{start: start, end: end})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ms
}

func markedBytes(t *testing.T) uint64 {
	var n uint64
	for _, m := range mappings(t) {
		if m.marked {
			n += m.end - m.start
		}
	}
	return n
}

func inMarkedMapping(t *testing.T, p *byte) bool {
	addr := uint64(uintptr(unsafe.Pointer(p)))
	for _, m := range mappings(t) {
		if m.start <= addr && addr < m.end {
			return m.marked
		}
	}
	return false
}
