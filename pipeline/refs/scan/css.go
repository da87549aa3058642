package scan

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bakefs/bakefs/pipeline/refs"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// scanCSS returns the references of a style sheet (or of inline CSS, whose
// first byte is at offset at of its file), found with tdewolff/parse's CSS
// tokenizer:
//
//   - url(…) in every form: unquoted, quoted with ' or ", with white space
//     inside the parentheses and CSS escapes; this covers @font-face src,
//     @import url(…), backgrounds, masks, cursors and so on;
//   - the string of @import "…";
//   - the strings of image-set() and -webkit-image-set(), which are URLs;
//   - the comment /*# sourceMappingURL=… */.
//
// A url() in the condition of @supports or of @import's supports() is
// only tested by the browser, never loaded: it is rewritten but not
// warned about when its file is missing.
//
// A URL written with escapes is written back whole, quoted as it was,
// with the escapes a CSS parser needs; one without is kept byte for byte
// but for the hash digits inserted.
func scanCSS(data []byte, at int) []refs.Ref {
	buf := make([]byte, len(data), len(data)+1)
	copy(buf, data)
	in := parse.NewInputBytes(buf)
	l := css.NewLexer(in)
	// A token ends where the input stands after Next.
	offset := func(tok []byte) int { return at + in.Offset() - len(tok) }
	var found []refs.Ref
	var imageSetDepth []int // the depths at which an image-set() is open
	var supportsDepth []int // the depths at which a supports() is open
	depth := 0
	afterImport := false
	inSupports := false // in the condition of an @supports rule
	for {
		tt, tok := l.Next()
		switch tt {
		case css.ErrorToken:
			return found
		case css.URLToken:
			if r, ok := cssURLRef(tok, offset(tok)); ok {
				if inSupports || len(supportsDepth) > 0 {
					r.Kind = refs.Nav
				}
				found = append(found, r)
			}
		case css.StringToken:
			inImageSet := len(imageSetDepth) > 0 && imageSetDepth[len(imageSetDepth)-1] == depth
			if afterImport || inImageSet {
				found = append(found, cssStringRef(tok, offset(tok)))
			}
		case css.FunctionToken:
			depth++
			name := strings.ToLower(cssUnescape(string(tok[:len(tok)-1])))
			switch name {
			case "image-set", "-webkit-image-set":
				imageSetDepth = append(imageSetDepth, depth)
			case "supports":
				supportsDepth = append(supportsDepth, depth)
			}
		case css.LeftParenthesisToken:
			depth++
		case css.RightParenthesisToken:
			if len(imageSetDepth) > 0 && imageSetDepth[len(imageSetDepth)-1] == depth {
				imageSetDepth = imageSetDepth[:len(imageSetDepth)-1]
			}
			if len(supportsDepth) > 0 && supportsDepth[len(supportsDepth)-1] == depth {
				supportsDepth = supportsDepth[:len(supportsDepth)-1]
			}
			depth = max(depth-1, 0)
		case css.LeftBraceToken, css.SemicolonToken:
			inSupports = false
		case css.CommentToken:
			if r, ok := sourceMapComment(tok, offset(tok), "/*", "*/"); ok {
				found = append(found, r)
			}
		}
		switch tt {
		case css.AtKeywordToken:
			afterImport = strings.EqualFold(cssUnescape(string(tok)), "@import")
			inSupports = strings.EqualFold(cssUnescape(string(tok)), "@supports")
		case css.WhitespaceToken, css.CommentToken:
		default:
			afterImport = false
		}
	}
}

// cssURLRef reads a url() token that starts at offset start.
func cssURLRef(tok []byte, start int) (refs.Ref, bool) {
	open := bytes.IndexByte(tok, '(')
	if open < 0 {
		return refs.Ref{}, false
	}
	i := open + 1
	for i < len(tok) && isCSSSpace(tok[i]) {
		i++
	}
	if i < len(tok) && (tok[i] == '"' || tok[i] == '\'') {
		end := cssStringEnd(tok, i)
		r := cssStringRef(tok[i:end], start+i)
		return r, true
	}
	j := i
	for j < len(tok) && tok[j] != ')' && !isCSSSpace(tok[j]) {
		j = cssSkipChar(tok, j)
	}
	j = min(j, len(tok))
	raw := string(tok[i:j])
	u := cssUnescape(raw)
	return refs.Ref{Start: start + i, End: start + j, URL: u, Plain: raw == u, Write: cssUnquotedURL}, true
}

// cssSkipChar returns the index past the character or escape at i of
// tok: a backslash with up to six hex digits and one white space, or a
// backslash and one other byte.
func cssSkipChar(tok []byte, i int) int {
	if tok[i] != '\\' {
		return i + 1
	}
	i++
	if i < len(tok) && isHexDigit(tok[i]) {
		j := i
		for j < len(tok) && j-i < 6 && isHexDigit(tok[j]) {
			j++
		}
		if j < len(tok) && isCSSSpace(tok[j]) {
			j++
		}
		return j
	}
	return i + 1
}

// cssStringEnd returns the index just past the string that starts at i of
// tok with a quote.
func cssStringEnd(tok []byte, i int) int {
	q := tok[i]
	for j := i + 1; j < len(tok); j++ {
		switch tok[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(tok)
}

// cssStringRef reads a quoted string token, quotes included, that starts
// at offset start. The ref covers what is between the quotes.
func cssStringRef(tok []byte, start int) refs.Ref {
	q := tok[0]
	body := tok[1:]
	if len(body) > 0 && body[len(body)-1] == q {
		body = body[:len(body)-1]
	}
	raw := string(body)
	u := cssUnescape(raw)
	return refs.Ref{Start: start + 1, End: start + 1 + len(body), URL: u, Plain: raw == u,
		Write: func(u string) []byte { return cssQuotedBody(u, q) }}
}

// cssUnescape decodes the escapes of CSS Syntax 3 (section 4.3.7): a
// backslash and up to six hex digits (and one white space after them), a
// backslash and a newline (nothing, in a string), or a backslash and any
// other character (that character).
func cssUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		if isHexDigit(s[i]) {
			j := i
			for j < len(s) && j-i < 6 && isHexDigit(s[j]) {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 16, 32)
			r := rune(n)
			if r == 0 || r > utf8.MaxRune || 0xD800 <= r && r <= 0xDFFF {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			if j < len(s) && isCSSSpace(s[j]) {
				if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
					j++
				}
				j++
			}
			i = j - 1
			continue
		}
		switch s[i] {
		case '\n', '\f':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// cssQuotedBody writes u as the inside of a CSS string quoted with q.
func cssQuotedBody(u string, q byte) []byte {
	var b []byte
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c == q || c == '\\':
			b = append(b, '\\', c)
		case c == '\n' || c == '\r' || c == '\f' || c < 0x20 || c == 0x7f:
			b = append(b, '\\')
			b = strconv.AppendUint(b, uint64(c), 16)
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return b
}

// cssUnquotedURL writes u as the inside of an unquoted url(): white
// space, quotes, parentheses, backslashes and control characters escaped.
func cssUnquotedURL(u string) []byte {
	var b []byte
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c == '"' || c == '\'' || c == '(' || c == ')' || c == '\\' || c == ' ':
			b = append(b, '\\', c)
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\')
			b = strconv.AppendUint(b, uint64(c), 16)
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return b
}

func isCSSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
