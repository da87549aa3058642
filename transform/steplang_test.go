package transform

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseStep(t *testing.T) {
	tests := []struct {
		name, text string
		want       stepSpec
	}{
		{"bare name", "minify", stepSpec{Name: "minify"}},
		{"one option", "resize:width=800", stepSpec{Name: "resize", Options: []stepOption{{Key: "width", Value: "800", Column: 8}}}},
		{"two options", "resize:width=800,fit=cover", stepSpec{Name: "resize", Options: []stepOption{
			{Key: "width", Value: "800", Column: 8}, {Key: "fit", Value: "cover", Column: 18}}}},
		{"list with plus", "srcset:widths=400+800", stepSpec{Name: "srcset", Options: []stepOption{{Key: "widths", Value: "400+800", Column: 8}}}},
		{"quoted value", `bundle:define="a,b \"c\""`, stepSpec{Name: "bundle", Options: []stepOption{{Key: "define", Value: `a,b "c"`, Quoted: true, Column: 8}}}},
		{"names with digits and dashes", "x2:keep-end_tags=true", stepSpec{Name: "x2", Options: []stepOption{{Key: "keep-end_tags", Value: "true", Column: 4}}}},
		{"colon inside value", "bundle:define=DEBUG:false", stepSpec{Name: "bundle", Options: []stepOption{{Key: "define", Value: "DEBUG:false", Column: 8}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStep(tt.text)
			if err != nil {
				t.Fatalf("parseStep(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("parseStep(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
			again, err := parseStep(got.String())
			if err != nil || again.String() != got.String() {
				t.Fatalf("String() %q does not read back: %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParseStepErrors(t *testing.T) {
	tests := []struct {
		name, text string
		column     int
		msg        string
	}{
		{"empty", "", 1, "expected step name, found end of step"},
		{"uppercase name", "Minify", 1, `expected step name (a lowercase letter), found 'M'`},
		{"space after name", "minify x", 7, `expected ':' after step name "minify", found ' '`},
		{"missing equals", "resize:width", 13, `expected '=' after option name "width"`},
		{"missing value", "resize:width=", 14, `expected a value for option "width"`},
		{"trailing comma", "resize:width=1,", 16, "expected option name, found end of step"},
		{"space in bare value", "resize:width=1 2", 15, `unexpected ' ' in value of "width" (quote the value)`},
		{"unterminated quote", `bundle:define="abc`, 15, `unterminated quoted value of "define"`},
		{"junk after quote", `bundle:define="a"b`, 18, `expected ',' or end of step after value of "define", found 'b'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStep(tt.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("parseStep(%q) error = %v, want *SyntaxError", tt.text, err)
			}
			if se.Column != tt.column || se.Msg != tt.msg {
				t.Fatalf("parseStep(%q) = column %d %q, want column %d %q", tt.text, se.Column, se.Msg, tt.column, tt.msg)
			}
		})
	}
}

func FuzzParseStep(f *testing.F) {
	for _, s := range []string{"minify", "resize:width=800,fit=cover", `bundle:define="a,b"`, "a:b=c+d", ":", "a:=", `a:b="\x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		spec, err := parseStep(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Column < 1 || se.Column > len(text)+1 {
				t.Fatalf("parseStep(%q): bad error %v", text, err)
			}
			return
		}
		again, err := parseStep(spec.String())
		if err != nil || again.String() != spec.String() {
			t.Fatalf("round trip of %q: %q gives %+v, %v", text, spec.String(), again, err)
		}
	})
}
