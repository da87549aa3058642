package main

import "github.com/bakefs/bakefs/internal/hugeheap"

// The spans of the heap's address space that a one-shot build marks for
// transparent huge pages (see hugeheap.Reserve): startHeapSpan when it
// starts, enough for a build the caches answer whole (a no-change build
// of a 1,200-file tree allocates about 15 MB), and workHeapSpan once a
// step runs, more than the largest build the bench measures (three.js
// ×10 peaks at about 450 MiB). A span costs the runtime's page metadata
// for it, about 1 MB a GiB written when it is reserved, so the large one
// waits for work that needs it.
const (
	startHeapSpan = 64 << 20
	workHeapSpan  = 1 << 30
)

// reserveHugeHeap marks the heap of a one-shot build (build, transform)
// for transparent huge pages before it reads anything, where the kernel
// gives them only on request. On this project's Linux machines a
// no-change build of a 1,200-file tree then takes about 1,300 page faults
// instead of 3,400, and a bundle of three.js ×10 about 6,000 instead of
// 111,000. GODEBUG=disablethp=1 turns it off; the dev server, which runs
// for hours, leaves its heap to the runtime.
func reserveHugeHeap() { hugeheap.Reserve(startHeapSpan) }

// reserveWorkHeap is the pipeline's BeforeWork of a one-shot build (and
// of build --check's clean build).
func reserveWorkHeap() { hugeheap.Reserve(workHeapSpan) }
