package transform

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// A Kind says where a step may stand in a chain.
type Kind int

const (
	// Content steps change bytes or names (typescript, minify, resize).
	Content Kind = iota
	// Finishing steps describe the final bytes without changing them:
	// compression variants and fingerprinting. They come after every
	// content step of a chain, since a later change would make them stale.
	Finishing
)

// A StepDoc describes a registered step.
type StepDoc struct {
	Name    string
	Version string // changes whenever the step's output for the same input and options changes
	Doc     string // one line
	Kind    Kind
	Options []OptionDoc
}

type definition struct {
	StepDoc
	optionsType reflect.Type
	build       func(opts any) (Step, error)
}

var (
	registryMu sync.RWMutex
	registry   = make(map[string]*definition)
)

// Register adds a step under name, usually from an init function. O is the
// step's options struct (see the options tags documented in options.go);
// build makes the step from decoded options and may reject combinations
// with an error wrapping ErrBadOption. Register panics if name is taken.
func Register[O any](name, version, doc string, kind Kind, build func(O) (Step, error)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("transform: step registered twice: " + name)
	}
	t := reflect.TypeFor[O]()
	registry[name] = &definition{
		StepDoc:     StepDoc{Name: name, Version: version, Doc: doc, Kind: kind, Options: documentOptions(t)},
		optionsType: t,
		build:       func(opts any) (Step, error) { return build(opts.(O)) },
	}
}

// Steps returns the registered steps sorted by name.
func Steps() []StepDoc {
	registryMu.RLock()
	defer registryMu.RUnlock()
	docs := make([]StepDoc, 0, len(registry))
	for _, d := range registry {
		docs = append(docs, d.StepDoc)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Name < docs[j].Name })
	return docs
}

// A BoundStep is a step made from its text: parsed, options decoded and
// checked, ready to run.
type BoundStep struct {
	Name      string
	Version   string
	Kind      Kind
	Canonical string // the options in canonical step language, part of the cache key
	Step      Step
}

// NewStep parses text in the step language and builds the step. Errors are
// a *SyntaxError, or wrap ErrUnknownStep or ErrBadOption.
func NewStep(text string) (*BoundStep, error) {
	return newStep(text, ChainOptions{})
}

// newStep is NewStep with the chain options o applied.
func newStep(text string, o ChainOptions) (*BoundStep, error) {
	spec, err := parseStep(text)
	if err != nil {
		return nil, err
	}
	registryMu.RLock()
	def, ok := registry[spec.Name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q%s", ErrUnknownStep, spec.Name, suggestStep(spec.Name))
	}
	if o.Sourcemaps && takesOption(def, "sourcemap") && !spec.has("sourcemap") {
		spec.Options = append(spec.Options, stepOption{Key: "sourcemap", Value: "external"})
	}
	opts := reflect.New(def.optionsType)
	if err := decodeOptions(spec, opts.Interface()); err != nil {
		return nil, err
	}
	step, err := def.build(opts.Elem().Interface())
	if err != nil {
		return nil, fmt.Errorf("step %q: %w", text, err)
	}
	return &BoundStep{
		Name:      def.Name,
		Version:   def.Version,
		Kind:      def.Kind,
		Canonical: canonicalSpec(def.Name, opts.Interface()),
		Step:      step,
	}, nil
}

// takesOption reports whether a step has the option key.
func takesOption(def *definition, key string) bool {
	for _, o := range def.Options {
		if o.Key == key {
			return true
		}
	}
	return false
}

// suggestStep returns " (did you mean X?)" for the registered name closest
// to name, or "" when none is close.
func suggestStep(name string) string {
	best, bestDist := "", 3
	for _, d := range Steps() {
		if dist := editDistance(name, d.Name); dist < bestDist {
			best, bestDist = d.Name, dist
		}
	}
	if best == "" {
		return " (bakefs steps lists them)"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
