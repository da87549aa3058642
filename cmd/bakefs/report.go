package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bakefs/bakefs/internal/report"
	"github.com/bakefs/bakefs/pipeline"
)

// runPipeline runs jobs and prepares the output tree out, uncommitted,
// with progress on a terminal. Cancelling ctx cancels the steps. When the
// cache turns out damaged while the tree is written (the damaged entries
// are then gone), it runs once more.
func runPipeline(ctx context.Context, env *environment, p *pipeline.Pipeline, jobs []*pipeline.Job, out string) (*pipeline.Result, *pipeline.TreeUpdate, error) {
	res, tree, err := runPipelineOnce(ctx, env, p, jobs, out)
	if errors.Is(err, pipeline.ErrCacheDamaged) {
		fmt.Fprintf(env.stderr, "bakefs: %v; running the affected steps again\n", err)
		res, tree, err = runPipelineOnce(ctx, env, p, jobs, out)
	}
	return res, tree, err
}

func runPipelineOnce(ctx context.Context, env *environment, p *pipeline.Pipeline, jobs []*pipeline.Job, out string) (*pipeline.Result, *pipeline.TreeUpdate, error) {
	relaxGC()
	p.BeforeWork = reserveWorkHeap
	if env.interactive {
		p.Progress = progressPrinter(env)
	}
	res, err := p.Run(ctx, jobs)
	if env.interactive {
		fmt.Fprint(env.stderr, "\r\033[K")
	}
	if err != nil {
		return nil, nil, err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.stderr, "bakefs: %v\n", w)
	}
	for _, e := range res.Explanations {
		fmt.Fprintf(env.stderr, "bakefs: ran %v\n", e)
	}
	tree, err := res.PrepareTree(out)
	if err != nil {
		return nil, nil, fmt.Errorf("writing %s: %w", out, err)
	}
	return res, tree, nil
}

// printSummary prints the one line that ends a build: what it made, what
// ran, what came from the cache (and, with a remote cache, how much of it
// from there), and the wall time of the whole command.
func printSummary(env *environment, res *pipeline.Result, remote bool, changed bool, out string, elapsed time.Duration) {
	verb := "wrote"
	if !changed {
		verb = "unchanged"
	}
	fmt.Fprintf(env.stderr, "bakefs: %s, %s %s in %s\n", report.Summary(res.Stats, remote), verb, displayPath(out), elapsed.Round(time.Millisecond))
}

// progressPrinter redraws one status line at most ten times a second.
func progressPrinter(env *environment) func(pipeline.Progress) {
	var mu sync.Mutex
	var last time.Time
	return func(p pipeline.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Done < p.Total && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(env.stderr, "\r\033[K[%d/%d] %s", p.Done, p.Total, p.Path)
	}
}

// displayPath shortens a path to one relative to the working directory when
// it is below it.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
