package dirswap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReplace(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	write := func(content string) {
		t.Helper()
		tmp, err := Temp(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, "f"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Replace(dir, tmp); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "f"))
		if err != nil || string(got) != content {
			t.Fatalf("after Replace: %q, %v; want %q", got, err, content)
		}
	}
	write("one") // dir absent
	write("two") // dir present: exchanged
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != "out" {
		t.Fatalf("beside the directory: %v, want only out", entries)
	}
}

func TestTempCleansLeftovers(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	left, err := Temp(dir) // a run that crashed before Replace
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(left, "half"), []byte("x"), 0o644)
	other := filepath.Join(parent, ".other"+tempMarker+"1") // another directory's: kept
	os.Mkdir(other, 0o755)
	tmp, err := Temp(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("leftover %s still there: %v", left, err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("another directory's temporary was removed: %v", err)
	}
	if err := Replace(dir, tmp); err != nil {
		t.Fatal(err)
	}
}

func TestRenameAside(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	os.WriteFile(filepath.Join(a, "new"), nil, 0o644)
	os.WriteFile(filepath.Join(b, "old"), nil, 0o644)
	if err := renameAside(a, b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b, "new")); err != nil {
		t.Fatal("b does not hold the new content")
	}
	if _, err := os.Stat(filepath.Join(a, "old")); err != nil {
		t.Fatal("a does not hold the previous content")
	}
}
