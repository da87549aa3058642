package compress

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/bakefs/bakefs/transform"
	"github.com/klauspost/compress/zstd"
)

// The engine makes its deltas with EncodeDCZ through the registry.
func init() {
	transform.RegisterDeltaEncoder(transform.DeltaEncoder{Name: "dcz", Version: "1", MaxDictionary: MaxDictionary, Encode: EncodeDCZ})
}

// dczMagic opens every dcz stream (RFC 9842 section 4): a Zstandard
// skippable frame header whose 32-byte content is the dictionary's
// SHA-256.
var dczMagic = [8]byte{0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00}

// DCZHeaderSize is the length of a dcz stream's header: the magic and
// the dictionary's SHA-256, before the Zstandard frame.
const DCZHeaderSize = len(dczMagic) + sha256.Size

// MaxDictionary is the largest dictionary EncodeDCZ takes: the window of
// every Zstandard variant, and what browsers are asked to support
// (Chromium allows a window of max(8 MiB, 1.25 × the dictionary)).
const MaxDictionary = zstdWindow

// EncodeDCZ compresses data against dict (an earlier version of the same
// file) as a dcz stream: the header that names dict by its SHA-256, then
// one Zstandard frame at the best level that uses dict as raw content,
// with the content size and a checksum and no dictionary ID (browsers
// refuse a non-zero one). The same data and dict give the same bytes on
// any machine. A dict larger than MaxDictionary is an error. It waits for
// the encoder memory budget like the zstd step.
func EncodeDCZ(ctx context.Context, data, dict []byte) ([]byte, error) {
	if len(dict) > MaxDictionary {
		return nil, fmt.Errorf("dcz: dictionary of %d bytes is over the %d-byte window", len(dict), MaxDictionary)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mem := int64(zstdBestMemory) + 2*int64(len(dict))
	return withEncoderMemory(ctx, mem, func() ([]byte, error) {
		enc, err := zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedBestCompression),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow),
			zstd.WithEncoderCRC(true),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderDictRaw(0, dict),
		)
		if err != nil {
			return nil, fmt.Errorf("dcz: %w", err)
		}
		defer enc.Close()
		sum := sha256.Sum256(dict)
		out := make([]byte, 0, DCZHeaderSize+len(data)/8+64)
		out = append(out, dczMagic[:]...)
		out = append(out, sum[:]...)
		return enc.EncodeAll(data, out), nil
	})
}
