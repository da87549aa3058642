// Package hugeheap asks the kernel to back the heap of a short-lived Go
// process with transparent huge pages.
//
// Where the kernel gives huge pages only to memory that asks for them
// (Linux's transparent_hugepage set to "madvise", as several
// distributions' kernels are), the Go runtime does not ask, so every
// 4 KiB page of the heap costs a page fault the first time it is
// written: thousands in a build that allocates tens of megabytes, and on
// a virtual machine each fault can cost several microseconds. Reserve
// makes a span of the heap's address space ask for huge pages, so that
// the allocations that reuse it fault once per 2 MiB instead.
package hugeheap
