package compress

import (
	"bytes"
	"context"
	"strconv"
	"sync"

	"github.com/bakefs/bakefs/transform"

	"github.com/andybalholm/brotli"
)

// brotliOptions are the options of the br step.
type brotliOptions struct {
	Level string `opt:"level" values:"0|1|2|3|4|5|6|7|8|9|10|11" doc:"force a quality; default 11 in release, 1 in dev"`
	CompressOptions
}

func init() {
	transform.Register("br", "1", "add a Brotli variant (.br) when it saves enough", transform.Finishing, newBrotli)
}

// The Brotli window (its base-2 logarithm, lgwin) is the smallest that
// holds the whole input, from 10 (1 KiB) up to 22 (4 MiB, the format's
// default, which every decoder accepts), as the brotli command line tool
// chooses it. It depends on the input's size alone, so that output depends
// on data and quality only; and it bounds the encoder's memory by what
// the input needs: at quality 10 and 11 the match finder takes 8 bytes
// per window byte, 32 MiB for a 4 MiB window but 1 MiB for a 100 KB file.
const (
	brotliMinWindow = 10
	brotliMaxWindow = 22
)

// brotliWindowFor returns the window for n bytes of input: the smallest
// lgwin whose window, less the 16 bytes the format reserves, covers n.
func brotliWindowFor(n int) int {
	lgwin := brotliMinWindow
	for lgwin < brotliMaxWindow && (1<<lgwin)-16 < n {
		lgwin++
	}
	return lgwin
}

// brotliWriters pools writers by quality (0 to 11) and window, for the
// windows up to brotliPooledWindow: many small files reuse their tables,
// and what the pools keep idle stays small (about 2.6 MiB per writer at
// most). A writer with a larger window is made for its file and dropped:
// it compresses at least 128 KiB, which at the best qualities takes far
// longer than making it.
var brotliWriters [brotli.BestCompression + 1][brotliPooledWindow + 1]sync.Pool

// brotliPooledWindow is the largest window whose writers are pooled.
const brotliPooledWindow = 18

func newBrotli(o brotliOptions) (transform.Step, error) {
	forced := -1
	if o.Level != "" {
		forced, _ = strconv.Atoi(o.Level)
	}
	return newCompressStep("br", o.CompressOptions, func(ctx context.Context, p transform.Profile, data []byte) ([]byte, error) {
		quality := forced
		if quality < 0 {
			quality = profileLevels(p).brotli
		}
		return withEncoderMemory(ctx, brotliMemory(quality, brotliWindowFor(len(data))), func() ([]byte, error) {
			return brotliEncode(ctx, data, quality)
		})
	})
}

// brotliEncode compresses data at quality (0 to 11) with the window its
// size calls for. It stops with ctx's error when ctx is done.
func brotliEncode(ctx context.Context, data []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/4 + 64)
	lgwin := brotliWindowFor(len(data))
	var pool *sync.Pool
	if lgwin <= brotliPooledWindow {
		pool = &brotliWriters[quality][lgwin]
	}
	var bw *brotli.Writer
	if pool != nil {
		bw, _ = pool.Get().(*brotli.Writer)
	}
	if bw == nil {
		bw = brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: lgwin})
	} else {
		bw.Reset(&buf)
	}
	if err := writeChunks(ctx, bw, data); err != nil {
		return nil, err // the writer is dropped, not pooled
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	if pool != nil {
		bw.Reset(nil) // drop the reference to buf before pooling
		pool.Put(bw)
	}
	return buf.Bytes(), nil
}
