package scan

import (
	"bytes"
	"encoding/json"

	"github.com/bakefs/bakefs/pipeline/refs"
)

// WebManifest returns the references of a web app manifest (W3C
// Web Application Manifest): the src of each member of icons and of
// screenshots, the files the browser loads. start_url, scope and the
// like are pages and stay as they are. A manifest that is not valid JSON
// has no references. A URL written with JSON escapes is written back
// whole, as a JSON string.
func WebManifest(data []byte) []refs.Ref {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// path holds, for each open container, the key (objects) or "[]"
	// (arrays) that the current value is under.
	var path []string
	var keys []bool // for each open container: an object awaiting a key
	var found []refs.Ref
	for {
		tok, err := dec.Token()
		if err != nil {
			return found
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				path = append(path, "")
				keys = append(keys, d == '{')
			case '}', ']':
				path, keys = path[:len(path)-1], keys[:len(keys)-1]
				afterValue(path, keys)
			}
			continue
		}
		n := len(keys)
		if n > 0 && keys[n-1] {
			path[n-1], keys[n-1] = tok.(string), false
			continue
		}
		if s, ok := tok.(string); ok && n == 3 && path[2] == "src" && (path[0] == "icons" || path[0] == "screenshots") {
			end := int(dec.InputOffset())
			start := jsonStringStart(data, end)
			raw := data[start+1 : end-1]
			found = append(found, refs.Ref{Start: start + 1, End: end - 1, URL: s, Plain: string(raw) == s, Kind: refs.Load,
				Write: jsonStringBody})
		}
		afterValue(path, keys)
	}
}

// afterValue marks the innermost container, when an object, as awaiting
// its next key.
func afterValue(path []string, keys []bool) {
	if n := len(keys); n > 0 && path[n-1] != "" {
		keys[n-1] = true
	}
}

// jsonStringStart returns the index of the opening quote of the JSON string
// whose closing quote is at end-1.
func jsonStringStart(data []byte, end int) int {
	for i := end - 2; i >= 0; i-- {
		if data[i] != '"' {
			continue
		}
		slashes := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 0 {
			return i
		}
	}
	return 0
}

// jsonStringBody writes s as the inside of a JSON string.
func jsonStringBody(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	out := bytes.TrimSpace(b.Bytes())
	return out[1 : len(out)-1]
}
