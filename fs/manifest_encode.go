package fs

import (
	"strconv"
	"unicode/utf8"
)

// EncodeManifest returns the canonical JSON form of a valid manifest, the
// bytes of bakefs-manifest.json: two-space indentation, fields in
// declaration order, a final newline — what encoding/json writes with
// HTML escaping off. An invalid manifest is the error of Validate.
func EncodeManifest(m *Manifest) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return appendManifest(make([]byte, 0, entryBytesHint*(len(m.Files)+1)), m), nil
}

// entryBytesHint is what the buffer of EncodeManifest starts with per
// entry: more than an entry with a Brotli and a gzip variant takes (664
// bytes on average, 939 at most, in bench/gen's tree of 718 files), so
// that the buffer is allocated once; growing it from a smaller guess
// copied it twice.
const entryBytesHint = 1024

// appendManifest appends the canonical JSON form of m: the bytes that
// encoding/json gives with two-space indentation and HTML escaping off,
// written directly because a build with nothing changed encodes the
// manifest to compare it with the previous one, and reflection made that
// the largest part of such a build. TestMarshalMatchesEncodingJSON and
// FuzzMarshalMatchesEncodingJSON hold it to encoding/json's output.
func appendManifest(b []byte, m *Manifest) []byte {
	b = append(b, "{\n  \"version\": "...)
	b = strconv.AppendInt(b, int64(m.Version), 10)
	b = append(b, ",\n  \"files\": "...)
	switch {
	case m.Files == nil:
		b = append(b, "null"...)
	case len(m.Files) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, "[\n"...)
		for i := range m.Files {
			if i > 0 {
				b = append(b, ",\n"...)
			}
			b = appendEntry(b, &m.Files[i])
		}
		b = append(b, "\n  ]"...)
	}
	return append(b, "\n}\n"...)
}

func appendEntry(b []byte, e *Entry) []byte {
	const in = "      "
	b = append(b, "    {\n"...)
	b = appendField(b, in, "path", e.Path)
	if e.Source != "" {
		b = appendField(b, in, "source", e.Source)
	}
	b = appendNumber(b, in, "size", e.Size)
	b = appendField(b, in, "type", e.Type)
	b = appendField(b, in, "sha256", e.SHA256)
	if e.Hashed != "" {
		b = appendField(b, in, "hashed", e.Hashed)
	}
	if e.Fingerprinted {
		b = append(b, in+"\"fingerprinted\": true,\n"...)
	}
	b = appendField(b, in, "integrity", e.Integrity)
	if e.Width != 0 {
		b = appendNumber(b, in, "width", int64(e.Width))
	}
	if e.Height != 0 {
		b = appendNumber(b, in, "height", int64(e.Height))
	}
	b = appendFiles(b, "encodings", "name", len(e.Encodings), func(i int) (string, string, int64, string) {
		enc := &e.Encodings[i]
		return enc.Name, enc.Path, enc.Size, enc.SHA256
	})
	b = appendList(b, in, "imports", e.Imports)
	b = appendList(b, in, "dynamicImports", e.DynamicImports)
	b = appendList(b, in, "css", e.CSS)
	b = appendFiles(b, "deltas", "dictionary", len(e.Deltas), func(i int) (string, string, int64, string) {
		d := &e.Deltas[i]
		return d.Dictionary, d.Path, d.Size, d.SHA256
	})
	if e.Previous != "" {
		b = appendField(b, in, "previous", e.Previous)
	}
	if e.Release != 0 {
		b = appendNumber(b, in, "release", int64(e.Release))
	}
	b = trimComma(b)
	return append(b, "    }"...)
}

// appendFiles appends the list key of an entry, `"key": [`, n objects of
// the fields first (named firstKey), path, size and sha256 that file(i)
// gives, and `],` with a newline (the shape of encodings and deltas);
// nothing when n is 0 (omitempty).
func appendFiles(b []byte, key, firstKey string, n int, file func(i int) (first, path string, size int64, sha256 string)) []byte {
	if n == 0 {
		return b
	}
	const in, in2 = "      ", "          "
	b = appendKey(b, in, key)
	b = append(b, "[\n"...)
	for i := range n {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		first, path, size, sum := file(i)
		b = append(b, "        {\n"...)
		b = appendField(b, in2, firstKey, first)
		b = appendField(b, in2, "path", path)
		b = appendNumber(b, in2, "size", size)
		b = appendField(b, in2, "sha256", sum)
		b = trimComma(b)
		b = append(b, "        }"...)
	}
	return append(b, "\n"+in+"],\n"...)
}

// appendField appends `indent"key": "value",` and a newline; the last
// field's comma is removed by trimComma.
func appendField(b []byte, indent, key, value string) []byte {
	b = appendKey(b, indent, key)
	b = appendString(b, value)
	return append(b, ",\n"...)
}

func appendNumber(b []byte, indent, key string, n int64) []byte {
	b = appendKey(b, indent, key)
	b = strconv.AppendInt(b, n, 10)
	return append(b, ",\n"...)
}

// appendList appends `indent"key": [`, the strings of list one a line,
// and `],` with a newline; nothing when list is empty (omitempty).
func appendList(b []byte, indent, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = appendKey(b, indent, key)
	b = append(b, "[\n"...)
	for i, s := range list {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, indent...)
		b = append(b, "  "...)
		b = appendString(b, s)
	}
	b = append(b, '\n')
	b = append(b, indent...)
	return append(b, "],\n"...)
}

// appendKey appends `indent"key": `.
func appendKey(b []byte, indent, key string) []byte {
	b = append(b, indent...)
	b = append(b, '"')
	b = append(b, key...)
	return append(b, "\": "...)
}

// trimComma turns a trailing ",\n" into "\n".
func trimComma(b []byte) []byte {
	return append(b[:len(b)-2], '\n')
}

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: quotes, backslashes and control characters escaped,
// U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
