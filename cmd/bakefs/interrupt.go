package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// errInterrupted reports a build stopped by SIGINT or SIGTERM: exit status
// 130, one line, the previous outputs intact.
var errInterrupted = errors.New("interrupted")

// interruptGrace is how long an interrupted command waits for its work to
// stop by itself before it exits anyway. Most steps stop within it (they
// check for cancellation between chunks); a library call that cannot be
// interrupted (an image resize) is abandoned with the process, which is
// safe because nothing is written in place before the commit.
const interruptGrace = 400 * time.Millisecond

// A committer runs a commit (the renames that put a build's outputs in
// place) so that an interrupt never cuts it in half: an interrupt that
// arrives first keeps the commit from starting, one that arrives during
// the commit waits for its end.
type committer struct {
	ctx context.Context
	mu  sync.Mutex
}

// commit runs f unless the command was interrupted.
func (c *committer) commit(f func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx.Err() != nil {
		return errInterrupted
	}
	return f()
}

// interruptible runs work with a context that SIGINT and SIGTERM cancel. It
// returns work's result, or errInterrupted once work has not returned
// within interruptGrace of the signal (never during a commit).
func interruptible(work func(ctx context.Context, c *committer) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &committer{ctx: ctx}
	done := make(chan error, 1)
	go func() { done <- work(ctx, c) }()
	select {
	case err := <-done:
		if ctx.Err() != nil && err != nil {
			return errInterrupted
		}
		return err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		if err != nil {
			return errInterrupted
		}
		return nil
	case <-time.After(interruptGrace):
		c.mu.Lock() // wait for a commit in progress; none starts after this
		return errInterrupted
	}
}
