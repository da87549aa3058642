package fs

import (
	"errors"
	"io"
	"mime/multipart"
	"net/textproto"
	"strconv"
	"strings"
)

// A byteRange is one satisfiable range of a representation.
type byteRange struct {
	start, length int64
}

// maxRanges is the largest number of ranges a request may ask for; the
// Range header of a request asking for more is ignored.
const maxRanges = 64

var (
	errRangeInvalid   = errors.New("invalid range")
	errRangeNoOverlap = errors.New("range does not overlap the content")
	errRangeUnit      = errors.New("range unit is not bytes")
)

// parseRange parses a Range header (RFC 9110 section 14.1.2) for content of
// the given size. It returns errRangeUnit for a unit other than bytes and
// errRangeInvalid for an invalid ranges-specifier (a malformed range, or a
// last position before the first), which the caller ignores; and
// errRangeNoOverlap when the header is valid but no range overlaps the
// content.
func parseRange(s string, size int64) ([]byteRange, error) {
	unit, set, ok := strings.Cut(s, "=")
	if !ok || !equalFold(trimOWS(unit), "bytes") {
		if ok && isToken(trimOWS(unit)) {
			return nil, errRangeUnit
		}
		return nil, errRangeInvalid
	}
	var ranges []byteRange
	noOverlap := false
	for set != "" {
		var ra string
		ra, set = cutByte(set, ',')
		ra = trimOWS(ra)
		if ra == "" {
			continue
		}
		first, last, ok := strings.Cut(ra, "-")
		if !ok {
			return nil, errRangeInvalid
		}
		first, last = trimOWS(first), trimOWS(last)
		var r byteRange
		if first == "" {
			// Suffix range: the last n bytes.
			n, err := parseDigits(last)
			if err != nil {
				return nil, errRangeInvalid
			}
			if n == 0 {
				noOverlap = true
				continue
			}
			n = min(n, size)
			r = byteRange{start: size - n, length: n}
		} else {
			i, err := parseDigits(first)
			if err != nil {
				return nil, errRangeInvalid
			}
			if last != "" {
				j, err := parseDigits(last)
				if err != nil || j < i {
					return nil, errRangeInvalid
				}
				if i >= size {
					noOverlap = true
					continue
				}
				r = byteRange{start: i, length: min(j, size-1) - i + 1}
			} else {
				if i >= size {
					noOverlap = true
					continue
				}
				r = byteRange{start: i, length: size - i}
			}
		}
		ranges = append(ranges, r)
	}
	if len(ranges) == 0 {
		if noOverlap {
			return nil, errRangeNoOverlap
		}
		return nil, errRangeInvalid
	}
	return ranges, nil
}

// parseDigits parses a non-empty string of ASCII digits.
func parseDigits(s string) (int64, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, errRangeInvalid
	}
	return strconv.ParseInt(s, 10, 64)
}

// contentRange formats a Content-Range value for r of content of size.
func (r byteRange) contentRange(size int64) string {
	b := make([]byte, 0, 64)
	b = append(b, "bytes "...)
	b = strconv.AppendInt(b, r.start, 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, r.start+r.length-1, 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, size, 10)
	return string(b)
}

// unsatisfiedRange formats the Content-Range of a 416 response.
func unsatisfiedRange(size int64) string {
	return "bytes */" + strconv.FormatInt(size, 10)
}

// sumRanges returns the total length of ranges.
func sumRanges(ranges []byteRange) int64 {
	var n int64
	for _, r := range ranges {
		n += r.length
	}
	return n
}

// countingWriter counts the bytes written to it.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// writeMultipart writes ranges of ra as a multipart/byteranges body with the
// given boundary to w, each part carrying contentType and its
// Content-Range. With ra nil it only measures: it writes the framing
// without the range bytes and returns the body length.
func writeMultipart(w io.Writer, boundary string, ranges []byteRange, contentType string, size int64, ra io.ReaderAt) (int64, error) {
	var cw countingWriter
	out := io.MultiWriter(&cw, w)
	if ra == nil {
		out = &cw
	}
	mw := multipart.NewWriter(out)
	if err := mw.SetBoundary(boundary); err != nil {
		return 0, err
	}
	var body int64
	for _, r := range ranges {
		part, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Range": {r.contentRange(size)},
			"Content-Type":  {contentType},
		})
		if err != nil {
			return 0, err
		}
		body += r.length
		if ra != nil {
			if err := copyAt(part, ra, r.start, r.length); err != nil {
				return 0, err
			}
		}
	}
	if err := mw.Close(); err != nil {
		return 0, err
	}
	if ra == nil {
		return int64(cw) + body, nil
	}
	return int64(cw), nil
}
