package scan

import (
	"bytes"

	"github.com/bakefs/bakefs/pipeline/refs"
)

// sourceMapComment reads a comment token that starts at offset start and
// is delimited by open and close ("/*" and "*/", or "//" and ""), and
// returns the reference of a "# sourceMappingURL=URL" (or the older
// "@ sourceMappingURL=URL") it holds. The URL runs to the first white
// space or the end of the comment.
func sourceMapComment(tok []byte, start int, open, close string) (refs.Ref, bool) {
	if !bytes.HasPrefix(tok, []byte(open)) {
		return refs.Ref{}, false
	}
	body := tok[len(open):]
	if close != "" {
		body = bytes.TrimSuffix(body, []byte(close))
	}
	i := 0
	if i >= len(body) || body[i] != '#' && body[i] != '@' {
		return refs.Ref{}, false
	}
	i++
	for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
		i++
	}
	const key = "sourceMappingURL="
	if !bytes.HasPrefix(body[i:], []byte(key)) {
		return refs.Ref{}, false
	}
	i += len(key)
	j := i
	for j < len(body) && !isCSSSpace(body[j]) {
		j++
	}
	if j == i {
		return refs.Ref{}, false
	}
	at := start + len(open)
	return refs.Ref{Start: at + i, End: at + j, URL: string(body[i:j]), Plain: true, Kind: refs.Load}, true
}

// SourceMapComment returns the reference of the source map comment
// that ends a script ("//# sourceMappingURL=app.js.map" on its last line
// that is not blank), which is where browsers and bundlers put and look
// for it. Nothing else of a script is read.
func SourceMapComment(data []byte) []refs.Ref {
	end := len(bytes.TrimRight(data, " \t\r\n"))
	lineStart := bytes.LastIndexAny(data[:end], "\r\n") + 1
	line := data[lineStart:end]
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if r, ok := sourceMapComment(line[i:], lineStart+i, "//", ""); ok {
		return []refs.Ref{r}
	}
	return nil
}
