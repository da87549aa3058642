package project

import (
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/bakefs/bakefs/pipeline"
)

// Jobs walks the source root once and assigns each file to the first rule
// that matches it, under the logical path the rule maps it to; then it
// adds a job for each concat rule. A file that a concat rule joins is
// a part, which no pattern rule takes. A pattern that matches nothing, a
// part that is missing, two rules that make one logical path, a path
// that is not valid for io/fs and a symlink that leaves the source root
// are errors.
func (p *Project) Jobs() ([]*pipeline.Job, error) {
	root, err := filepath.EvalSymlinks(p.Src)
	if err != nil {
		return nil, fmt.Errorf("%s: source root: %w", p.File, err)
	}
	parts := p.parts()
	used := make(map[string]bool)
	takenBy := make(map[string]string) // file -> the pattern that took it
	var taken []string                 // the files patterns took, in walk order
	found := make(map[string]bool)     // the parts the walk met
	made := make(madeBy)
	var jobs []*pipeline.Job
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p.skipDir(file) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, file)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		rule, pat := p.match(name)
		if rule == nil && parts[name] == nil {
			return nil
		}
		if !fs.ValidPath(name) {
			return fmt.Errorf("%s: not a valid path for io/fs", name)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if err := checkLink(root, file, name); err != nil {
				return err
			}
		}
		if parts[name] != nil {
			found[name] = true
			return nil
		}
		used[pat] = true
		takenBy[name] = pat
		taken = append(taken, name)
		logical, err := rule.logicalPath(name)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", p.File, p.lineOfKey("strip_prefix", rule.line), err)
		}
		if err := made.add(p, logical, name, rule); err != nil {
			return err
		}
		jobs = append(jobs, &pipeline.Job{Path: logical, File: file, Chain: rule.Chain, KeepRefs: rule.KeepRefs, Group: rule.group(p)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range p.Rules {
		r := &p.Rules[i]
		if r.Concat == nil {
			continue
		}
		for _, part := range r.Concat {
			if !found[part] {
				return nil, fmt.Errorf("%s:%d: concat: %s is not a file under %s", p.File, p.lineOf(strconv.Quote(part), r.line), part, p.Src)
			}
		}
		if err := made.add(p, r.Output, "the files it joins", r); err != nil {
			return nil, err
		}
		jobs = append(jobs, &pipeline.Job{Path: r.Output, File: filepath.Join(root, filepath.FromSlash(r.Concat[0])), Chain: r.Chain, KeepRefs: r.KeepRefs})
	}
	for _, r := range p.Rules {
		for _, pat := range r.Match {
			if used[pat] {
				continue
			}
			line := p.lineOf(pat, r.line)
			// A pattern that matches files all taken by earlier patterns
			// is shadowed: say by which one, rather than "no file".
			for _, name := range taken {
				if ok, _ := doublestar.Match(pat, name); ok {
					by := takenBy[name]
					return nil, fmt.Errorf("%s:%d: pattern %q is shadowed by %q (line %d), which comes first and takes every file it matches, such as %s",
						p.File, line, pat, by, p.patternLine(by), name)
				}
			}
			for _, name := range slices.Sorted(maps.Keys(found)) {
				if ok, _ := doublestar.Match(pat, name); ok {
					return nil, fmt.Errorf("%s:%d: pattern %q matches only files that concat rules join, such as %s (joined by the rule at line %d)",
						p.File, line, pat, name, parts[name].line)
				}
			}
			return nil, fmt.Errorf("%s:%d: pattern %q matches no file under %s", p.File, line, pat, p.Src)
		}
	}
	return jobs, nil
}

// parts returns the files that concat rules join, each with the first
// rule that joins it.
func (p *Project) parts() map[string]*Rule {
	parts := make(map[string]*Rule)
	for i := range p.Rules {
		for _, part := range p.Rules[i].Concat {
			if parts[part] == nil {
				parts[part] = &p.Rules[i]
			}
		}
	}
	return parts
}

// madeBy records, for each logical path, the file and the rule that make
// it, so that two rules that make one path are an error naming both.
type madeBy map[string]maker

// A maker is what makes one logical path: a file (or a description of
// the files) and its rule.
type maker struct {
	from string
	rule *Rule
}

func (m madeBy) add(p *Project, logical, from string, rule *Rule) error {
	if other, ok := m[logical]; ok {
		if other.rule == rule {
			return fmt.Errorf("%s:%d: %s and %s both map to %s in rule %s", p.File, rule.line, other.from, from, logical, rule)
		}
		return fmt.Errorf("%s:%d: %s, from %s, is also made by the rule at line %d (%s), from %s",
			p.File, rule.line, logical, from, other.rule.line, other.rule, other.from)
	}
	m[logical] = maker{from, rule}
	return nil
}

// patternLine returns the line of the first rule pattern pat.
func (p *Project) patternLine(pat string) int {
	for _, r := range p.Rules {
		if slices.Contains(r.Match, pat) {
			return p.lineOf(pat, r.line)
		}
	}
	return 0
}

// match returns the first rule and pattern that match name.
func (p *Project) match(name string) (*Rule, string) {
	for i := range p.Rules {
		for _, pat := range p.Rules[i].Match {
			if ok, _ := doublestar.Match(pat, name); ok {
				return &p.Rules[i], pat
			}
		}
	}
	return nil, ""
}

// skipDir keeps the walk out of the output tree and the cache when they are
// inside the source root.
func (p *Project) skipDir(dir string) bool {
	for _, d := range []string{p.Out, p.Cache} {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil && real == dir {
			return true
		}
	}
	return false
}

// checkLink refuses a symlink whose target is outside root or not a file.
func checkLink(root, file, name string) error {
	target, err := filepath.EvalSymlinks(file)
	if err != nil {
		return fmt.Errorf("%s: broken symlink: %w", name, err)
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: symlink points outside the source root", name)
	}
	return nil
}
