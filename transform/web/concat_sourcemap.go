package web

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A lineMap builds the source map of joined files: every line of a part
// maps, from its first column, to the same line of the part. Lines that
// come from no part (a banner) map to nothing.
type lineMap struct {
	sources, contents []string
	mappings          strings.Builder
	// The previous segment's source index and source line, which each
	// segment is relative to.
	prevSource, prevLine int
}

func newLineMap() *lineMap { return &lineMap{} }

// skipLines adds n generated lines that map to nothing.
func (m *lineMap) skipLines(n int) {
	for range n {
		m.endLine()
	}
}

// addSource adds the lines of one part, named name in the map.
func (m *lineMap) addSource(name string, data []byte) {
	index := len(m.sources)
	m.sources = append(m.sources, name)
	m.contents = append(m.contents, string(data))
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	for line := range n {
		var seg []byte
		seg = appendVLQ(seg, 0) // generated column
		seg = appendVLQ(seg, index-m.prevSource)
		seg = appendVLQ(seg, line-m.prevLine)
		seg = appendVLQ(seg, 0) // source column
		m.prevSource, m.prevLine = index, line
		m.mappings.Write(seg)
		m.endLine()
	}
}

func (m *lineMap) endLine() {
	m.mappings.WriteByte(';')
}

// json returns the map, version 3, for the generated file named file.
func (m *lineMap) json(file string) []byte {
	data, err := json.Marshal(struct {
		Version        int      `json:"version"`
		File           string   `json:"file"`
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
		Names          []string `json:"names"`
		Mappings       string   `json:"mappings"`
	}{3, file, m.sources, m.contents, []string{}, strings.TrimRight(m.mappings.String(), ";")})
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	return append(data, '\n')
}

// appendVLQ appends v in the base64 variable-length quantity of source
// maps: the sign in the lowest bit, five bits a digit, least significant
// first.
func appendVLQ(dst []byte, v int) []byte {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	u := v << 1
	if v < 0 {
		u = -v<<1 | 1
	}
	for {
		d := u & 31
		u >>= 5
		if u > 0 {
			d |= 32
		}
		dst = append(dst, digits[d])
		if u == 0 {
			return dst
		}
	}
}
