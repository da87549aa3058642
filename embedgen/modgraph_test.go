package embedgen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestApplicationModuleGraph is the promise the runtime's own module makes:
// an application that imports a generated package and runs go mod tidy has
// no module in its graph but its own and the runtime's, so embedding its
// assets never upgrades the application's other requirements. Its go
// directive is the runtime's, the oldest Go the runtime supports.
func TestApplicationModuleGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	work := t.TempDir()
	tree := filepath.Join(work, "tree")
	writeTree(t, tree, smallTree())
	app := filepath.Join(work, "app")
	m := newAppModule(t, app, "example.com/app", runtimeGoVersion(t))
	if err := Generate(Options{Tree: tree, Dir: filepath.Join(app, "assets"), ImportPath: "example.com/app/assets"}); err != nil {
		t.Fatal(err)
	}
	put(t, app, "main.go", []byte(`package main

import (
	"log"
	"net/http"

	"example.com/app/assets"
)

func main() {
	http.Handle("/static/", http.StripPrefix("/static/", assets.Handler()))
	log.Fatal(http.ListenAndServe("localhost:8080", nil))
}
`))
	m.goCmd("mod", "tidy")
	got := strings.Fields(m.goCmd("list", "-m", "-f", "{{.Path}}", "all"))
	want := []string{"example.com/app", "github.com/bakefs/bakefs/fs"}
	if !slices.Equal(got, want) {
		t.Errorf("go list -m all after go mod tidy: %q, want %q", got, want)
	}
	if sum, err := os.ReadFile(filepath.Join(app, "go.sum")); err == nil && len(sum) > 0 {
		t.Errorf("go.sum lists modules:\n%s", sum)
	}
	m.goCmd("vet", "./...")
	m.goCmd("build", "-o", filepath.Join(work, "app.bin"), ".")
}

// runtimeGoVersion is the go directive of the runtime's go.mod.
func runtimeGoVersion(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "fs", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return v
		}
	}
	t.Fatal("fs/go.mod has no go directive")
	return ""
}
