package pipeline

import (
	"bytes"
	"encoding/gob"
)

// The cache's index files are a format line, which names the file's kind
// and version, then their values: one gob for the job records, which only
// a build that runs jobs reads, and the binary form of indexcodec.go for
// the file index, the entry index and the rewrite memo, which every build
// reads.

// encodeIndexFile returns the format line followed by the gob of v.
func encodeIndexFile(format string, v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(format)
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeIndexFile decodes into v the gob after the format line at the
// start of data. It reports false for data of another format or that does
// not decode, after which v may hold part of it.
func decodeIndexFile(data []byte, format string, v any) bool {
	return bytes.HasPrefix(data, []byte(format)) &&
		gob.NewDecoder(bytes.NewReader(data[len(format):])).Decode(v) == nil
}
