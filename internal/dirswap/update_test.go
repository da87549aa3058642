package dirswap

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestUpdate(t *testing.T) {
	read := func(t *testing.T, dir string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "f"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	beside := func(t *testing.T, parent string) int {
		t.Helper()
		entries, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	setup := func(t *testing.T) (parent, dir string) {
		parent = t.TempDir()
		dir = filepath.Join(parent, "out")
		os.Mkdir(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "f"), []byte("old"), 0o644)
		return parent, dir
	}
	fill := func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "f"), []byte("new"), 0o644) }

	t.Run("commit", func(t *testing.T) {
		parent, dir := setup(t)
		u, err := Prepare(dir, fill)
		if err != nil {
			t.Fatal(err)
		}
		if !u.Changed() || u.Dir() != dir || u.Path() == dir {
			t.Fatalf("Changed %v, Dir %s, Path %s", u.Changed(), u.Dir(), u.Path())
		}
		if got := read(t, u.Path()); got != "new" {
			t.Fatalf("before Commit, Path holds %q", got)
		}
		if got := read(t, dir); got != "old" {
			t.Fatalf("before Commit, dir holds %q", got)
		}
		if err := u.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := read(t, dir); got != "new" || u.Changed() || u.Path() != dir {
			t.Fatalf("after Commit: dir holds %q, Changed %v, Path %s", got, u.Changed(), u.Path())
		}
		u.Discard() // after Commit: nothing
		if got := read(t, dir); got != "new" || beside(t, parent) != 1 {
			t.Fatalf("after Commit and Discard: dir holds %q, %d entries beside", got, beside(t, parent))
		}
	})
	t.Run("discard", func(t *testing.T) {
		parent, dir := setup(t)
		u, err := Prepare(dir, fill)
		if err != nil {
			t.Fatal(err)
		}
		u.Discard()
		if err := u.Commit(); err != nil { // after Discard: nothing
			t.Fatal(err)
		}
		if got := read(t, dir); got != "old" || u.Changed() || beside(t, parent) != 1 {
			t.Fatalf("after Discard: dir holds %q, Changed %v, %d entries beside", got, u.Changed(), beside(t, parent))
		}
	})
	t.Run("fill fails", func(t *testing.T) {
		parent, dir := setup(t)
		errFill := errors.New("fill")
		u, err := Prepare(dir, func(tmp string) error { fill(tmp); return errFill })
		if err != errFill || u != nil {
			t.Fatalf("Prepare = %v, %v; want nil, %v", u, err, errFill)
		}
		if got := read(t, dir); got != "old" || beside(t, parent) != 1 {
			t.Fatalf("after a failed Prepare: dir holds %q, %d entries beside", got, beside(t, parent))
		}
	})
	t.Run("unchanged", func(t *testing.T) {
		parent, dir := setup(t)
		if _, err := Temp(dir); err != nil { // a crashed run's leftover
			t.Fatal(err)
		}
		u, err := Unchanged(dir)
		if err != nil {
			t.Fatal(err)
		}
		if u.Changed() || u.Path() != dir || beside(t, parent) != 1 {
			t.Fatalf("Changed %v, Path %s, %d entries beside", u.Changed(), u.Path(), beside(t, parent))
		}
		if err := u.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := read(t, dir); got != "old" {
			t.Fatalf("after Commit: dir holds %q", got)
		}
	})
}
