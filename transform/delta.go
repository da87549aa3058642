package transform

import (
	"context"
	"sync"
)

// A DeltaEncoder writes a file as a delta against an earlier version of
// it, a content coding of Compression Dictionary Transport (RFC 9842). The
// step family that has the codec registers it, so that the engine makes
// deltas without linking a compression library itself.
type DeltaEncoder struct {
	Name          string // the content coding, "dcz"
	Version       string // changes whenever the bytes for the same two files change; part of the cache key
	MaxDictionary int    // the largest dictionary Encode takes
	// Encode returns data as a delta against dict, or ctx's error.
	Encode func(ctx context.Context, data, dict []byte) ([]byte, error)
}

var (
	deltaMu       sync.RWMutex
	deltaEncoders = make(map[string]DeltaEncoder)
)

// RegisterDeltaEncoder adds e under e.Name, usually from an init
// function. It panics if the name is taken.
func RegisterDeltaEncoder(e DeltaEncoder) {
	deltaMu.Lock()
	defer deltaMu.Unlock()
	if _, dup := deltaEncoders[e.Name]; dup {
		panic("transform: delta encoder registered twice: " + e.Name)
	}
	deltaEncoders[e.Name] = e
}

// LookupDeltaEncoder returns the delta encoder registered under name.
func LookupDeltaEncoder(name string) (DeltaEncoder, bool) {
	deltaMu.RLock()
	defer deltaMu.RUnlock()
	e, ok := deltaEncoders[name]
	return e, ok
}
