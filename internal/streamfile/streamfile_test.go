package streamfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestSHA256Hex(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("bakefs ", 20000) // more than one read
	file := writeFile(t, dir, "f", body)
	sum := sha256.Sum256([]byte(body))
	got, err := SHA256Hex(file)
	if err != nil || got != hex.EncodeToString(sum[:]) {
		t.Errorf("SHA256Hex = %q, %v; want %x", got, err, sum)
	}
	if _, err := SHA256Hex(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := SHA256Hex(dir); err == nil {
		t.Error("a directory hashed without an error")
	}
}

func TestEqual(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("0123456789abcdef", 5000) // 80,000 bytes: three chunks
	for _, c := range []struct {
		name, body, want string
		equal            bool
	}{
		{"empty", "", "", true},
		{"short", "abc", "abc", true},
		{"long", long, long, true},
		{"one chunk", long[:chunk], long[:chunk], true},
		{"differs in the last chunk", long, long[:len(long)-1] + "x", false},
		{"differs in the first byte", long, "x" + long[1:], false},
		{"longer file", long + "!", long, false},
		{"shorter file", long[:len(long)-1], long, false},
		{"empty against bytes", "", "a", false},
	} {
		file := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "-"), c.body)
		if got, err := Equal(file, []byte(c.want)); got != c.equal || err != nil {
			t.Errorf("%s: Equal = %v, %v; want %v, nil", c.name, got, err, c.equal)
		}
	}
	if _, err := Equal(filepath.Join(dir, "missing"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if got, _ := Equal(dir, nil); got {
		t.Error("a directory equals nothing")
	}
}

func TestReadString(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{"", "one line\n", strings.Repeat("0123456789abcdef", 5000)} {
		file := writeFile(t, dir, "f", body)
		if got, err := ReadString(file); got != body || err != nil {
			t.Errorf("ReadString of %d bytes: %d bytes, %v", len(body), len(got), err)
		}
	}
	if _, err := ReadString(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := ReadString(dir); err == nil {
		t.Error("a directory read without an error")
	}
}
