// Package pipeline is the build engine of bakefs: it runs jobs (a source
// file and the chain of steps to run on it) in parallel, with a cache, and
// gathers what they make into an output tree and its manifest.
//
//	res, err := (&pipeline.Pipeline{Root: "web", Cache: &pipeline.Cache{Dir: ".bakefs-cache"}}).Run(ctx, jobs)
//	…
//	changed, err := res.WriteTree("build/assets")
//
// Between a job's content steps and its finishing steps (compression,
// hash), the rewrite pass (rewrite.go) gives the references between the
// files of the tree the hashed names of their targets; the readers that
// find references are registered by package refs/scan. The cache keeps
// entries keyed by every input that could change the bytes (cache.go,
// fileindex.go, entryindex.go), is pruned by size (cacheprune.go), may sit
// in front of a remote cache shared between machines (remotecache.go,
// over package remote), and remembers a watching caller's last run in
// memory (incremental.go). Trees are written as one transaction
// (tree.go).
//
// The engine links no step: a program registers the steps it wants
// (transform/steps for all of them) and the reference readers:
//
//	import (
//		_ "github.com/bakefs/bakefs/pipeline/refs/scan"
//		_ "github.com/bakefs/bakefs/transform/steps"
//	)
package pipeline
