package transform_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

// The vectors are the FIPS 180-2 examples ("abc") and the empty message.
func TestSHA256Hex(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			if got := transform.SHA256Hex([]byte(tt.in)); got != tt.want {
				t.Errorf("transform.SHA256Hex(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestIntegrity(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"},
		{"abc", "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			if got := transform.Integrity([]byte(tt.in)); got != tt.want {
				t.Errorf("transform.Integrity(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestHashStep(t *testing.T) {
	in := []*transform.Asset{
		{Path: "app.js", Data: []byte("x")},
		{Path: "app.js.map", Data: []byte("{}"), Encodings: []transform.Encoding{{Name: "gzip", Data: []byte("z")}}},
	}
	out, err := steptest.Run(t, "hash", in...)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("got %d assets, want %d", len(out), len(in))
	}
	for i, a := range out {
		if !a.Hashed || a.Path != in[i].Path || !bytes.Equal(a.Data, in[i].Data) || len(a.Encodings) != len(in[i].Encodings) {
			t.Errorf("asset %d: got %+v, want %s marked Hashed and otherwise unchanged", i, a, in[i].Path)
		}
		if in[i].Hashed {
			t.Errorf("input asset %d was modified", i)
		}
	}
	if _, err := transform.NewStep("hash:len=8"); !errors.Is(err, transform.ErrBadOption) {
		t.Errorf("hash with an option: got %v, want transform.ErrBadOption", err)
	}
	s, err := transform.NewStep("hash")
	if err != nil || s.Kind != transform.Finishing {
		t.Errorf("hash is not a finishing step: %v, %v", s, err)
	}
}

func ExampleSHA256Hex() {
	fmt.Println(transform.SHA256Hex([]byte("abc")))
	// Output: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}

func ExampleIntegrity() {
	fmt.Println(transform.Integrity([]byte("abc")))
	// Output: sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn
}
