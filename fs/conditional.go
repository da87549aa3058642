package fs

// condResult is the outcome of one precondition of RFC 9110 section 13.
type condResult int

const (
	condNone  condResult = iota // header absent
	condTrue                    // condition holds
	condFalse                   // condition fails
)

// scanETag returns the entity-tag at the start of s (after optional
// whitespace), `W/"…"` or `"…"`, and the text after it, or "", "" when s
// does not start with a valid entity-tag.
func scanETag(s string) (etag, remain string) {
	s = trimOWS(s)
	start := 0
	if len(s) >= 2 && s[0] == 'W' && s[1] == '/' {
		start = 2
	}
	if len(s[start:]) < 2 || s[start] != '"' {
		return "", ""
	}
	for i := start + 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0x21 || c >= 0x23 && c <= 0x7E || c >= 0x80:
		case c == '"':
			return s[:i+1], s[i+1:]
		default:
			return "", ""
		}
	}
	return "", ""
}

// weakMatch compares two entity-tags with the weak comparison function.
func weakMatch(a, b string) bool {
	if len(a) >= 2 && a[0] == 'W' && a[1] == '/' {
		a = a[2:]
	}
	if len(b) >= 2 && b[0] == 'W' && b[1] == '/' {
		b = b[2:]
	}
	return a == b
}

// strongMatch compares two entity-tags with the strong comparison function:
// both must be strong and equal.
func strongMatch(a, b string) bool {
	return a == b && a != "" && a[0] == '"'
}

// matchList evaluates a list of entity-tags (If-Match, If-None-Match) against
// etag: "*" matches any current representation; a malformed element ends the
// list. It reports condNone when the header is absent or empty.
func matchList(values []string, etag string, match func(a, b string) bool) condResult {
	empty := true
	for _, list := range values {
		if trimOWS(list) != "" {
			empty = false
		}
	}
	if empty {
		return condNone
	}
	for _, list := range values {
		for {
			list = trimOWS(list)
			if list == "" {
				break
			}
			if list[0] == ',' {
				list = list[1:]
				continue
			}
			if list[0] == '*' {
				return condTrue
			}
			tag, remain := scanETag(list)
			if tag == "" {
				break
			}
			if match(tag, etag) {
				return condTrue
			}
			list = remain
		}
	}
	return condFalse
}

// checkIfMatch evaluates If-Match (strong comparison) for the representation
// whose entity-tag is etag.
func checkIfMatch(values []string, etag string) condResult {
	return matchList(values, etag, strongMatch)
}

// checkIfNoneMatch evaluates If-None-Match (weak comparison): condFalse when
// a listed tag matches, so that a GET or HEAD is answered 304.
func checkIfNoneMatch(values []string, etag string) condResult {
	switch matchList(values, etag, weakMatch) {
	case condTrue:
		return condFalse
	case condFalse:
		return condTrue
	}
	return condNone
}

// checkIfRange evaluates If-Range: the range applies only when the header
// holds the strong entity-tag of the representation. A date never matches,
// as the handler sends no Last-Modified.
func checkIfRange(values []string, etag string) condResult {
	if len(values) == 0 || values[0] == "" {
		return condNone
	}
	tag, _ := scanETag(values[0])
	if tag != "" && strongMatch(tag, etag) {
		return condTrue
	}
	return condFalse
}
