package remote

import (
	"encoding/binary"
	"errors"
)

// A remote cache's action cache holds, under each key, an ActionResult of
// the Remote Execution API (build.bazel.remote.execution.v2), the message
// Bazel stores there: servers such as bazel-remote and BuildBuddy parse
// what is put under /ac/ and refuse anything else, and check that the
// blobs it names are in the content store. bakefs writes the three fields
// it needs, by hand, rather than pull a protobuf runtime into the engine:
//
//	message ActionResult { repeated OutputFile output_files = 2; }
//	message OutputFile   { string path = 1; Digest digest = 2; }
//	message Digest       { string hash = 1; int64 size_bytes = 2; }
//
// The first output file is the cache entry (its JSON, in the content
// store) under the path EntryPath; the others are the blobs the entry
// refers to, named by their output paths, listed so that the server keeps
// them with the entry.

// EntryPath names the cache entry among an ActionResult's files.
const EntryPath = "bakefs-cache-entry.json"

// A File is one output file of an ActionResult.
type File struct {
	Path   string
	SHA256 string // of the file's bytes, lowercase hex
	Size   int64
}

// Protocol buffer wire types.
const (
	wireVarint = 0
	wire64     = 1
	wireBytes  = 2
	wire32     = 5
)

// EncodeActionResult returns the wire form of an ActionResult with files
// as its output files, in order.
func EncodeActionResult(files []File) []byte {
	var out []byte
	for _, f := range files {
		var digest []byte
		digest = appendBytesField(digest, 1, []byte(f.SHA256))
		if f.Size != 0 {
			digest = appendTag(digest, 2, wireVarint)
			digest = binary.AppendUvarint(digest, uint64(f.Size))
		}
		var file []byte
		file = appendBytesField(file, 1, []byte(f.Path))
		file = appendBytesField(file, 2, digest)
		out = appendBytesField(out, 2, file)
	}
	return out
}

func appendTag(b []byte, field int, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendBytesField(b []byte, field int, v []byte) []byte {
	b = appendTag(b, field, wireBytes)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// errBadProto reports bytes that are not a well-formed protocol buffer.
var errBadProto = errors.New("malformed ActionResult")

// DecodeActionResult returns the output files of an ActionResult in wire
// form, skipping every other field. Bytes that are not a well-formed
// message are an error.
func DecodeActionResult(b []byte) ([]File, error) {
	var files []File
	err := eachField(b, func(field, wire int, v []byte, _ uint64) error {
		if field != 2 || wire != wireBytes {
			return nil
		}
		var f File
		err := eachField(v, func(field, wire int, v []byte, _ uint64) error {
			switch {
			case field == 1 && wire == wireBytes:
				f.Path = string(v)
			case field == 2 && wire == wireBytes:
				return eachField(v, func(field, wire int, v []byte, n uint64) error {
					switch {
					case field == 1 && wire == wireBytes:
						f.SHA256 = string(v)
					case field == 2 && wire == wireVarint:
						f.Size = int64(n)
					}
					return nil
				})
			}
			return nil
		})
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	return files, err
}

// eachField calls f with each field of a message: its number, wire type,
// and its bytes (wireBytes) or value (wireVarint, wire64, wire32).
func eachField(b []byte, f func(field, wire int, v []byte, n uint64) error) error {
	for len(b) > 0 {
		tag, k := binary.Uvarint(b)
		if k <= 0 || tag>>3 == 0 {
			return errBadProto
		}
		b = b[k:]
		field, wire := int(tag>>3), int(tag&7)
		var v []byte
		var n uint64
		switch wire {
		case wireVarint:
			n, k = binary.Uvarint(b)
			if k <= 0 {
				return errBadProto
			}
			b = b[k:]
		case wire64, wire32:
			size := 8
			if wire == wire32 {
				size = 4
			}
			if len(b) < size {
				return errBadProto
			}
			b = b[size:]
		case wireBytes:
			l, k := binary.Uvarint(b)
			if k <= 0 || l > uint64(len(b)-k) {
				return errBadProto
			}
			v, b = b[k:k+int(l)], b[k+int(l):]
		default:
			return errBadProto
		}
		if err := f(field, wire, v, n); err != nil {
			return err
		}
	}
	return nil
}
