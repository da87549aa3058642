package toolid

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/internal/streamfile"
)

// TestIdentityChanges: every part of the build information, and the
// executable's hash for a development build, changes the identity.
func TestIdentityChanges(t *testing.T) {
	base := Info{
		Main: Module{Path: "github.com/bakefs/bakefs", Version: "v1.2.0"},
		Go:   "go1.26.8",
		Deps: []Module{
			{Path: "github.com/evanw/esbuild", Version: "v0.28.2", Sum: "h1:a"},
			{Path: "github.com/molecule-man/go-brrr", Version: "v1.3.1", Sum: "h1:b"},
		},
		Exact: true,
	}
	exe := func(id string) func() (string, error) {
		return func() (string, error) { return id, nil }
	}
	id := func(info Info, sum string) string {
		t.Helper()
		s, err := identityOf(info, exe(sum))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ref := id(base, "e1")
	if id(base, "e2") != ref {
		t.Error("a released version depends on the executable's hash")
	}
	cases := map[string]func(i *Info){
		"bakefs version":     func(i *Info) { i.Main.Version = "v1.2.1" },
		"go version":         func(i *Info) { i.Go = "go1.27.0" },
		"esbuild version":    func(i *Info) { i.Deps[0].Version = "v0.28.3" },
		"brotli replacement": func(i *Info) { i.Deps[1].Sum = "h1:c" },
		"development build":  func(i *Info) { i.Main.Version, i.Exact = "(devel)", false },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			info := base
			info.Deps = append([]Module(nil), base.Deps...)
			change(&info)
			if id(info, "e1") == ref {
				t.Errorf("identity did not change")
			}
		})
	}
	dev := base
	dev.Main.Version, dev.Exact = "(devel)", false
	if id(dev, "e1") == id(dev, "e2") {
		t.Error("a development build does not depend on the executable's hash")
	}
}

// TestReadListsByteMakers: the test binary links every module that makes
// bytes, so Read finds them all, and String prints one a line.
func TestReadListsByteMakers(t *testing.T) {
	info := Read()
	text := info.String()
	if !strings.HasPrefix(text, "bakefs ") || !strings.Contains(text, info.Go) {
		t.Errorf("String() = %q", text)
	}
	if _, err := Identity(nil); err != nil {
		t.Fatal(err)
	}
}

// TestGoBuildID: the build ID read from the test binary is the one that
// go tool buildid prints, and a file that is not ELF has none.
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	want := strings.TrimSpace(string(out))
	if got, ok := goBuildID(exe); !ok || got != want {
		t.Errorf("goBuildID = %q, %v; go tool buildid says %q", got, ok, want)
	}
	if id, ok := goBuildID("toolid.go"); ok {
		t.Errorf("goBuildID of a Go source = %q, want none", id)
	}
	if _, err := Identity(func(string) (string, error) {
		t.Error("the executable was hashed though it has a build ID")
		return "", nil
	}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkIdentity is the cost of the identity of a development build
// (the test binary): its build ID read, against the whole executable
// hashed, which an executable without a build ID costs.
func BenchmarkIdentity(b *testing.B) {
	b.Run("buildid", func(b *testing.B) {
		for b.Loop() {
			if _, err := Identity(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hash", func(b *testing.B) {
		for b.Loop() {
			if _, err := identityOf(Read(), func() (string, error) {
				exe, _ := os.Executable()
				return streamfile.SHA256Hex(exe)
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
