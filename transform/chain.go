package transform

import (
	"errors"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"strings"
)

// A Chain is an ordered list of steps run one after the other on the assets
// of one source file.
type Chain []*BoundStep

// ParseChain builds a chain from step texts. Errors name the position of the
// bad step in the list (1-based) as "step 2: …". Finishing steps (gzip, br,
// zstd, hash) must come after every content step.
func ParseChain(texts []string) (Chain, error) {
	return ParseChainOptions(texts, ChainOptions{})
}

// ChainOptions change the steps that ParseChainOptions builds, without
// editing their texts.
type ChainOptions struct {
	// Sourcemaps gives sourcemap=external to every step that takes a
	// sourcemap option and was not given one (dev mode's source maps).
	Sourcemaps bool
}

// ParseChainOptions is ParseChain with options. The options given this
// way are part of each step's canonical text, as if they were written.
func ParseChainOptions(texts []string, o ChainOptions) (Chain, error) {
	chain := make(Chain, 0, len(texts))
	finishing := ""
	for i, text := range texts {
		s, err := newStep(text, o)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		if s.Kind == Finishing && finishing == "" {
			finishing = s.Name
		}
		if s.Kind == Content && finishing != "" {
			return nil, fmt.Errorf("step %d: %w: %s changes the bytes, so it must come before %s", i+1, ErrBadOption, s.Name, finishing)
		}
		chain = append(chain, s)
	}
	absorb(chain)
	return chain, nil
}

// Split returns the steps of c up to its last content step, and those
// after it: the finishing ones, which ParseChain puts last.
func (c Chain) Split() (content, finishing Chain) {
	last := -1
	for i, s := range c {
		if s.Kind == Content {
			last = i
		}
	}
	return c[:last+1], c[last+1:]
}

// Key returns the part of a cache key that identifies the chain: each
// step's name, version and canonical options.
func (c Chain) Key() string { return string(c.AppendKey(nil)) }

// AppendKey appends Key's bytes to b, for a caller that builds a longer
// key once per output.
func (c Chain) AppendKey(b []byte) []byte {
	for _, s := range c {
		b = append(b, s.Name...)
		b = append(b, '@')
		b = append(b, s.Version...)
		b = append(b, ' ')
		b = append(b, s.Canonical...)
		b = append(b, '\n')
	}
	return b
}

// String returns the chain in the step language, steps joined by " | ".
func (c Chain) String() string {
	names := make([]string, len(c))
	for i, s := range c {
		names[i] = s.Canonical
	}
	return strings.Join(names, " | ")
}

// Run runs the steps in order. Errors that are not already a SourceError
// are wrapped as "source: step: error". Every asset a step returns must
// have a valid, unreserved path.
func (c Chain) Run(ctx *Context, in []*Asset) ([]*Asset, error) {
	assets := in
	for _, s := range c {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, err := s.Step.Run(ctx, assets)
		if err != nil {
			return nil, wrapStepError(assets, s.Name, err)
		}
		for _, a := range out {
			if !iofs.ValidPath(a.Path) || a.Path == "." || a.Path == bakefs.ManifestName {
				return nil, fmt.Errorf("%s: %s: produced invalid output path %q", sourceOf(assets), s.Name, a.Path)
			}
		}
		assets = out
	}
	return assets, nil
}

func wrapStepError(in []*Asset, step string, err error) error {
	var se *SourceError
	var ses SourceErrors
	if errors.As(err, &se) || errors.As(err, &ses) {
		return err
	}
	return fmt.Errorf("%s: %s: %w", sourceOf(in), step, err)
}

func sourceOf(in []*Asset) string {
	if len(in) == 0 {
		return "(no input)"
	}
	if in[0].Source != "" {
		return in[0].Source
	}
	return in[0].Path
}
