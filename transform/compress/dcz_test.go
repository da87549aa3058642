package compress

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// releasePair is two versions of a script: the second is the first with
// three lines edited, as between two releases. The lines are made of
// pseudo-random names, so that each compresses on its own only so far.
func releasePair() (old, cur []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	name := func() string {
		var b []byte
		for range 4 + rng.IntN(8) {
			b = append(b, byte('a'+rng.IntN(26)))
		}
		return string(b)
	}
	var lines []string
	for range 3000 {
		lines = append(lines, "export function "+name()+"(event) { return "+name()+"(event.target, "+name()+"); }\n")
	}
	old = []byte(strings.Join(lines, ""))
	for _, i := range []int{100, 1500, 2900} {
		lines[i] = "export const " + name() + " = 1;\n"
	}
	return old, []byte(strings.Join(lines, ""))
}

func TestEncodeDCZHeader(t *testing.T) {
	old, cur := releasePair()
	out, err := EncodeDCZ(context.Background(), cur, old)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(old)
	if !bytes.Equal(out[:8], dczMagic[:]) || !bytes.Equal(out[8:DCZHeaderSize], sum[:]) {
		t.Fatalf("header %x, want the magic and the dictionary's SHA-256", out[:DCZHeaderSize])
	}
	frame := out[DCZHeaderSize:]
	if !bytes.Equal(frame[:4], []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		t.Fatalf("no Zstandard frame after the header: %x", frame[:4])
	}
	if fhd := frame[4]; fhd&3 != 0 {
		t.Fatalf("frame header descriptor %08b has a dictionary ID field", fhd)
	}
	again, err := EncodeDCZ(context.Background(), cur, old)
	if err != nil || !bytes.Equal(out, again) {
		t.Fatal("two encodings of the same file against the same dictionary differ")
	}
	alone, err := zstdEncode(cur, zstd.SpeedBestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if len(out)*20 > len(alone) {
		t.Fatalf("delta of a three-line edit is %d bytes, zstd alone %d: the dictionary was not used", len(out), len(alone))
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, old))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got, err := d.DecodeAll(frame, nil); err != nil || !bytes.Equal(got, cur) {
		t.Fatalf("decoding with the dictionary: %v", err)
	}
}

// TestEncodeDCZDecodesWithZstdCLI decodes deltas with Debian's zstd, an
// independent decoder: the frame after the 40-byte header, with the
// dictionary given by -D, is the new file.
func TestEncodeDCZDecodesWithZstdCLI(t *testing.T) {
	bin, err := exec.LookPath("zstd")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("zstd not installed (tools/codecs-setup.sh installs it)")
		}
		t.Skip("zstd not installed")
	}
	old, cur := releasePair()
	for name, c := range map[string]struct{ data, dict []byte }{
		"release":          {cur, old},
		"wpt":              {wptData, wptDictionary},
		"empty":            {nil, old},
		"unrelated":        {[]byte(strings.Repeat("unrelated bytes ", 500)), old},
		"large dictionary": {cur, append(bytes.Repeat([]byte{'-'}, MaxDictionary-len(old)), old...)},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := EncodeDCZ(context.Background(), c.data, c.dict)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			dict, frame := filepath.Join(dir, "dict"), filepath.Join(dir, "frame.zst")
			os.WriteFile(dict, c.dict, 0o644)
			os.WriteFile(frame, out[DCZHeaderSize:], 0o644)
			got, err := exec.Command(bin, "-q", "-d", "-c", "--long=27", "-D", dict, frame).Output()
			if err != nil {
				t.Fatalf("zstd -d -D: %v", err)
			}
			if !bytes.Equal(got, c.data) {
				t.Fatalf("zstd decoded %d bytes, want the %d of the new file", len(got), len(c.data))
			}
		})
	}
}

// The test vector of the web-platform-tests
// (fetch/compression-dictionary/resources/compressed-data.py): the dcz
// stream of "This is compressed test data using a test dictionary" against
// the dictionary "This is a test dictionary.\n", made there with the zstd
// CLI.
var (
	wptDictionary = []byte("This is a test dictionary.\n")
	wptData       = []byte("This is compressed test data using a test dictionary")
	wptDCZ        = []byte("\x5e\x2a\x4d\x18\x20\x00\x00\x00\x53\x96\x9b\xcf\x5e\x96\x0e\x0e\xdb\xf0\xa4\xbd\xde\x6b\x0b\x3e\x93\x81\xe1\x56\xde\x7f\x5b\x91\xce\x83\x91\x62\x42\x70\xf4\x16" +
		"\x28\xb5\x2f\xfd\x24\x34\xf5\x00\x00\x98\x63\x6f\x6d\x70\x72\x65\x73\x73\x65\x64\x61\x74\x61\x20\x75\x73\x69\x6e\x67\x03\x00\x59\xf9\x73\x54\x46\x27\x26\x10\x9e\x99\xf2\xbc")
)

// TestEncodeDCZWPTVector: the published vector's header is the one
// EncodeDCZ writes for its dictionary (whose hash the tests publish too),
// and its frame and EncodeDCZ's both decode, against the dictionary, to
// the published data.
func TestEncodeDCZWPTVector(t *testing.T) {
	out, err := EncodeDCZ(context.Background(), wptData, wptDictionary)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[:DCZHeaderSize], wptDCZ[:DCZHeaderSize]) {
		t.Fatalf("header %x, the vector's %x", out[:DCZHeaderSize], wptDCZ[:DCZHeaderSize])
	}
	if got := ":" + base64.StdEncoding.EncodeToString(out[8:DCZHeaderSize]) + ":"; got != ":U5abz16WDg7b8KS93msLPpOB4Vbef1uRzoORYkJw9BY=:" {
		t.Fatalf("dictionary hash %s", got)
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, wptDictionary))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for name, stream := range map[string][]byte{"published": wptDCZ, "ours": out} {
		if got, err := d.DecodeAll(stream[DCZHeaderSize:], nil); err != nil || !bytes.Equal(got, wptData) {
			t.Errorf("%s stream decodes to %q, %v", name, got, err)
		}
	}
}

func TestEncodeDCZRefusesLargeDictionary(t *testing.T) {
	if _, err := EncodeDCZ(context.Background(), []byte("x"), make([]byte, MaxDictionary+1)); err == nil {
		t.Fatal("a dictionary over the window was taken")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EncodeDCZ(ctx, []byte("x"), []byte("y")); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}
