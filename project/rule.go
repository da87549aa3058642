package project

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/bakefs/bakefs/transform"
)

// A Rule maps patterns to a chain, or joins files into one output.
type Rule struct {
	Match []string
	// Concat and Output are a joining rule's files, in order, and the
	// logical path of what they make; its chain starts with the concat
	// step. A joining rule has no Match.
	Concat []string
	Output string
	// StripPrefix and Prefix map a matched file's path to its logical
	// path: StripPrefix (a directory, ending in "/") is removed and Prefix
	// (a directory, ending in "/") put before.
	StripPrefix, Prefix string
	Steps               []string // as written, compression and hash included
	Chain               transform.Chain
	// KeepRefs is rewrite = false: the references in the rule's outputs
	// are left as they are.
	KeepRefs bool
	line     int
}

// ruleTOML mirrors a [[rule]] table.
type ruleTOML struct {
	Match       any       `toml:"match"`
	Concat      []string  `toml:"concat"`
	Output      string    `toml:"output"`
	StripPrefix string    `toml:"strip_prefix"`
	Prefix      string    `toml:"prefix"`
	Steps       []string  `toml:"steps"`
	Compress    *[]string `toml:"compress"`
	Hash        *bool     `toml:"hash"`
	Rewrite     *bool     `toml:"rewrite"`
}

// String names the rule in messages: its patterns, or what it joins.
func (r *Rule) String() string {
	if r.Concat != nil {
		return fmt.Sprintf("%s (concat of %s)", r.Output, strings.Join(r.Concat, ", "))
	}
	return strings.Join(r.Match, ", ")
}

// group names the rule's jobs as one group (pipeline.Job.Group): the
// files of one rule that a joining step (a bundle with code splitting)
// takes together.
func (r *Rule) group(p *Project) string {
	return fmt.Sprintf("%s:%d", p.File, r.line)
}

// logicalPath maps a matched file's path to its logical path, or fails
// when the file is not under the rule's strip_prefix.
func (r *Rule) logicalPath(name string) (string, error) {
	rest, ok := strings.CutPrefix(name, r.StripPrefix)
	if !ok {
		return "", fmt.Errorf("%s is not under strip_prefix %q", name, r.StripPrefix)
	}
	return r.Prefix + rest, nil
}

func (p *Project) newRule(r ruleTOML, f fileFormat, line int) (Rule, error) {
	rule := Rule{line: line, KeepRefs: r.Rewrite != nil && !*r.Rewrite}
	if err := p.mapping(&rule, r); err != nil {
		return rule, err
	}
	steps := r.Steps
	if r.Concat != nil || r.Output != "" {
		var err error
		if steps, err = p.concat(&rule, r); err != nil {
			return rule, err
		}
	}
	switch m := r.Match.(type) {
	case string:
		rule.Match = []string{m}
	case []any:
		for _, x := range m {
			s, ok := x.(string)
			if !ok {
				return rule, errors.New("match: patterns must be strings")
			}
			rule.Match = append(rule.Match, s)
		}
	case nil:
		if rule.Concat == nil {
			return rule, errors.New("match (or concat and output) is required")
		}
	default:
		return rule, errors.New("match must be a pattern or a list of patterns")
	}
	for _, pat := range rule.Match {
		if !doublestar.ValidatePattern(pat) || strings.HasPrefix(pat, "/") || strings.Contains(pat, "..") {
			rule.line = p.lineOf(pat, line)
			return rule, fmt.Errorf("match: bad pattern %q (relative, path.Match syntax plus **)", pat)
		}
	}
	compress := f.Compress
	if r.Compress != nil {
		compress = *r.Compress
	}
	hash := f.Hash
	if r.Hash != nil {
		hash = *r.Hash
	}
	rule.Steps = append(append([]string(nil), steps...), compress...)
	if hash {
		rule.Steps = append(rule.Steps, "hash")
	}
	for i, s := range steps {
		if _, err := transform.ParseChain(steps[i : i+1]); err != nil {
			rule.line = p.lineOf(s, line)
			return rule, fmt.Errorf("steps[%d]: %v", i, errors.Unwrap(err))
		}
	}
	chain, err := transform.ParseChain(rule.Steps)
	if err != nil {
		// An error of the whole chain, such as the order of its steps:
		// point at the rule's steps key, where there is one.
		rule.line = p.lineOfKey("steps", line)
		return rule, fmt.Errorf("steps: %v", err)
	}
	rule.Chain = chain
	return rule, nil
}

// mapping checks and sets a rule's strip_prefix and prefix.
func (p *Project) mapping(rule *Rule, r ruleTOML) error {
	for _, d := range []struct {
		key, value string
		field      *string
	}{{"strip_prefix", r.StripPrefix, &rule.StripPrefix}, {"prefix", r.Prefix, &rule.Prefix}} {
		if d.value == "" {
			continue
		}
		dir := strings.TrimSuffix(d.value, "/")
		if !fs.ValidPath(dir) || dir == "." {
			rule.line = p.lineOfKey(d.key, rule.line)
			return fmt.Errorf("%s: %q is not a relative directory such as \"public\"", d.key, d.value)
		}
		*d.field = dir + "/"
	}
	if (rule.StripPrefix != "" || rule.Prefix != "") && r.Concat != nil {
		rule.line = p.lineOfKey("concat", rule.line)
		return errors.New("strip_prefix and prefix map matched files; a concat rule names its path with output")
	}
	return nil
}

// concat checks a joining rule and returns its steps with the concat step
// first: the step the rule's steps begin with, if they name it for its
// banner, footer or source map, given the files.
func (p *Project) concat(rule *Rule, r ruleTOML) ([]string, error) {
	switch {
	case r.Match != nil:
		rule.line = p.lineOfKey("concat", rule.line)
		return nil, errors.New("a rule has match or concat, not both")
	case len(r.Concat) == 0:
		rule.line = p.lineOfKey("output", rule.line)
		return nil, errors.New("output names what concat makes: concat lists the files to join, in order")
	case r.Output == "":
		rule.line = p.lineOfKey("concat", rule.line)
		return nil, errors.New("concat needs output, the logical path of the joined file")
	case !fs.ValidPath(r.Output) || r.Output == ".":
		rule.line = p.lineOfKey("output", rule.line)
		return nil, fmt.Errorf("output %q is not a slash-separated path such as \"js/app.js\"", r.Output)
	}
	for _, part := range r.Concat {
		if !fs.ValidPath(part) || part == "." || strings.ContainsAny(part, "*?[{") {
			rule.line = p.lineOf(strconv.Quote(part), rule.line)
			return nil, fmt.Errorf("concat: %q is not a path under src (patterns are not taken: the order is yours)", part)
		}
	}
	rule.Concat, rule.Output = r.Concat, r.Output
	var files []string
	for _, part := range r.Concat {
		files = append(files, "files="+strconv.Quote(part))
	}
	step := "concat:" + strings.Join(files, ",")
	rest := r.Steps
	if len(rest) > 0 && (rest[0] == "concat" || strings.HasPrefix(rest[0], "concat:")) {
		if opts, ok := strings.CutPrefix(rest[0], "concat:"); ok {
			if strings.Contains(opts, "files=") {
				rule.line = p.lineOf(rest[0], rule.line)
				return nil, errors.New("steps[0]: the files to join are the rule's concat list, not an option here")
			}
			step += "," + opts
		}
		rest = rest[1:]
	}
	for _, s := range rest {
		if s == "concat" || strings.HasPrefix(s, "concat:") {
			rule.line = p.lineOf(strconv.Quote(s), rule.line)
			return nil, errors.New("steps: concat comes first in a concat rule, and only there")
		}
	}
	if _, err := transform.ParseChain([]string{step}); err != nil {
		rule.line = p.lineOfKey("steps", rule.line)
		return nil, fmt.Errorf("steps[0]: %v", errors.Unwrap(err))
	}
	return append([]string{step}, rest...), nil
}
