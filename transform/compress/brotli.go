package compress

import (
	"bytes"
	"context"
	"strconv"

	"github.com/bakefs/bakefs/transform"

	brrr "github.com/molecule-man/go-brrr"
)

// brotliOptions are the options of the br step.
type brotliOptions struct {
	Level string `opt:"level" values:"0|1|2|3|4|5|6|7|8|9|10|11" doc:"force a quality; default 11 in release, 1 in dev"`
	CompressOptions
}

func init() {
	transform.Register("br", "2", "add a Brotli variant (.br) when it saves enough", transform.Finishing, newBrotli)
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
// size calls for, and the size as the encoder's hint, as the brotli
// command line tool does for a file: the output is byte for byte the C
// library's (see TestBrotliMatchesC). The encoders' tables come from
// go-brrr's own pools. It stops with ctx's error when ctx is done.
func brotliEncode(ctx context.Context, data []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/4 + 64)
	bw, err := brrr.NewWriterOptions(&buf, quality, brrr.WriterOptions{
		LGWin:    brotliWindowFor(len(data)),
		SizeHint: uint(len(data)),
	})
	if err != nil {
		return nil, err
	}
	if err := writeChunks(ctx, bw, data); err != nil {
		return nil, err // the writer is dropped: closing it would compress the rest
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
