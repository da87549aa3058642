// Package remote speaks to a build cache shared between machines, the
// remote cache of the build engine: the Store interface, a client of
// Bazel's HTTP protocol (HTTPStore), and the ActionResult message under
// which entries are kept in the action cache, so that the servers that
// Bazel uses (nginx with WebDAV, bazel-remote, BuildBuddy) serve bakefs
// too. It imports the standard library only.
package remote

import (
	"context"
	"errors"
)

// A Store is the storage behind the build engine's remote cache: two key-value spaces,
// the action cache (AC: a job's key to what it made) and the content
// store (CAS: bytes under their SHA-256), as in Bazel's remote cache.
// HTTPStore speaks Bazel's HTTP protocol; any other store works as long as
// its methods are safe for concurrent use.
type Store interface {
	// Get returns the bytes stored under kind and hash, a lowercase hex
	// SHA-256, or an error wrapping ErrMiss when there are none. Any
	// other error is a failure of the store.
	Get(ctx context.Context, kind Kind, hash string) ([]byte, error)
	// Put stores data under kind and hash, replacing what was there.
	Put(ctx context.Context, kind Kind, hash string, data []byte) error
}

// A Kind names one of a Store's two spaces; its value is the
// first element of the URL path in Bazel's HTTP protocol.
type Kind string

const (
	AC  Kind = "ac"  // action cache: job key → ActionResult
	CAS Kind = "cas" // content store: SHA-256 → bytes
)

// ErrMiss reports a key that a Store does not hold.
var ErrMiss = errors.New("remote: not in the remote cache")
