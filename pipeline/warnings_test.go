package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

func init() {
	transform.Register("test-warn", "1", "warns about files that hold WARN (tests only)", transform.Content, func(struct{}) (transform.Step, error) {
		return transform.EachAsset(func(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
			b := a.Clone()
			if strings.Contains(string(a.Data), "WARN") {
				b.Warnings = append(b.Warnings, &transform.SourceError{File: a.Source, Line: 1, Warning: true, Msg: "found WARN"})
			}
			return []*transform.Asset{b}, nil
		}), nil
	})
}

// TestStepWarnings: a step's warnings are the run's, reported again by a
// run that takes the job from the cache or from an Incremental's memory,
// and errors that stop the run with Strict.
func TestStepWarnings(t *testing.T) {
	root := writeSources(t, map[string]string{"a.txt": "WARN\n", "b.txt": "fine\n"})
	ageAll(t, root) // out of the racy window, so that the cache keeps the runs
	cache := &Cache{Dir: t.TempDir()}
	inc := &Incremental{}
	want := "a.txt:1: warning: found WARN"
	for i, p := range []*Pipeline{
		{Root: root},
		{Root: root, Cache: cache},
		{Root: root, Cache: cache},
		{Root: root, Cache: cache, Incremental: inc},
		{Root: root, Cache: cache, Incremental: inc},
	} {
		res, err := p.Run(context.Background(), jobsFor(t, root, "test-warn"))
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if i >= 2 && res.Stats.Ran != 0 {
			t.Errorf("run %d ran %d jobs, want all from the cache", i, res.Stats.Ran)
		}
		if got := fmt.Sprint(res.Warnings); got != "["+want+"]" {
			t.Errorf("run %d (%+v): warnings %s, want [%s]", i, res.Stats, got, want)
		}
	}
	_, err := (&Pipeline{Root: root, Cache: cache, Strict: true}).Run(context.Background(), jobsFor(t, root, "test-warn"))
	var se *transform.SourceError
	if !errors.As(err, &se) || se.Warning || se.Error() != "a.txt:1: error: found WARN" {
		t.Errorf("strict run: %v, want the warning as an error", err)
	}
}
