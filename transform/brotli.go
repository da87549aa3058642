package transform

import (
	"bytes"
	"context"
	"strconv"
	"sync"

	"github.com/andybalholm/brotli"
)

// brotliOptions are the options of the br step.
type brotliOptions struct {
	Level string `opt:"level" values:"0|1|2|3|4|5|6|7|8|9|10|11" doc:"force a quality; default 11 in release, 1 in dev"`
	CompressOptions
}

func init() {
	Register("br", "1", "add a Brotli variant (.br) when it saves enough", Finishing, newBrotli)
}

// brotliWindow is the base-2 logarithm of the Brotli window: 22 (4 MiB),
// the format's default, which every decoder accepts. It is fixed, not left
// to the encoder's choice, so that output depends on data and quality only.
const brotliWindow = 22

// brotliWriters pools writers by quality (index 0 to 11).
var brotliWriters [brotli.BestCompression + 1]sync.Pool

func newBrotli(o brotliOptions) (Step, error) {
	forced := -1
	if o.Level != "" {
		forced, _ = strconv.Atoi(o.Level)
	}
	return newCompressStep("br", o.CompressOptions, func(ctx context.Context, p Profile, data []byte) ([]byte, error) {
		quality := forced
		if quality < 0 {
			quality = profileLevels(p).brotli
		}
		return brotliEncode(ctx, data, quality)
	})
}

// brotliEncode compresses data at quality (0 to 11) with the fixed window.
// It stops with ctx's error when ctx is done.
func brotliEncode(ctx context.Context, data []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/4 + 64)
	bw, _ := brotliWriters[quality].Get().(*brotli.Writer)
	if bw == nil {
		bw = brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: brotliWindow})
	} else {
		bw.Reset(&buf)
	}
	if err := writeChunks(ctx, bw, data); err != nil {
		return nil, err // the writer is dropped, not pooled
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	bw.Reset(nil) // drop the reference to buf before pooling
	brotliWriters[quality].Put(bw)
	return buf.Bytes(), nil
}
