package fs

import (
	"encoding/base64"
	"net/http"
)

// The handler's side of Compression Dictionary Transport (RFC 9842): a
// hashed response of a script, style sheet, JSON, WebAssembly or SVG file
// offers itself as a dictionary for the later versions of the file
// (Use-As-Dictionary, see dictionaryMatch), and a request that offers a
// dictionary the file has a delta against gets that delta (see deltaFor).

// Header values of responses of files that have deltas.
var (
	hdrVaryDictionary    = "Accept-Encoding, Available-Dictionary"
	hdrUseAsDictionary   = "Use-As-Dictionary"
	hdrAvailDictionary   = "Available-Dictionary"
	tokenAvailDictionary = "available-dictionary"
)

// deltaFor returns the delta of n that answers r, or nil when r gets one of
// the ordinary variants: n has no delta against the dictionary that r
// offers in Available-Dictionary, r does not accept "dcz", r asks for a
// Range (a delta is never served in parts), or r is a cross-origin request
// whose response the page cannot read (Sec-Fetch-Mode "no-cors" from
// another site, RFC 9842 section 9.3).
func (n *node) deltaFor(r *http.Request) *variant {
	if len(n.deltas) == 0 || len(r.Header["Range"]) > 0 {
		return nil
	}
	dict, ok := parseAvailableDictionary(r.Header[hdrAvailDictionary])
	if !ok || !acceptsCoding(r.Header["Accept-Encoding"], DeltaEncoding) || opaqueRequest(r.Header) {
		return nil
	}
	for _, d := range n.deltas {
		if d.dictionary == dict {
			return &n.variants[d.index]
		}
	}
	return nil
}

// parseAvailableDictionary parses the Available-Dictionary header, a
// Structured Field byte sequence (RFC 8941 section 3.3.5) holding the
// SHA-256 of the dictionary: ":" base64 ":", parameters after it ignored.
// It reports false for anything else, and for more than one field.
func parseAvailableDictionary(values []string) (sum [sha256Size]byte, ok bool) {
	if len(values) != 1 {
		return sum, false
	}
	v := trimOWS(values[0])
	if len(v) < 2 || v[0] != ':' {
		return sum, false
	}
	end := 1
	for end < len(v) && v[end] != ':' {
		end++
	}
	if end == len(v) || end+1 < len(v) && v[end+1] != ';' {
		return sum, false
	}
	b64 := v[1:end]
	if len(b64) != base64.StdEncoding.EncodedLen(sha256Size) {
		return sum, false
	}
	// Room for what 44 characters can decode to without padding.
	var buf [(sha256Size + 2) / 3 * 3]byte
	k, err := base64.StdEncoding.Strict().Decode(buf[:], []byte(b64))
	if err != nil || k != sha256Size {
		return sum, false
	}
	copy(sum[:], buf[:k])
	return sum, true
}

// acceptsCoding reports whether Accept-Encoding names the coding with a
// weight above zero. A dictionary coding must be named: "*" does not
// stand for it.
func acceptsCoding(values []string, coding string) bool {
	weight := noQ
	eachElement(values, func(name string, w int) {
		if equalFold(name, coding) {
			weight = minQ(weight, w) // q=0 anywhere excludes it
		}
	})
	return weight > 0
}

// opaqueRequest reports whether the Fetch metadata of a request say that
// its response is opaque to the page: a no-cors request from another
// origin, which must not get a dictionary-compressed response.
func opaqueRequest(h http.Header) bool {
	site := h.Get("Sec-Fetch-Site")
	return site != "" && site != "same-origin" && equalFold(h.Get("Sec-Fetch-Mode"), "no-cors")
}
