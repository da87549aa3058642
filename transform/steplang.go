package transform

import (
	"fmt"
	"strconv"
	"strings"
)

// A stepSpec is a parsed step: a name and its options as written.
//
// The step language is the one spelling of a step used by the CLI (--step),
// the project file and Bazel attributes:
//
//	step   = name [ ":" option { "," option } ]
//	option = key "=" value
//	name, key = lowercase letter, then lowercase letters, digits, "-" or "_"
//	value  = bare | quoted
//	bare   = one or more characters other than `,`, `"` and white space
//	quoted = a Go double-quoted string ("a,b", "say \"hi\"")
//
// Examples: "minify", "resize:width=800,fit=cover", "srcset:widths=400+800",
// `bundle:define="process.env.NODE_ENV:\"production\""`. An option that takes a
// list is given by repeating its key or, in a bare value, by joining items
// with "+". Keys may appear once unless the option is a list.
type stepSpec struct {
	Name    string
	Options []stepOption
}

// A stepOption is one key=value of a stepSpec.
type stepOption struct {
	Key, Value string
	Quoted     bool // the value was quoted, so it is one item even in a list
	Column     int  // 1-based byte column of the key in the step text
}

// A SyntaxError reports a mistake in a step's text.
type SyntaxError struct {
	Text   string // the whole step text
	Column int    // 1-based byte column of the mistake
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("step %q: column %d: %s", e.Text, e.Column, e.Msg)
}

// parseStep parses one step in the step language. Errors are *SyntaxError.
func parseStep(text string) (stepSpec, error) {
	p := stepParser{text: text}
	return p.parse()
}

type stepParser struct {
	text string
	pos  int
}

func (p *stepParser) fail(pos int, format string, args ...any) error {
	return &SyntaxError{Text: p.text, Column: pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *stepParser) parse() (stepSpec, error) {
	var spec stepSpec
	name, err := p.ident("step name")
	if err != nil {
		return spec, err
	}
	spec.Name = name
	if p.pos == len(p.text) {
		return spec, nil
	}
	if p.text[p.pos] != ':' {
		return spec, p.fail(p.pos, "expected ':' after step name %q, found %q", name, p.text[p.pos])
	}
	p.pos++
	for {
		opt, err := p.option()
		if err != nil {
			return spec, err
		}
		spec.Options = append(spec.Options, opt)
		if p.pos == len(p.text) {
			return spec, nil
		}
		if p.text[p.pos] != ',' {
			return spec, p.fail(p.pos, "expected ',' or end of step after value of %q, found %q", opt.Key, p.text[p.pos])
		}
		p.pos++
	}
}

func (p *stepParser) ident(what string) (string, error) {
	start := p.pos
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		ok := c >= 'a' && c <= 'z' || p.pos > start && (c >= '0' && c <= '9' || c == '-' || c == '_')
		if !ok {
			break
		}
		p.pos++
	}
	if p.pos == start {
		if p.pos == len(p.text) {
			return "", p.fail(p.pos, "expected %s, found end of step", what)
		}
		return "", p.fail(p.pos, "expected %s (a lowercase letter), found %q", what, p.text[p.pos])
	}
	return p.text[start:p.pos], nil
}

func (p *stepParser) option() (stepOption, error) {
	col := p.pos + 1
	key, err := p.ident("option name")
	if err != nil {
		return stepOption{}, err
	}
	if p.pos == len(p.text) || p.text[p.pos] != '=' {
		return stepOption{}, p.fail(p.pos, "expected '=' after option name %q", key)
	}
	p.pos++
	if p.pos < len(p.text) && p.text[p.pos] == '"' {
		return p.quoted(key, col)
	}
	start := p.pos
	for p.pos < len(p.text) && !strings.ContainsRune(", \t\r\n\"", rune(p.text[p.pos])) {
		p.pos++
	}
	if p.pos == start {
		return stepOption{}, p.fail(p.pos, "expected a value for option %q", key)
	}
	if p.pos < len(p.text) && p.text[p.pos] != ',' {
		return stepOption{}, p.fail(p.pos, "unexpected %q in value of %q (quote the value)", p.text[p.pos], key)
	}
	return stepOption{Key: key, Value: p.text[start:p.pos], Column: col}, nil
}

func (p *stepParser) quoted(key string, col int) (stepOption, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.text) && p.text[p.pos] != '"' {
		if p.text[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	if p.pos >= len(p.text) {
		return stepOption{}, p.fail(start, "unterminated quoted value of %q", key)
	}
	p.pos++
	v, err := strconv.Unquote(p.text[start:p.pos])
	if err != nil {
		return stepOption{}, p.fail(start, "bad quoted value of %q: %v", key, err)
	}
	return stepOption{Key: key, Value: v, Quoted: true, Column: col}, nil
}

// String formats the spec in the step language; parseStep of the result
// gives back an equal spec (columns aside).
// has reports whether the spec gives the option key.
func (s stepSpec) has(key string) bool {
	for _, o := range s.Options {
		if o.Key == key {
			return true
		}
	}
	return false
}

func (s stepSpec) String() string {
	var b strings.Builder
	b.WriteString(s.Name)
	for i, o := range s.Options {
		if i == 0 {
			b.WriteByte(':')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(o.Key)
		b.WriteByte('=')
		b.WriteString(formatValue(o.Value, o.Quoted))
	}
	return b.String()
}

// formatValue writes a value bare when that reads back the same, quoted
// otherwise.
func formatValue(v string, mustQuote bool) string {
	if mustQuote || v == "" || strings.ContainsAny(v, ", \t\r\n\"\\") {
		return strconv.Quote(v)
	}
	return v
}
