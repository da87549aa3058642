package pipeline

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/pipeline/refs"
	"github.com/bakefs/bakefs/transform"
)

// The file index, the entry index and the rewrite memo are read by every
// build, one with nothing changed included, so they are written in a
// binary form of their own rather than as JSON or gobs, whose decoding by
// reflection was a seventh of the CPU of a no-change build of bench/gen's
// 1,000 files. After the format line, a file is one map, written as
// encoding/binary's varints: an integer or a bool as one, a string as its
// length then its bytes, a list, a map or a pointer as its length plus one
// (0 for nil), then its elements; the map's keys are in order, so that the
// same index gives the same bytes. The decoder reads varints from a string
// (as binary.Uvarint does from bytes) and takes every string as a slice of
// the file, read once into a string (streamfile.ReadString), so that decoding
// allocates per list, not per string.

// errIndexDamaged is what a reader of a damaged index file reports.
var errIndexDamaged = errors.New("damaged index file")

// An indexWriter appends values to b.
type indexWriter struct{ b []byte }

func (w *indexWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

func (w *indexWriter) int(v int64) { w.b = binary.AppendVarint(w.b, v) }

func (w *indexWriter) bool(v bool) {
	if v {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *indexWriter) string(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// count writes the length of a list, map or pointer: n+1, or 0 when nil.
func (w *indexWriter) count(n int, isNil bool) {
	if isNil {
		w.uint(0)
	} else {
		w.uint(uint64(n) + 1)
	}
}

func (w *indexWriter) strings(list []string) {
	w.count(len(list), list == nil)
	for _, s := range list {
		w.string(s)
	}
}

// An indexReader reads the values an indexWriter wrote from s. The first
// malformed value sets err; every read after it returns zero values.
type indexReader struct {
	s   string
	err error
}

func (r *indexReader) fail() { r.s, r.err = "", errIndexDamaged }

func (r *indexReader) uint() uint64 {
	var v uint64
	for i := 0; i < len(r.s) && i < 10; i++ {
		c := r.s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			r.s = r.s[i+1:]
			return v
		}
	}
	r.fail()
	return 0
}

func (r *indexReader) int() int64 {
	u := r.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (r *indexReader) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail()
	return false
}

func (r *indexReader) string() string {
	n := r.uint()
	if n > uint64(len(r.s)) {
		r.fail()
		return ""
	}
	s := r.s[:n]
	r.s = r.s[n:]
	return s
}

// count reads a length that count wrote: -1 for nil. A length larger than
// the bytes left (each element takes one at least) is damage, so that
// what a damaged file makes a reader allocate is bounded by its size.
func (r *indexReader) count() int {
	n := r.uint()
	switch {
	case n == 0:
		return -1
	case n-1 > uint64(len(r.s)):
		r.fail()
		return -1
	}
	return int(n - 1)
}

func (r *indexReader) strings() []string {
	n := r.count()
	if n < 0 {
		return nil
	}
	list := make([]string, n)
	for i := range list {
		list[i] = r.string()
	}
	return list
}

// readList reads a list that the writer wrote with count and one value
// per element.
func readList[T any](r *indexReader, read func() T) []T {
	n := r.count()
	if n < 0 {
		return nil
	}
	list := make([]T, n)
	for i := range list {
		list[i] = read()
	}
	return list
}

// encodeIndex returns the format line followed by m: its length, then
// its keys in order, each followed by its value as write writes it.
func encodeIndex[V any](format string, m map[string]V, write func(*indexWriter, V)) []byte {
	w := &indexWriter{b: append(make([]byte, 0, 64<<10), format...)}
	w.count(len(m), m == nil)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		w.string(k)
		write(w, m[k])
	}
	return w.b
}

// decodeIndex reads from data, which must start with the format line, the
// map that encodeIndex wrote, each value with read. ok reports whether all
// of data was read without damage; m is nil when it is not.
func decodeIndex[V any](data, format string, read func(*indexReader) V) (m map[string]V, ok bool) {
	if !strings.HasPrefix(data, format) {
		return nil, false
	}
	r := &indexReader{s: data[len(format):]}
	if n := r.count(); n >= 0 {
		m = make(map[string]V, n)
		for range n {
			k := r.string()
			m[k] = read(r)
		}
	}
	if r.err != nil || r.s != "" {
		return nil, false
	}
	return m, true
}

func (w *indexWriter) cacheEntry(e cacheEntry) {
	w.count(len(e.Deps), e.Deps == nil)
	for _, d := range e.Deps {
		w.string(d.File)
		w.bool(d.Rel)
		w.bool(d.Dir)
		w.string(d.SHA256)
	}
	w.count(len(e.Outputs), e.Outputs == nil)
	for i := range e.Outputs {
		w.cacheOutput(&e.Outputs[i])
	}
}

func (r *indexReader) cacheEntry() cacheEntry {
	return cacheEntry{
		Deps: readList(r, func() cacheDep {
			return cacheDep{File: r.string(), Rel: r.bool(), Dir: r.bool(), SHA256: r.string()}
		}),
		Outputs: readList(r, r.cacheOutput),
	}
}

func (w *indexWriter) cacheOutput(o *cacheOutput) {
	w.string(o.Path)
	w.string(o.Source)
	w.string(o.Type)
	w.int(int64(o.Width))
	w.int(int64(o.Height))
	w.bool(o.Hashed)
	w.bool(o.Fingerprinted)
	w.strings(o.Imports)
	w.strings(o.DynamicImports)
	w.strings(o.CSS)
	w.blobRef(o.Blob)
	w.count(len(o.Encodings), o.Encodings == nil)
	for _, e := range o.Encodings {
		w.string(e.Name)
		w.blobRef(e.Blob)
	}
	w.count(len(o.Warnings), o.Warnings == nil)
	for _, e := range o.Warnings {
		w.count(0, e == nil)
		if e != nil {
			w.string(e.File)
			w.int(int64(e.Line))
			w.int(int64(e.Column))
			w.string(e.Msg)
			w.bool(e.Warning)
		}
	}
}

func (r *indexReader) cacheOutput() cacheOutput {
	o := cacheOutput{
		Path: r.string(), Source: r.string(), Type: r.string(),
		Width: int(r.int()), Height: int(r.int()),
		Hashed: r.bool(), Fingerprinted: r.bool(),
	}
	o.Imports, o.DynamicImports, o.CSS = r.strings(), r.strings(), r.strings()
	o.Blob = r.blobRef()
	o.Encodings = readList(r, func() cacheEncoding { return cacheEncoding{Name: r.string(), Blob: r.blobRef()} })
	o.Warnings = readList(r, func() *transform.SourceError {
		if r.count() < 0 {
			return nil
		}
		return &transform.SourceError{File: r.string(), Line: int(r.int()), Column: int(r.int()), Msg: r.string(), Warning: r.bool()}
	})
	return o
}

func (w *indexWriter) blobRef(b blobRef) {
	w.string(b.SHA256)
	w.int(b.Size)
	w.string(b.Integrity)
}

func (r *indexReader) blobRef() blobRef {
	return blobRef{SHA256: r.string(), Size: r.int(), Integrity: r.string()}
}

func (w *indexWriter) fileStamp(s fileStamp) {
	w.int(s.Size)
	w.int(s.MTime)
	w.string(s.SHA256)
}

func (r *indexReader) fileStamp() fileStamp {
	return fileStamp{Size: r.int(), MTime: r.int(), SHA256: r.string()}
}

func (w *indexWriter) scanRecord(s *scanRecord) {
	w.count(0, s == nil)
	if s == nil {
		return
	}
	w.count(len(s.Refs), s.Refs == nil)
	for _, n := range s.Refs {
		w.string(n.Target)
		w.string(n.URL)
		w.uint(uint64(n.Kind))
		w.int(int64(n.At))
	}
	w.string(s.Targets)
	w.blobRef(s.Result)
}

func (r *indexReader) scanRecord() *scanRecord {
	if r.count() < 0 {
		return nil
	}
	return &scanRecord{
		Refs: readList(r, func() refNote {
			n := refNote{Target: r.string(), URL: r.string()}
			if k := r.uint(); k <= 0xff {
				n.Kind = refs.Kind(k)
			} else {
				r.fail()
			}
			n.At = int(r.int())
			return n
		}),
		Targets: r.string(),
		Result:  r.blobRef(),
	}
}
