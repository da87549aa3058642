package compress

import (
	"bytes"
	"compress/gzip"
	"context"
	"strconv"
	"sync"

	"github.com/bakefs/bakefs/transform"
)

// gzipOptions are the options of the gzip step.
type gzipOptions struct {
	Level string `opt:"level" values:"1|2|3|4|5|6|7|8|9" doc:"force a level; default 9 in release, 1 in dev"`
	CompressOptions
}

func init() {
	transform.Register("gzip", "1", "add a gzip variant (.gz) when it saves enough", transform.Finishing, newGzip)
}

// gzipWriters pools writers by level (index 1 to 9); a gzip.Writer is
// large, and Reset makes a pooled one as good as new.
var gzipWriters [gzip.BestCompression + 1]sync.Pool

func newGzip(o gzipOptions) (transform.Step, error) {
	forced, _ := strconv.Atoi(o.Level) // "" gives 0: the profile's level
	return newCompressStep("gzip", o.CompressOptions, func(ctx context.Context, p transform.Profile, data []byte) ([]byte, error) {
		level := forced
		if level == 0 {
			level = profileLevels(p).gzip
		}
		return gzipEncode(ctx, data, level)
	})
}

// gzipEncode compresses data at level (1 to 9) with a fixed header: no
// name, comment or extra field, a zero modification time and the OS byte
// 255 ("unknown"), so that the bytes depend on data and level only.
// It stops with ctx's error when ctx is done.
func gzipEncode(ctx context.Context, data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/3 + 64)
	zw, _ := gzipWriters[level].Get().(*gzip.Writer)
	if zw == nil {
		var err error
		if zw, err = gzip.NewWriterLevel(&buf, level); err != nil {
			return nil, err
		}
	} else {
		zw.Reset(&buf)
	}
	zw.Header = gzip.Header{OS: 255}
	if err := writeChunks(ctx, zw, data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	gzipWriters[level].Put(zw)
	return buf.Bytes(), nil
}
