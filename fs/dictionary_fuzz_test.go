package fs

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestParseAvailableDictionary(t *testing.T) {
	// The hash of the web-platform-tests' dictionary "This is a test
	// dictionary.\n" (fetch/compression-dictionary).
	const wpt = ":U5abz16WDg7b8KS93msLPpOB4Vbef1uRzoORYkJw9BY=:"
	for _, c := range []struct {
		values []string
		ok     bool
	}{
		{[]string{wpt}, true},
		{[]string{" " + wpt + "\t"}, true},
		{[]string{wpt + ";id=1"}, true},
		{[]string{wpt, wpt}, false},
		{[]string{strings.Trim(wpt, ":")}, false},
		{[]string{wpt[:len(wpt)-1]}, false},
		{[]string{":" + strings.Repeat("A", 40) + ":"}, false},
		{[]string{":U5abz16WDg7b8KS93msLPpOB4Vbef1uRzoORYkJw9BY:"}, false},
		{[]string{wpt + "x"}, false},
		{[]string{"::"}, false},
		{nil, false},
	} {
		sum, ok := parseAvailableDictionary(c.values)
		if ok != c.ok {
			t.Errorf("parseAvailableDictionary(%q) ok = %v, want %v", c.values, ok, c.ok)
		}
		if ok && ":"+base64.StdEncoding.EncodeToString(sum[:])+":" != wpt {
			t.Errorf("parseAvailableDictionary(%q) = %x", c.values, sum)
		}
	}
}

func FuzzAvailableDictionary(f *testing.F) {
	f.Add(":U5abz16WDg7b8KS93msLPpOB4Vbef1uRzoORYkJw9BY=:")
	f.Add(":U5abz16WDg7b8KS93msLPpOB4Vbef1uRzoORYkJw9BY=:;a=1")
	f.Add("::")
	f.Add(":")
	f.Fuzz(func(t *testing.T, v string) {
		sum, ok := parseAvailableDictionary([]string{v})
		if !ok {
			return
		}
		// What parses is the sum's canonical form, padded, between colons,
		// with only whitespace before and parameters after.
		want := ":" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
		rest, found := strings.CutPrefix(trimOWS(v), want)
		if !found || rest != "" && rest[0] != ';' {
			t.Fatalf("%q parsed as %x", v, sum)
		}
	})
}

func TestDictionaryMatch(t *testing.T) {
	for _, c := range []struct{ name, typ, want string }{
		{"js/app.js", "text/javascript; charset=utf-8", `match="app.*.js", match-dest=("script")`},
		{"app.min.css", "text/css", `match="app.min.*.css", match-dest=("style")`},
		{"data/LICENSE", "application/json", `match="LICENSE.*"`},
		{"icons/a+b(1).svg", "image/svg+xml", `match="a\\+b\\(1\\).*.svg"`},
		{"q/\"x\".wasm", "application/wasm", `match="\"x\".*.wasm"`},
		{"img/a.png", "image/png", ""},
		{"page.html", "text/html; charset=utf-8", ""},
		{"js/é.js", "text/javascript", ""},
	} {
		if got := dictionaryMatch(c.name, c.typ); got != c.want {
			t.Errorf("dictionaryMatch(%q, %q) = %s, want %s", c.name, c.typ, got, c.want)
		}
	}
}
