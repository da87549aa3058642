package pipeline

import "errors"

// ErrRefCycle reports files that refer to each other in a cycle, so that
// none of them can have a hashed name that covers the others' (see the
// rewrite pass, rewrite.go). The error text names the cycle,
// "a.css → b.css → a.css".
var ErrRefCycle = errors.New("pipeline: reference cycle")

// ErrCacheDamaged reports a cache entry whose stored bytes turned out
// missing or damaged when the tree was written. The entry is removed by
// then, so running the pipeline again makes those bytes anew.
var ErrCacheDamaged = errors.New("pipeline: damaged cache entry")

// ErrNoReader reports an output whose references the rewrite pass must
// read, when no reader of its kind of file is registered with package
// refs: the program links the engine without the readers (refsScanPackage).
var ErrNoReader = errors.New("pipeline: no reference reader")

// refsScanPackage is the package whose import registers the readers.
const refsScanPackage = "github.com/bakefs/bakefs/pipeline/refs/scan"
