package compress

import (
	"context"

	"github.com/bakefs/bakefs/transform"

	"github.com/klauspost/compress/zstd"
)

// zstdOptions are the options of the zstd step.
type zstdOptions struct {
	Level string `opt:"level" values:"fastest|default|better|best" doc:"force a level; default best in release, fastest in dev"`
	CompressOptions
}

func init() {
	transform.Register("zstd", "1", "add a Zstandard variant (.zst) when it saves enough", transform.Finishing, newZstd)
}

// zstdLevels maps the level option's words to the encoder's levels.
var zstdLevels = map[string]zstd.EncoderLevel{
	"fastest": zstd.SpeedFastest,
	"default": zstd.SpeedDefault,
	"better":  zstd.SpeedBetterCompression,
	"best":    zstd.SpeedBestCompression,
}

// zstdWindow is the window size: 8 MiB, the most that HTTP content coding
// allows (RFC 8878 section 3.1.1.1.2) and the size decoders are asked to
// support. Frames of up to this size are written as a single segment.
const zstdWindow = 8 << 20

// zstdEncoders keeps idle encoders by level: at the best level each holds
// 42 MiB of tables and window, which a sync.Pool would drop at each
// collection and make again. Each encoder runs one block at a time
// (concurrency 1) and is used by one goroutine at a time, so nothing about
// the output depends on the number of cores; EncodeAll gives the same
// bytes for the same input and level whichever encoder runs it.
var zstdEncoders [zstd.SpeedBestCompression + 1]freeList[*zstd.Encoder]

func newZstd(o zstdOptions) (transform.Step, error) {
	return newCompressStep("zstd", o.CompressOptions, func(ctx context.Context, p transform.Profile, data []byte) ([]byte, error) {
		word := o.Level
		if word == "" {
			word = profileLevels(p).zstd
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		level := zstdLevels[word]
		var mem int64
		if level == zstd.SpeedBestCompression {
			mem = zstdBestMemory
		}
		return withEncoderMemory(ctx, mem, func() ([]byte, error) { return zstdEncode(data, level) })
	})
}

// zstdEncode compresses data at level into one frame with the content size
// and a checksum, and no dictionary.
func zstdEncode(data []byte, level zstd.EncoderLevel) ([]byte, error) {
	enc, ok := zstdEncoders[level].get()
	if !ok {
		var err error
		enc, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(level),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow),
			zstd.WithEncoderCRC(true),
			zstd.WithZeroFrames(true),
		)
		if err != nil {
			return nil, err
		}
	}
	out := enc.EncodeAll(data, make([]byte, 0, len(data)/3+64))
	zstdEncoders[level].put(enc)
	return out, nil
}
