package filehash

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

func TestSHA256Hex(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("bakefs ", 20000) // more than one read
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
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
