package compress

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemBudget: requests that fit run together, one that does not waits
// for a release, one larger than the budget runs alone, and a wait ends
// with the context.
func TestMemBudget(t *testing.T) {
	ctx := context.Background()
	b := newMemBudget(100)
	if err := b.acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if err := b.acquire(ctx, 40); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- b.acquire(ctx, 30) }()
	select {
	case err := <-got:
		t.Fatalf("acquired past the budget (%v)", err)
	case <-time.After(20 * time.Millisecond):
	}
	b.release(40)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	b.release(60)
	b.release(30)

	if err := b.acquire(ctx, 500); err != nil {
		t.Fatalf("a request larger than the budget, alone: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { got <- b.acquire(cctx, 1) }()
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting with a cancelled context: %v", err)
	}
	b.release(500)
	if b.used != 0 {
		t.Fatalf("used %d after every release", b.used)
	}
}

func TestBrotliWindowFor(t *testing.T) {
	for _, tc := range []struct{ n, lgwin int }{
		{0, 10}, {1008, 10}, {1009, 11}, {100_000, 17}, {4<<20 - 16, 22}, {64 << 20, 22},
	} {
		if got := brotliWindowFor(tc.n); got != tc.lgwin {
			t.Errorf("brotliWindowFor(%d) = %d, want %d", tc.n, got, tc.lgwin)
		}
	}
}
