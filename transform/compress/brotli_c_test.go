package compress

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestBrotliMatchesC: the br step writes, byte for byte, what Google's C
// Brotli library writes for the same input, quality and window, at every
// quality 0 to 11 and every window bakefs chooses (10 to 22), over the
// input of the golden files and a generated corpus (text, random bytes,
// runs, and mixes of them, at sizes on both sides of each window's edge).
//
// Two builds of the C library are the references. Node's zlib links
// google/brotli (1.1.0 in Node 20, process.versions.brotli): every output
// must equal its output. Debian's brotli command line tool links the
// library it was built with (1.0.9 in Debian 12). The encoders of 1.0.9
// and 1.1.0 write different bytes below quality 9 (seen: qualities 0 to 4
// on most inputs over a few KiB, 5 to 8 on 2 MiB of runs, where
// andybalholm/brotli, a port of 1.0.x, writes what 1.0.9 does), so below
// quality 9, when the tool is older than 1.1.0, the tool must decode the
// output to the input; at 9 to 11, and at every quality with a newer
// tool, the bytes must be equal. Qualities 10 and 11 are encoded
// once with one processor and once with all of them, as go-brrr then runs
// its worker goroutines: the bytes must not depend on it.
//
// Under the race detector the corpus stops at 64 KiB.
func TestBrotliMatchesC(t *testing.T) {
	cli, err := exec.LookPath("brotli")
	if err != nil {
		t.Fatal("Debian's brotli is not installed (tools/codecs-setup.sh installs it): ", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: ", err)
	}
	cliVersion := commandVersion(t, cli, "--version")
	nodeVersion := strings.TrimSpace(commandOutput(t, node, "-p", "process.versions.brotli"))
	t.Logf("references: Node's zlib with brotli %s; %s (brotli %s)", nodeVersion, cli, cliVersion)
	cliOlder := versionLess(cliVersion, "1.1.0")

	dir := t.TempDir()
	corpus := brotliCorpus(raceEnabled)
	var jobs []nodeBrotliJob
	for i, c := range corpus {
		in := filepath.Join(dir, fmt.Sprintf("%02d.in", i))
		if err := os.WriteFile(in, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for q := 0; q <= 11; q++ {
			jobs = append(jobs, nodeBrotliJob{In: in, Out: fmt.Sprintf("%s.q%d.node", in, q), Quality: q, Window: brotliWindowFor(len(c.data))})
		}
	}
	runNodeBrotli(t, node, dir, jobs)

	for i, c := range corpus {
		in := filepath.Join(dir, fmt.Sprintf("%02d.in", i))
		lgwin := brotliWindowFor(len(c.data))
		for q := 0; q <= 11; q++ {
			t.Run(fmt.Sprintf("%s/%dB/w%d/q%d", c.name, len(c.data), lgwin, q), func(t *testing.T) {
				got := brotliEncodeAt(t, c.data, q, 0)
				if q >= 10 {
					if one := brotliEncodeAt(t, c.data, q, 1); !bytes.Equal(one, got) {
						t.Fatalf("one processor gives %d bytes, %d give %d", len(one), runtime.GOMAXPROCS(0), len(got))
					}
				}
				want, err := os.ReadFile(fmt.Sprintf("%s.q%d.node", in, q))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%d bytes; brotli %s in Node writes %d, first difference at byte %d", len(got), nodeVersion, len(want), firstDifference(got, want))
				}
				if q < 9 && cliOlder {
					decoded := commandOutputIn(t, bytes.NewReader(got), cli, "-d", "-c")
					if decoded != string(c.data) {
						t.Errorf("%s -d decodes %d bytes, want the %d of the input", cli, len(decoded), len(c.data))
					}
					return
				}
				tool := commandOutput(t, cli, "-c", "-q", strconv.Itoa(q), "-w", strconv.Itoa(lgwin), in)
				if tool != string(got) {
					t.Errorf("%d bytes; %s writes %d, first difference at byte %d", len(got), cli, len(tool), firstDifference(got, []byte(tool)))
				}
			})
		}
	}
}

// brotliEncodeAt runs brotliEncode with procs processors (0: as they are).
func brotliEncodeAt(t *testing.T, data []byte, quality, procs int) []byte {
	t.Helper()
	if procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	}
	out, err := brotliEncode(context.Background(), data, quality)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A brotliSample is one input of the corpus.
type brotliSample struct {
	name string
	data []byte
}

// brotliCorpus returns the inputs of TestBrotliMatchesC: the golden
// files' input, then for each window from 10 to 22 an input that just
// fills the window below it (one byte over its edge) and, in turn, one of
// each kind of content. small stops at 64 KiB.
func brotliCorpus(small bool) []brotliSample {
	corpus := []brotliSample{{"golden", jsLike(20000)}, {"empty", nil}, {"one byte", []byte("x")}}
	kinds := []struct {
		name string
		make func(n int, seed uint32) []byte
	}{
		{"js", func(n int, _ uint32) []byte { return jsLike(n)[:n] }},
		{"random", randomBytes},
		{"runs", byteRuns},
		{"mixed", mixedBytes},
	}
	for lgwin := brotliMinWindow; lgwin <= brotliMaxWindow; lgwin++ {
		n := 1<<(lgwin-1) - 16 + 1 // just too big for the window below
		if small && n > 64<<10 {
			break
		}
		k := kinds[lgwin%len(kinds)]
		corpus = append(corpus, brotliSample{k.name, k.make(n, uint32(lgwin))})
	}
	return corpus
}

// xorshift returns a deterministic pseudo-random sequence from seed.
func xorshift(seed uint32) func() uint32 {
	s := seed*2654435761 + 1
	return func() uint32 {
		s ^= s << 13
		s ^= s >> 17
		s ^= s << 5
		return s
	}
}

// randomBytes returns n incompressible bytes.
func randomBytes(n int, seed uint32) []byte {
	next, b := xorshift(seed), make([]byte, n)
	for i := range b {
		b[i] = byte(next())
	}
	return b
}

// byteRuns returns n bytes of runs of one byte, of random lengths.
func byteRuns(n int, seed uint32) []byte {
	next, b := xorshift(seed), make([]byte, 0, n)
	for len(b) < n {
		c, k := byte(next()), int(next()%300)+1
		b = append(b, bytes.Repeat([]byte{c}, min(k, n-len(b)))...)
	}
	return b
}

// mixedBytes returns n bytes alternating text, random bytes and copies of
// what came before, at distances up to the whole input.
func mixedBytes(n int, seed uint32) []byte {
	next, b := xorshift(seed), make([]byte, 0, n)
	text := jsLike(4096)
	for len(b) < n {
		k := min(int(next()%2048)+1, n-len(b))
		switch next() % 3 {
		case 0:
			at := int(next() % uint32(len(text)-k+1))
			b = append(b, text[at:at+k]...)
		case 1:
			b = append(b, randomBytes(k, next())...)
		default:
			if len(b) < k {
				continue
			}
			at := int(next() % uint32(len(b)-k+1))
			b = append(b, b[at:at+k]...)
		}
	}
	return b
}

// A nodeBrotliJob is one encoding that Node's zlib makes.
type nodeBrotliJob struct {
	In, Out         string
	Quality, Window int
}

// nodeBrotli encodes each job's input with zlib.brotliCompressSync, with
// the input's size as the size hint, as the brotli tool passes it.
const nodeBrotli = `
const zlib = require("zlib"), fs = require("fs");
for (const j of JSON.parse(fs.readFileSync(process.argv[1], "utf8"))) {
	const data = fs.readFileSync(j.In);
	fs.writeFileSync(j.Out, zlib.brotliCompressSync(data, {params: {
		[zlib.constants.BROTLI_PARAM_QUALITY]: j.Quality,
		[zlib.constants.BROTLI_PARAM_LGWIN]: j.Window,
		[zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
	}}));
}
`

// runNodeBrotli runs every job in one Node process.
func runNodeBrotli(t *testing.T, node, dir string, jobs []nodeBrotliJob) {
	t.Helper()
	list, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "jobs.json")
	if err := os.WriteFile(file, list, 0o644); err != nil {
		t.Fatal(err)
	}
	commandOutput(t, node, "-e", nodeBrotli, file)
}

// commandOutput runs a command and returns its standard output, failing
// the test when it fails.
func commandOutput(t *testing.T, name string, args ...string) string {
	t.Helper()
	return commandOutputIn(t, nil, name, args...)
}

// commandOutputIn is commandOutput with stdin as the command's input.
func commandOutputIn(t *testing.T, stdin *bytes.Reader, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args[:min(len(args), 3)], " "), err, stderr.Bytes())
	}
	return string(out)
}

// commandVersion returns the last field of a command's version line:
// "brotli 1.0.9" gives "1.0.9".
func commandVersion(t *testing.T, name string, args ...string) string {
	t.Helper()
	fields := strings.Fields(commandOutput(t, name, args...))
	if len(fields) == 0 {
		t.Fatalf("%s %s prints nothing", name, strings.Join(args, " "))
	}
	return fields[len(fields)-1]
}

// versionLess reports whether dotted version a is below b.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(as), len(bs)) {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// firstDifference returns the offset of the first byte where a and b
// differ, or the shorter length when one is a prefix of the other.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
