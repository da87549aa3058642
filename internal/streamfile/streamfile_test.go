package streamfile

import (
	"bytes"
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

// FuzzEqual holds Equal to bytes.Equal of the file's bytes and want, for
// files of any length around the chunk size.
func FuzzEqual(f *testing.F) {
	long := strings.Repeat("0123456789abcdef", chunk/16)
	f.Add([]byte(""), []byte(""))
	f.Add([]byte("abc"), []byte("abd"))
	f.Add([]byte(long), []byte(long))
	f.Add([]byte(long+"x"), []byte(long))
	f.Add([]byte(long), []byte(long+"x"))
	f.Add([]byte(long+long[:100]), []byte(long+long[:99]+"!"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body, want []byte) {
		file := filepath.Join(dir, "f")
		if err := os.WriteFile(file, body, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Equal(file, want)
		if err != nil || got != bytes.Equal(body, want) {
			t.Fatalf("Equal(%d bytes, %d bytes) = %v, %v; want %v", len(body), len(want), got, err, bytes.Equal(body, want))
		}
	})
}
