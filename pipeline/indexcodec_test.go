package pipeline

import (
	"math/rand"
	"os"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/bakefs/bakefs/transform"
)

// TestIndexCodecRoundTrip encodes random entry indexes, rewrite memos and
// file indexes, every field of every struct filled by testing/quick (so a field added
// to cacheEntry or scanRecord and not to the codec fails here), and
// checks that decoding gives them back exactly, nil and empty lists kept
// apart, and that the same value always gives the same bytes.
func TestIndexCodecRoundTrip(t *testing.T) {
	cfg := &quick.Config{MaxCount: 300, Rand: rand.New(rand.NewSource(1))}
	entries := func(m map[string]cacheEntry) bool {
		data := encodeIndex(entryIndexFormat, func(w *indexWriter) { writeMap(w, m, w.cacheEntry) })
		var got map[string]cacheEntry
		ok := decodeIndex(data, entryIndexFormat, func(r *indexReader) { got = readMap(r, r.cacheEntry) })
		again := encodeIndex(entryIndexFormat, func(w *indexWriter) { writeMap(w, m, w.cacheEntry) })
		return ok && reflect.DeepEqual(got, m) && string(again) == string(data)
	}
	if err := quick.Check(entries, cfg); err != nil {
		t.Error("entry index:", err)
	}
	memos := func(m map[string]*scanRecord) bool {
		data := encodeIndex(rewriteMemoFormat, func(w *indexWriter) { writeMap(w, m, w.scanRecord) })
		var got map[string]*scanRecord
		ok := decodeIndex(data, rewriteMemoFormat, func(r *indexReader) { got = readMap(r, r.scanRecord) })
		return ok && reflect.DeepEqual(got, m)
	}
	if err := quick.Check(memos, cfg); err != nil {
		t.Error("rewrite memo:", err)
	}
	stamps := func(m map[string]fileStamp) bool {
		data := encodeIndex(fileIndexFormat, func(w *indexWriter) { writeMap(w, m, w.fileStamp) })
		var got map[string]fileStamp
		ok := decodeIndex(data, fileIndexFormat, func(r *indexReader) { got = readMap(r, r.fileStamp) })
		return ok && reflect.DeepEqual(got, m)
	}
	if err := quick.Check(stamps, cfg); err != nil {
		t.Error("file index:", err)
	}
}

// TestIndexCodecDamage checks that every cut of an encoded index, every
// changed byte and another format line are reported as damage, never
// read as an index nor a panic.
func TestIndexCodecDamage(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	data := sampleEntryIndex()
	decode := func(b []byte) bool {
		return decodeIndex(b, entryIndexFormat, func(r *indexReader) { readMap(r, r.cacheEntry) })
	}
	if !decode(data) {
		t.Fatal("the whole index does not decode")
	}
	for n := range len(data) {
		if decode(data[:n]) {
			t.Fatalf("the first %d of %d bytes decode", n, len(data))
		}
	}
	for range 2000 {
		b := []byte(string(data))
		b[len(entryIndexFormat)+rnd.Intn(len(b)-len(entryIndexFormat))] ^= byte(1 + rnd.Intn(255))
		decode(b) // may decode (a changed byte of a string), must not panic
	}
	if decodeIndex(data, rewriteMemoFormat, func(r *indexReader) { readMap(r, r.scanRecord) }) {
		t.Error("an entry index decodes as a rewrite memo")
	}
}

// sampleEntryIndex is an encoded entry index in which every field of an
// entry is set.
func sampleEntryIndex() []byte {
	blob := blobRef{SHA256: "5e", Size: 300, Integrity: "sha384-x"}
	m := map[string]cacheEntry{
		"k1": {
			Deps: []cacheDep{{File: "js/a.ts", Rel: true, SHA256: "aa"}, {File: "/lib", Dir: true, SHA256: "bb"}},
			Outputs: []cacheOutput{{
				Path: "js/a.js", Source: "js/a.ts", Type: "text/javascript", Width: -1, Height: 1 << 40,
				Hashed: true, Fingerprinted: true,
				ModuleGraph: ModuleGraph{Imports: []string{"js/b.js"}, DynamicImports: []string{}, CSS: []string{"a.css"}},
				Blob:        blob, Encodings: []cacheEncoding{{Name: "br", Blob: blob}},
				Warnings: []*transform.SourceError{{File: "js/a.ts", Line: 3, Column: 9, Msg: "m", Warning: true}, nil},
			}},
		},
		"k2": {},
	}
	return encodeIndex(entryIndexFormat, func(w *indexWriter) { writeMap(w, m, w.cacheEntry) })
}

// FuzzIndexDecode decodes arbitrary bytes as an entry index, a rewrite
// memo and a file index: never a panic, and whatever decodes encodes to bytes that
// decode to the same value.
func FuzzIndexDecode(f *testing.F) {
	f.Add(sampleEntryIndex())
	f.Add(encodeIndex(rewriteMemoFormat, func(w *indexWriter) {
		writeMap(w, map[string]*scanRecord{"k": {Refs: []refNote{{Target: "a.css", URL: "./a.css", Kind: 2, At: 7}}, Targets: "t"}}, w.scanRecord)
	}))
	f.Add(encodeIndex(fileIndexFormat, func(w *indexWriter) {
		writeMap(w, map[string]fileStamp{"/src/a.css": {Size: 12, MTime: -1, SHA256: "ab"}}, w.fileStamp)
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		var entries map[string]cacheEntry
		if decodeIndex(data, entryIndexFormat, func(r *indexReader) { entries = readMap(r, r.cacheEntry) }) {
			again := encodeIndex(entryIndexFormat, func(w *indexWriter) { writeMap(w, entries, w.cacheEntry) })
			var back map[string]cacheEntry
			if !decodeIndex(again, entryIndexFormat, func(r *indexReader) { back = readMap(r, r.cacheEntry) }) || !reflect.DeepEqual(back, entries) {
				t.Fatalf("entry index %q: encoded again, it decodes to %v, not %v", data, back, entries)
			}
		}
		var stamps map[string]fileStamp
		if decodeIndex(data, fileIndexFormat, func(r *indexReader) { stamps = readMap(r, r.fileStamp) }) {
			again := encodeIndex(fileIndexFormat, func(w *indexWriter) { writeMap(w, stamps, w.fileStamp) })
			var back map[string]fileStamp
			if !decodeIndex(again, fileIndexFormat, func(r *indexReader) { back = readMap(r, r.fileStamp) }) || !reflect.DeepEqual(back, stamps) {
				t.Fatalf("file index %q: encoded again, it decodes to %v, not %v", data, back, stamps)
			}
		}
		var memo map[string]*scanRecord
		if decodeIndex(data, rewriteMemoFormat, func(r *indexReader) { memo = readMap(r, r.scanRecord) }) {
			again := encodeIndex(rewriteMemoFormat, func(w *indexWriter) { writeMap(w, memo, w.scanRecord) })
			var back map[string]*scanRecord
			if !decodeIndex(again, rewriteMemoFormat, func(r *indexReader) { back = readMap(r, r.scanRecord) }) || !reflect.DeepEqual(back, memo) {
				t.Fatalf("rewrite memo %q: encoded again, it decodes to %v, not %v", data, back, memo)
			}
		}
	})
}

// readFileIndex returns the stamps of a file index that a run wrote.
func readFileIndex(t *testing.T, file string) map[string]fileStamp {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var stamps map[string]fileStamp
	if !decodeIndex(data, fileIndexFormat, func(r *indexReader) { stamps = readMap(r, r.fileStamp) }) {
		t.Fatalf("%s is not a file index", file)
	}
	return stamps
}
