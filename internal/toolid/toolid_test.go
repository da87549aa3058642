package toolid

import (
	"strings"
	"testing"
)

// TestIdentityChanges: every part of the build information, and the
// executable's hash for a development build, changes the identity.
func TestIdentityChanges(t *testing.T) {
	base := Info{
		Main: Module{Path: "github.com/bakefs/bakefs", Version: "v1.2.0"},
		Go:   "go1.26.8",
		Deps: []Module{
			{Path: "github.com/evanw/esbuild", Version: "v0.28.2", Sum: "h1:a"},
			{Path: "github.com/andybalholm/brotli", Version: "v1.3.0", Sum: "h1:b"},
		},
		Exact: true,
	}
	exe := func(sum string) func(string) (string, error) {
		return func(string) (string, error) { return sum, nil }
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
