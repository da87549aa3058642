package transform

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type sampleOptions struct {
	Width   int               `opt:"width" doc:"width in pixels"`
	Fit     string            `opt:"fit" values:"contain|cover|fill" doc:"fit"`
	Keep    bool              `opt:"keep" doc:"keep it"`
	Ratio   float64           `opt:"ratio" doc:"a ratio"`
	Widths  []int             `opt:"widths" doc:"widths"`
	Names   []string          `opt:"external" doc:"names"`
	Defines map[string]string `opt:"define" doc:"defines"`
}

func decodeSample(t *testing.T, text string) (sampleOptions, error) {
	t.Helper()
	spec, err := parseStep(text)
	if err != nil {
		t.Fatal(err)
	}
	var o sampleOptions
	err = decodeOptions(spec, &o)
	return o, err
}

func TestDecodeOptions(t *testing.T) {
	got, err := decodeSample(t, `s:width=8,fit=cover,keep=true,ratio=1.5,widths=1+2,widths=3,external=a+b,external="c+d",define=X:1,define="Y:2"`)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleOptions{Width: 8, Fit: "cover", Keep: true, Ratio: 1.5, Widths: []int{1, 2, 3},
		Names: []string{"a", "b", "c+d"}, Defines: map[string]string{"X": "1", "Y": "2"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestDecodeOptionsErrors(t *testing.T) {
	tests := []struct{ name, text, msg string }{
		{"unknown", "s:height=1", `column 3: option "height": unknown option (known: width, fit, keep, ratio, widths, external, define)`},
		{"not a number", "s:width=wide", `option "width": "wide" is not a whole number`},
		{"not in values", "s:fit=stretch", `option "fit": "stretch" is not one of contain, cover, fill`},
		{"twice", "s:width=1,width=2", `column 11: option "width": given twice`},
		{"bad bool", "s:keep=yes please", ``}, // syntax error, checked below
		{"bad list item", "s:widths=1+x", `"x" is not a whole number`},
		{"bad map item", "s:define=X", `"X" is not key:value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := parseStep(tt.text)
			if tt.msg == "" {
				if err == nil {
					t.Fatalf("parseStep(%q) accepted it", tt.text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			err = decodeOptions(spec, &sampleOptions{})
			if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error = %v, want ErrBadOption containing %q", err, tt.msg)
			}
		})
	}
}

func TestCanonicalSpec(t *testing.T) {
	a, _ := decodeSample(t, "s:widths=2+1,fit=cover,width=0,define=B:2,define=A:1")
	b, _ := decodeSample(t, "s:define=A:1,fit=cover,define=B:2,widths=2,widths=1")
	ca, cb := canonicalSpec("s", &a), canonicalSpec("s", &b)
	if ca != cb {
		t.Fatalf("canonical forms differ: %q vs %q", ca, cb)
	}
	if want := "s:define=A:1,define=B:2,fit=cover,widths=2,widths=1"; ca != want {
		t.Fatalf("canonical = %q, want %q", ca, want)
	}
	spec, err := parseStep(ca)
	if err != nil {
		t.Fatal(err)
	}
	var back sampleOptions
	if err := decodeOptions(spec, &back); err != nil || !reflect.DeepEqual(back, a) {
		t.Fatalf("canonical form does not decode back: %+v, %v", back, err)
	}
}
