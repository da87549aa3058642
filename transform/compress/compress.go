package compress

import (
	"context"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// The compression steps (gzip, br, zstd) share the rules of this file.
//
// Each adds a precompressed variant beside an asset's identity bytes with
// Asset.SetEncoding; the identity bytes are never replaced. A variant is
// kept only when it pays for itself (transform.WorthKeeping: at least
// transform.MinSavingBytes bytes and transform.MinSavingPercent percent of
// the identity size). Below that, serving it would cost a second file, a
// second cache entry and a Vary for next to nothing.
//
// Levels are fixed per profile (Context.Profile), so that the same input
// gives the same bytes on any machine:
//
//	profile   gzip   br   zstd
//	release      9   11   best
//	dev          1    1   fastest
//
// The release levels are the best each format has: an asset is compressed
// once at build time (and cached) and served many times. On 400 KB of
// JavaScript-like text (BenchmarkCompress) they give variants of 19.7%
// (gzip), 16.1% (br) and 19.0% (zstd) of the identity size, against 25.8%,
// 23.6% and 23.3% at dev levels. Brotli 11 is by far the slowest (under
// 1 MB/s against 5 MB/s for level 9) and is kept because it is 12% smaller
// than level 9; zstd best runs at about 10–20 MB/s and is 5% smaller than
// "better". Dev levels, all over 100 MB/s, keep rebuilds quick. A profile
// other than Dev gets the release levels. Each step's level option
// overrides its profile level.
//
// Files whose media type is already compressed (see alreadyCompressed)
// are skipped unless include-compressed is set, and so are files smaller
// than the min-size option (default 0: only the margin rule applies).

// compressedTypes are media types whose content is already compressed, so
// that a general-purpose compressor gains nothing worth a variant.
var compressedTypes = map[string]bool{
	"application/gzip": true,
	"application/pdf":  true,
	"application/zip":  true,
	"application/zstd": true,
	"font/woff":        true,
	"font/woff2":       true,
	"image/avif":       true,
	"image/gif":        true,
	"image/jpeg":       true,
	"image/png":        true,
	"image/webp":       true,
}

// compressedExts are extensions of compressed files that MediaType does
// not name (it gives them application/octet-stream).
var compressedExts = map[string]bool{
	".7z": true, ".br": true, ".bz2": true, ".gz": true, ".jar": true, ".lz": true, ".lz4": true,
	".mp3": true, ".mp4": true, ".ogg": true, ".opus": true, ".rar": true, ".tgz": true,
	".webm": true, ".xz": true, ".zip": true, ".zst": true,
}

// alreadyCompressed reports whether a's media type or extension says its
// content is compressed already (JPEG, PNG, GIF, WebP, AVIF, WOFF, WOFF2,
// PDF, archives, audio and video).
func alreadyCompressed(a *transform.Asset) bool {
	t := a.MediaTypeOf()
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	if compressedTypes[t] || strings.HasPrefix(t, "audio/") || strings.HasPrefix(t, "video/") {
		return true
	}
	return compressedExts[strings.ToLower(path.Ext(a.Path))]
}

// levels are the compression levels of one profile.
type levels struct {
	gzip, brotli int
	zstd         string // a zstd level option word
}

// profileLevels returns the levels of a profile (see the table above).
func profileLevels(p transform.Profile) levels {
	if p == transform.Dev {
		return levels{gzip: 1, brotli: 1, zstd: "fastest"}
	}
	return levels{gzip: 9, brotli: 11, zstd: "best"}
}

// CompressOptions are the options every compression step (gzip, br, zstd)
// has beside its level.
type CompressOptions struct {
	MinSize           int  `opt:"min-size" doc:"skip files smaller than this many bytes; default 0, only the saving margin applies"`
	IncludeCompressed bool `opt:"include-compressed" doc:"also try media types that are compressed already (JPEG, PNG, WOFF2…); default false"`
}

// compressStep is the shared body of the compression steps.
type compressStep struct {
	name              string // the Content-Encoding token
	minSize           int
	includeCompressed bool
	// encode compresses data at the level for the profile, returning
	// ctx's error soon after ctx is done.
	encode func(ctx context.Context, p transform.Profile, data []byte) ([]byte, error)
}

var _ transform.Step = (*compressStep)(nil)

func newCompressStep(name string, o CompressOptions, encode func(context.Context, transform.Profile, []byte) ([]byte, error)) (*compressStep, error) {
	if o.MinSize < 0 {
		return nil, fmt.Errorf("%w: min-size %d is negative", transform.ErrBadOption, o.MinSize)
	}
	return &compressStep{name: name, minSize: o.MinSize, includeCompressed: o.IncludeCompressed, encode: encode}, nil
}

// Run returns the assets, with a copy carrying the new variant in place of
// each asset that gets one.
func (s *compressStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	out := make([]*transform.Asset, len(in))
	for i, a := range in {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = a
		if len(a.Data) < s.minSize || len(a.Data) < transform.MinSavingBytes || !s.includeCompressed && alreadyCompressed(a) {
			continue
		}
		enc, err := s.encode(ctx, ctx.Profile, a.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Path, err)
		}
		if !transform.WorthKeeping(len(a.Data), len(enc)) {
			continue
		}
		c := a.Clone()
		c.SetEncoding(transform.Encoding{Name: s.name, Data: enc})
		out[i] = c
	}
	return out, nil
}

// compressChunk is how many bytes a compressor is fed between two checks
// for cancellation.
const compressChunk = 64 << 10

// writeChunks writes data to w in compressChunk pieces, stopping with
// ctx's error when ctx is done, so that a large file at a slow level does
// not hold up an interrupted build.
func writeChunks(ctx context.Context, w io.Writer, data []byte) error {
	for len(data) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(data), compressChunk)
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
