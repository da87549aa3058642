package fs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestNegotiate(t *testing.T) {
	all := codingSet(1<<codingBr | 1<<codingZstd | 1<<codingGzip)
	gzipOnly := codingSet(1 << codingGzip)
	tests := []struct {
		name   string
		values []string
		avail  codingSet
		want   coding
	}{
		{"absent", nil, all, codingIdentity},
		{"empty", []string{""}, all, codingIdentity},
		{"spaces and commas", []string{" , ,"}, all, codingIdentity},
		{"chrome", []string{"gzip, deflate, br, zstd"}, all, codingBr},
		{"gzip only available", []string{"gzip, deflate, br, zstd"}, gzipOnly, codingGzip},
		{"q order", []string{"br;q=0.2, gzip;q=0.9"}, all, codingGzip},
		{"q zero", []string{"br;q=0"}, all, codingIdentity},
		{"q zero decimals", []string{"br;q=0.000, gzip;q=0.001"}, all, codingGzip},
		{"q one decimals", []string{"gzip;q=1.000, br;q=0.999"}, all, codingGzip},
		{"q too many decimals", []string{"br;q=0.0001"}, all, codingIdentity},
		{"q above one", []string{"br;q=1.001"}, all, codingIdentity},
		{"q negative", []string{"br;q=-1"}, all, codingIdentity},
		{"q empty", []string{"br;q="}, all, codingIdentity},
		{"q with spaces", []string{"gzip ; q = 0.5 , br ; q=0.4"}, all, codingGzip},
		{"Q uppercase", []string{"br;Q=0, gzip"}, all, codingGzip},
		{"star", []string{"*"}, all, codingBr},
		{"star low, gzip named", []string{"*;q=0.1, gzip"}, all, codingGzip},
		{"star zero, named wins", []string{"*;q=0, gzip;q=0.2"}, all, codingGzip},
		{"identity named higher", []string{"gzip;q=0.5, identity"}, all, codingIdentity},
		{"identity tie prefers coding", []string{"gzip, identity"}, all, codingGzip},
		{"identity zero only", []string{"identity;q=0"}, all, codingIdentity},
		{"unknown codings", []string{"deflate, compress, sdch"}, all, codingIdentity},
		{"no substring", []string{"gzip2, abr, zstdx"}, all, codingIdentity},
		{"x-gzip", []string{"X-GZIP"}, gzipOnly, codingGzip},
		{"bad token", []string{"g zip, b\"r"}, all, codingIdentity},
		{"several fields", []string{"br;q=0.1", "zstd;q=0.3"}, all, codingZstd},
		{"repeated takes lowest", []string{"gzip", "gzip;q=0"}, all, codingIdentity},
		{"nothing available", []string{"br, gzip"}, 0, codingIdentity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := negotiate(tt.values, tt.avail); got != tt.want {
				t.Errorf("negotiate(%q) = %d, want %d", tt.values, got, tt.want)
			}
		})
	}
}

// qvalue is the grammar of RFC 9110 section 12.4.2.
var qvalue = regexp.MustCompile(`^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$`)

// refQ is a plain reading of the header's weights for one coding, written
// apart from negotiate: the lowest weight of any element naming the coding
// and of any "*" element, -1 for none. Malformed elements are skipped.
func refQ(values []string, name string) (named, star int) {
	named, star = -1, -1
	for _, v := range values {
		for _, elem := range strings.Split(v, ",") {
			parts := strings.Split(elem, ";")
			tok := strings.ToLower(strings.Trim(parts[0], " \t"))
			if tok == "x-gzip" {
				tok = "gzip"
			}
			w, nq, bad := 1000, 0, false
			for _, p := range parts[1:] {
				k, val, _ := strings.Cut(p, "=")
				if strings.ToLower(strings.Trim(k, " \t")) != "q" {
					continue
				}
				nq++
				val = strings.Trim(val, " \t")
				if !qvalue.MatchString(val) {
					bad = true
				}
				f, _ := strconv.ParseFloat(val, 64)
				w = int(f*1000 + 0.5)
			}
			if bad || nq > 1 || tok == "" {
				continue
			}
			switch tok {
			case name:
				if named == -1 || w < named {
					named = w
				}
			case "*":
				if star == -1 || w < star {
					star = w
				}
			}
		}
	}
	return named, star
}

// refWeight is the weight of a content coding: named, else from "*".
func refWeight(values []string, name string) int {
	named, star := refQ(values, name)
	if named != -1 {
		return named
	}
	return star
}

// FuzzAcceptEncoding checks that negotiation picks an available coding
// whose weight is above zero, the best such weight, or identity.
func FuzzAcceptEncoding(f *testing.F) {
	for _, s := range []string{"", "br", "gzip, deflate, br, zstd", "br;q=0, gzip", "*;q=0", "identity;q=0",
		"gzip;q=0.5, br;q=0.5", "BR;Q=1.000", "x-gzip", "br;q=0.0001", "*, br;q=0"} {
		f.Add(s, "", uint8(7<<1))
	}
	f.Add("gzip;q=0.2", "br;q=0.1", uint8(1<<codingBr|1<<codingGzip))
	f.Fuzz(func(t *testing.T, v1, v2 string, avail uint8) {
		set := codingSet(avail) & (1<<codingBr | 1<<codingZstd | 1<<codingGzip)
		values := []string{v1}
		if v2 != "" {
			values = append(values, v2)
		}
		got := negotiate(values, set)
		names := map[coding]string{codingBr: "br", codingZstd: "zstd", codingGzip: "gzip"}
		best := 0
		for c, name := range names {
			if set&(1<<c) != 0 {
				best = max(best, refWeight(values, name))
			}
		}
		identity, _ := refQ(values, "identity") // identity takes no weight from "*"
		if got == codingIdentity {
			if best > 0 && identity <= best {
				t.Fatalf("negotiate(%q, %03b) = identity (weight %d), but a variant has weight %d", values, set, identity, best)
			}
			return
		}
		if set&(1<<got) == 0 {
			t.Fatalf("negotiate(%q, %03b) = %s, not available", values, set, names[got])
		}
		if q := refWeight(values, names[got]); q <= 0 || q != best || identity > q {
			t.Fatalf("negotiate(%q, %03b) = %s with weight %d, best is %d, identity %d", values, set, names[got], q, best, identity)
		}
	})
}
