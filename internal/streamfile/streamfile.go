// Package streamfile reads files touching as little memory as it can: it
// hashes a file's bytes or compares them with given bytes as they are
// read, without holding them, and reads a file that is to be kept as text
// straight into a string. A build with nothing changed reads files of
// hundreds of kilobytes this way, where reading each into memory first
// (and copying it into a string) was most of the memory it touched.
package streamfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
)

// SHA256Hex returns the hex SHA-256 of the file's bytes.
func SHA256Hex(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// chunk is how much Equal reads at a time.
const chunk = 32 << 10

// Equal reports whether the file holds exactly want. A file of another
// size is not read.
func Equal(name string, want []byte) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(want)) {
		return false, err
	}
	buf := make([]byte, min(chunk, len(want)+1))
	for {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(want)+1)])
		if !bytes.Equal(buf[:n], want[:min(n, len(want))]) || n > len(want) {
			return false, nil
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(want) == 0, nil
		case err != nil:
			return false, err
		}
	}
}

// ReadString returns the file's bytes as a string, read into it directly:
// what os.ReadFile then a conversion would do with one copy of the bytes
// instead of two. Strings sliced from it share its memory.
func ReadString(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		b.Grow(int(fi.Size()))
	}
	if _, err := io.Copy(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}
