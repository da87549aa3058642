package remote

import (
	"fmt"
	"strings"
	"testing"
)

func TestActionResultRoundTrip(t *testing.T) {
	files := []File{
		{Path: EntryPath, SHA256: strings.Repeat("a", 64), Size: 300},
		{Path: "js/app.js", SHA256: strings.Repeat("b", 64), Size: 1 << 40},
		{Path: "empty.txt", SHA256: strings.Repeat("c", 64)},
	}
	wire := EncodeActionResult(files)
	got, err := DecodeActionResult(wire)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(files) {
		t.Fatalf("decode(encode) = %v, %v; want %v", got, err, files)
	}
	// Fields bakefs does not write (exit_code, stdout_raw) are skipped.
	extra := append(append([]byte{4<<3 | wireVarint, 1}, wire...), 5<<3|wireBytes, 2, 'h', 'i')
	if got, err := DecodeActionResult(extra); err != nil || len(got) != 3 {
		t.Fatalf("with other fields: %v, %v", got, err)
	}
	for name, b := range map[string][]byte{
		"truncated":   wire[:len(wire)-3],
		"json":        []byte(`{"outputs":[]}`),
		"field zero":  {0, 1},
		"long length": {2<<3 | wireBytes, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := DecodeActionResult(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
