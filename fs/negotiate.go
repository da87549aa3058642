package fs

// A coding is a content coding the handler can serve.
type coding uint8

const (
	codingIdentity coding = iota
	codingBr
	codingZstd
	codingGzip
	numCodings
)

// A codingSet is a set of codings, bit c for coding c.
type codingSet uint8

// codingOf returns the coding of a manifest encoding name, or
// codingIdentity for a name it does not know.
func codingOf(name string) coding {
	switch name {
	case "br":
		return codingBr
	case "zstd":
		return codingZstd
	case "gzip":
		return codingGzip
	}
	return codingIdentity
}

// noQ marks a coding that the header does not name.
const noQ = -1

// negotiate chooses the content coding of a response from the values of
// the request's Accept-Encoding header fields and the codings the file has
// variants in, by the rules documented on FS.Handler. It does not allocate.
func negotiate(values []string, avail codingSet) coding {
	var q [numCodings]int // weight in thousandths, or noQ
	for i := range q {
		q[i] = noQ
	}
	star := noQ
	eachElement(values, func(name string, weight int) {
		if name == "*" {
			star = minQ(star, weight)
			return
		}
		if c, known := codingToken(name); known {
			q[c] = minQ(q[c], weight)
		}
	})
	best, bestQ := codingIdentity, 0
	for _, c := range [...]coding{codingBr, codingZstd, codingGzip} {
		if avail&(1<<c) == 0 {
			continue
		}
		w := q[c]
		if w == noQ {
			w = star
		}
		if w > bestQ {
			best, bestQ = c, w
		}
	}
	if q[codingIdentity] > bestQ {
		return codingIdentity
	}
	return best
}

// eachElement calls f with the coding name and weight of each well-formed
// element of the Accept-Encoding values, in order (see parseElement).
func eachElement(values []string, f func(name string, weight int)) {
	for _, v := range values {
		for len(v) > 0 {
			var elem string
			elem, v = cutByte(v, ',')
			if name, weight, ok := parseElement(elem); ok {
				f(name, weight)
			}
		}
	}
}

// minQ returns the lower of two weights, where noQ stands for "not named".
func minQ(old, w int) int {
	if old == noQ || w < old {
		return w
	}
	return old
}

// codingToken maps a coding name of the header, case-insensitively, to a
// coding, and reports whether it is one the handler knows.
func codingToken(name string) (coding, bool) {
	switch {
	case equalFold(name, "br"):
		return codingBr, true
	case equalFold(name, "zstd"):
		return codingZstd, true
	case equalFold(name, "gzip"), equalFold(name, "x-gzip"):
		return codingGzip, true
	case equalFold(name, "identity"):
		return codingIdentity, true
	}
	return 0, false
}

// parseElement parses one element of Accept-Encoding, `coding *( OWS ";"
// OWS parameter )`, and returns the coding name and its weight in
// thousandths (1000 without q). It reports false for an empty or malformed
// element.
func parseElement(elem string) (name string, weight int, ok bool) {
	name, params := cutByte(elem, ';')
	name = trimOWS(name)
	if name == "" || !isToken(name) && name != "*" {
		return "", 0, false
	}
	weight = noQ
	for len(params) > 0 {
		var p string
		p, params = cutByte(params, ';')
		key, val := cutByte(p, '=')
		key = trimOWS(key)
		if !equalFold(key, "q") {
			continue // other parameters do not change the weight
		}
		w, good := parseQ(trimOWS(val))
		if !good || weight != noQ {
			return "", 0, false
		}
		weight = w
	}
	if weight == noQ {
		weight = 1000
	}
	return name, weight, true
}

// parseQ parses a qvalue (RFC 9110 section 12.4.2), "0" or "1" with up to
// three decimals, into thousandths.
func parseQ(s string) (int, bool) {
	if s == "" || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	w := int(s[0]-'0') * 1000
	s = s[1:]
	if s == "" {
		return w, true
	}
	if s[0] != '.' || len(s) > 4 {
		return 0, false
	}
	scale := 100
	for i := 1; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		w += int(d-'0') * scale
		scale /= 10
	}
	if w > 1000 {
		return 0, false
	}
	return w, true
}

// cutByte slices s around the first sep, like strings.Cut with a byte.
func cutByte(s string, sep byte) (before, after string) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// trimOWS removes leading and trailing spaces and tabs.
func trimOWS(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// isToken reports whether s is an RFC 9110 token.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '!' || c == '#' || c == '$' || c == '%' || c == '&' || c == '\'' || c == '*' ||
			c == '+' || c == '-' || c == '.' || c == '^' || c == '_' || c == '`' || c == '|' || c == '~':
		default:
			return false
		}
	}
	return s != ""
}

// equalFold reports whether s equals the lowercase ASCII word lower, ignoring
// ASCII case.
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
