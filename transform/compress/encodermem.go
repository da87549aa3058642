package compress

import (
	"context"
	"math"
	"runtime/debug"
	"sync"
)

// The compressors at their best levels hold large tables while they run:
// Brotli at quality 10 and 11 about 24 to 34 bytes per byte of its window
// (see brotliWindowFor and brotliMemory), Zstandard at its best level 34 MiB of match tables and
// its 8 MiB window. As many of them as there are workers would make the
// memory of a build grow with the core count, so they draw on one budget
// instead: a third of the Go runtime's soft memory limit
// (debug.SetMemoryLimit, GOMEMLIMIT; bakefs build sets 192 MiB), read when
// the first of them starts. An encoder waits while the others running
// hold too much of it, and one larger than the whole budget runs alone.
// Without a memory limit there is no budget. The budget decides only when
// an encoder runs, never what it writes.

// encoderMemory is the budget of the process.
var encoderMemory = sync.OnceValue(func() *memBudget {
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		return nil
	}
	return newMemBudget(limit / 3)
})

// brotliMemory is what a Brotli encoder of quality and window lgwin is
// counted for: the large match finder of qualities 10 and 11, or nothing
// for the lower ones, whose tables are a few MiB at most. The figures are
// go-brrr's peak heap above its input, measured at windows 16 to 22: at
// quality 11 about 22 bytes per window byte (90 MiB at 4 MiB), at quality
// 10, which runs two worker goroutines when there are two processors,
// about 34 (136 MiB), each with a few MiB of fixed tables.
func brotliMemory(quality, lgwin int) int64 {
	switch {
	case quality < 10:
		return 0
	case quality == 10:
		return 34<<lgwin + 4<<20
	default:
		return 22<<lgwin + 4<<20
	}
}

// zstdBestMemory is what a Zstandard encoder at its best level is counted
// for: its match tables and window. The lower levels are not counted.
const zstdBestMemory = 42 << 20

// withEncoderMemory runs encode once the budget has n bytes for it, or at
// once when n is 0 or there is no budget. It returns ctx's error if ctx is
// done while it waits.
func withEncoderMemory[T any](ctx context.Context, n int64, encode func() (T, error)) (T, error) {
	b := encoderMemory()
	if n == 0 || b == nil {
		return encode()
	}
	if err := b.acquire(ctx, n); err != nil {
		var zero T
		return zero, err
	}
	defer b.release(n)
	return encode()
}

// A memBudget is a weighted semaphore over bytes of memory.
type memBudget struct {
	mu      sync.Mutex
	total   int64
	used    int64
	changed chan struct{} // closed when used goes down
}

func newMemBudget(total int64) *memBudget {
	return &memBudget{total: total, changed: make(chan struct{})}
}

// acquire takes n bytes of the budget, waiting until they are free; a
// request for more than the whole budget waits until nothing else holds
// any. It returns ctx's error, taking nothing, if ctx is done first.
func (b *memBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.used == 0 || b.used+n <= b.total {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		wait := b.changed
		b.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives back n bytes taken by acquire.
func (b *memBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}
