package embedgen

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadMarker reads back what marker writes, with Unix and Windows line
// ends, and refuses a file that does not start with the header.
func TestReadMarker(t *testing.T) {
	dir := t.TempDir()
	names := []string{"_data/a.css", "_data/js/app.js", "bakefs_embed.go"}
	written := string(marker("s1", "g1 -", names))
	for _, c := range []struct{ name, body string }{
		{"unix", written},
		{"windows", strings.ReplaceAll(written, "\n", "\r\n")},
		{"no final newline", strings.TrimSuffix(written, "\n")},
	} {
		file := filepath.Join(dir, c.name)
		if err := os.WriteFile(file, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := readMarker(file)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := map[string]bool{}
		for _, n := range names {
			want[n] = true
		}
		if m.stamp != "s1" || m.generated != "g1 -" || !reflect.DeepEqual(m.names, want) {
			t.Errorf("%s: stamp %q, generated %q, names %v; want s1, %q, %v", c.name, m.stamp, m.generated, m.names, "g1 -", want)
		}
	}
	for _, body := range []string{"", "package assets\n", "\n" + written} {
		file := filepath.Join(dir, "foreign")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readMarker(file); !errors.Is(err, ErrForeignDir) {
			t.Errorf("marker %q: %v, want ErrForeignDir", body, err)
		}
	}
}
