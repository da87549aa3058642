package steps_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// TestEmbeddedOptionGroups: the options of an embedded group decode,
// document and canonicalise like the step's own.
func TestEmbeddedOptionGroups(t *testing.T) {
	s, err := transform.NewStep("tsx:jsx-factory=h,define=A:1,target=es2017,format=esm")
	if err != nil {
		t.Fatal(err)
	}
	if want := "tsx:define=A:1,format=esm,jsx-factory=h,target=es2017"; s.Canonical != want {
		t.Errorf("canonical %q, want %q", s.Canonical, want)
	}
	var keys []string
	for _, d := range transform.Steps() {
		if d.Name == "gzip" {
			for _, o := range d.Options {
				keys = append(keys, o.Key)
			}
		}
	}
	if got := strings.Join(keys, " "); got != "level min-size include-compressed" {
		t.Errorf("gzip options %q", got)
	}
	if _, err := transform.NewStep("br:min-size=-1"); !errors.Is(err, transform.ErrBadOption) {
		t.Errorf("br:min-size=-1: %v", err)
	}
}

// TestParseChainSourcemaps: the Sourcemaps option gives sourcemap=external
// to the steps that take it and were not given one, and to no other.
func TestParseChainSourcemaps(t *testing.T) {
	chain, err := transform.ParseChainOptions([]string{"bundle:minify=true", "typescript:sourcemap=inline", "minify", "gzip"}, transform.ChainOptions{Sourcemaps: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "bundle:minify=true,sourcemap=external | typescript:sourcemap=inline | minify | gzip"
	if got := chain.String(); got != want {
		t.Errorf("chain %q, want %q", got, want)
	}
}
