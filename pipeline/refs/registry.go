package refs

import (
	"slices"
	"sync"
)

// A Reader returns the references in the bytes of one file, sorted by
// offset. It never fails: bytes it cannot read have no references.
type Reader func(data []byte) []Ref

// The readers the rewrite pass asks for, by the kind of file they read.
const (
	HTML        = "html"     // text/html, pages and Go templates
	CSS         = "css"      // text/css
	SVG         = "svg"      // image/svg+xml
	WebManifest = "manifest" // application/manifest+json, or JSON a page names as its manifest
	SourceMap   = "js"       // text/javascript: its trailing sourceMappingURL comment
)

var (
	readersMu sync.RWMutex
	readers   = make(map[string]Reader)
)

// Register makes r the reader of the kind of file named kind, usually
// from an init function. It panics if kind has a reader already.
func Register(kind string, r Reader) {
	readersMu.Lock()
	defer readersMu.Unlock()
	if _, dup := readers[kind]; dup {
		panic("refs: reader registered twice: " + kind)
	}
	readers[kind] = r
}

// ReaderOf returns the reader registered for kind.
func ReaderOf(kind string) (Reader, bool) {
	readersMu.RLock()
	defer readersMu.RUnlock()
	r, ok := readers[kind]
	return r, ok
}

// Kinds returns the kinds that have a reader, sorted.
func Kinds() []string {
	readersMu.RLock()
	defer readersMu.RUnlock()
	kinds := make([]string, 0, len(readers))
	for k := range readers {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
