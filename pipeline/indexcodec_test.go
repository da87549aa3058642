package pipeline

import (
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/bakefs/bakefs/internal/streamfile"
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
		data := encodeIndex(entryIndexFormat, m, (*indexWriter).cacheEntry)
		got, ok := decodeIndex(string(data), entryIndexFormat, (*indexReader).cacheEntry)
		again := encodeIndex(entryIndexFormat, m, (*indexWriter).cacheEntry)
		return ok && reflect.DeepEqual(got, m) && string(again) == string(data)
	}
	if err := quick.Check(entries, cfg); err != nil {
		t.Error("entry index:", err)
	}
	memos := func(m map[string]*scanRecord) bool {
		data := encodeIndex(rewriteMemoFormat, m, (*indexWriter).scanRecord)
		got, ok := decodeIndex(string(data), rewriteMemoFormat, (*indexReader).scanRecord)
		return ok && reflect.DeepEqual(got, m)
	}
	if err := quick.Check(memos, cfg); err != nil {
		t.Error("rewrite memo:", err)
	}
	stamps := func(m map[string]fileStamp) bool {
		data := encodeIndex(fileIndexFormat, m, (*indexWriter).fileStamp)
		got, ok := decodeIndex(string(data), fileIndexFormat, (*indexReader).fileStamp)
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
		_, ok := decodeIndex(string(b), entryIndexFormat, (*indexReader).cacheEntry)
		return ok
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
	if _, ok := decodeIndex(string(data), rewriteMemoFormat, (*indexReader).scanRecord); ok {
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
	return encodeIndex(entryIndexFormat, m, (*indexWriter).cacheEntry)
}

// FuzzIndexDecode decodes arbitrary bytes as an entry index, a rewrite
// memo and a file index: never a panic, and whatever decodes encodes to bytes that
// decode to the same value.
func FuzzIndexDecode(f *testing.F) {
	f.Add(sampleEntryIndex())
	f.Add(encodeIndex(rewriteMemoFormat, map[string]*scanRecord{"k": {Refs: []refNote{{Target: "a.css", URL: "./a.css", Kind: 2, At: 7}}, Targets: "t"}}, (*indexWriter).scanRecord))
	f.Add(encodeIndex(fileIndexFormat, map[string]fileStamp{"/src/a.css": {Size: 12, MTime: -1, SHA256: "ab"}}, (*indexWriter).fileStamp))
	f.Fuzz(func(t *testing.T, data []byte) {
		reencodes(t, data, entryIndexFormat, (*indexReader).cacheEntry, (*indexWriter).cacheEntry)
		reencodes(t, data, fileIndexFormat, (*indexReader).fileStamp, (*indexWriter).fileStamp)
		reencodes(t, data, rewriteMemoFormat, (*indexReader).scanRecord, (*indexWriter).scanRecord)
	})
}

// reencodes checks that data, when it decodes as an index of format,
// encodes to bytes that decode to the same value.
func reencodes[V any](t *testing.T, data []byte, format string, read func(*indexReader) V, write func(*indexWriter, V)) {
	m, ok := decodeIndex(string(data), format, read)
	if !ok {
		return
	}
	back, ok := decodeIndex(string(encodeIndex(format, m, write)), format, read)
	if !ok || !reflect.DeepEqual(back, m) {
		t.Fatalf("%q: encoded again, it decodes to %v, not %v", data, back, m)
	}
}

// readFileIndex returns the stamps of a file index that a run wrote.
func readFileIndex(t *testing.T, file string) map[string]fileStamp {
	t.Helper()
	data, err := streamfile.ReadString(file)
	if err != nil {
		t.Fatal(err)
	}
	stamps, ok := decodeIndex(data, fileIndexFormat, (*indexReader).fileStamp)
	if !ok {
		t.Fatalf("%s is not a file index", file)
	}
	return stamps
}
