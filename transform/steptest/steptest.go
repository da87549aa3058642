// Package steptest helps test steps: it builds a step from its text in
// the step language, as a chain would, and runs it on assets.
package steptest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

// Run builds the step written text and runs it on in with the release
// profile and no source root. A text that does not build fails the test.
func Run(t testing.TB, text string, in ...*transform.Asset) ([]*transform.Asset, error) {
	t.Helper()
	return RunProfile(t, text, transform.Release, in...)
}

// RunProfile is Run with the profile p.
func RunProfile(t testing.TB, text string, p transform.Profile, in ...*transform.Asset) ([]*transform.Asset, error) {
	t.Helper()
	s, err := transform.NewStep(text)
	if err != nil {
		t.Fatalf("NewStep(%q): %v", text, err)
	}
	return s.Step.Run(transform.NewContext(context.Background(), "", p), in)
}

// CheckBadOption checks that transform.NewStep refuses text with an error
// that wraps transform.ErrBadOption and contains want.
func CheckBadOption(t testing.TB, text, want string) {
	t.Helper()
	_, err := transform.NewStep(text)
	if !errors.Is(err, transform.ErrBadOption) || !strings.Contains(err.Error(), want) {
		t.Errorf("NewStep(%q) = %v, want ErrBadOption containing %q", text, err, want)
	}
}
