package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/bench/sidebyside"
)

// nonceScript writes, in the package directory it is given, a constant
// never seen before, so that go build compiles the package again.
const nonceScript = `#!/usr/bin/env bash
printf 'package %s\n\nconst nonce = %s\n' "$(basename "$1")" "$(date +%s%N)" >"$1/zz_nonce.go"
`

// An embedder is one way of embedding the tree in section f: the package
// it writes, the name of its binary (out-NAME), and the imports and body
// of a main that reads one file from it.
type embedder struct {
	name, pkg, out, imports, body string
}

// compile measures section f: go build of a command after the embedded
// tree changed, for bakefs's generated package, a hand-written go:embed,
// go-bindata and vfsgen, each embedding the same 750 files; then
// bench/compile.
func compile(s *suite) {
	s.logf("embed compile cost")
	s.out("### f. Compile cost of embedding ~5 MB in 750 files", "")
	f := s.path("compile")
	src := filepath.Join(f, "src")
	s.cmd(s.root, nil, s.tool("gen"), "-out", src, "-files", "750", "-size", "6800")
	// One tree for every tool: the 750 files as they are (a transform with
	// no step), plus the manifest that bakefs embed needs.
	web := filepath.Join(src, "web")
	files := s.files(web, nil)
	tree := filepath.Join(f, "tree")
	s.cmd(web, nil, s.bakefs, append([]string{"transform", "--no-cache", "--root", ".", "--out", tree}, files...)...)
	mod := filepath.Join(f, "mod")
	s.runtimeModule("benchembed", mod)
	s.bakefsRun("embed", "--tree", tree, "--out", filepath.Join(mod, "bakefsassets"), "--package", "bakefsassets")
	s.copyTree(tree, filepath.Join(mod, "embedassets", "tree"))
	s.writeFile(filepath.Join(mod, "embedassets", "embed.go"), "package embedassets\n\nimport \"embed\"\n\n//go:embed all:tree\nvar Assets embed.FS\n")
	s.mkdir(filepath.Join(mod, "bindataassets"), filepath.Join(mod, "vfsgenassets"))
	s.cmd(s.root, nil, s.peerBin("go-bindata"), "-pkg", "bindataassets", "-o", filepath.Join(mod, "bindataassets", "bindata.go"), "-prefix", tree, tree+"/...")
	s.cmd(s.root, nil, s.peerBin("vfsgen-gen"), tree, filepath.Join(mod, "vfsgenassets", "vfsgen.go"), "vfsgenassets")
	// One command per tool, each reading one file so that the linker keeps
	// the data.
	file := files[0]
	embedders := []embedder{
		{"bakefs", "bakefsassets", "bakefs", "", fmt.Sprintf("b, err := bakefsassets.FS.ReadFile(%q)\n\tfmt.Println(len(b), err)", file)},
		{"go:embed", "embedassets", "embed", "", fmt.Sprintf("b, err := embedassets.Assets.ReadFile(%q)\n\tfmt.Println(len(b), err)", "tree/"+file)},
		{"go-bindata", "bindataassets", "bindata", "", fmt.Sprintf("b, err := bindataassets.Asset(%q)\n\tfmt.Println(len(b), err)", file)},
		{"vfsgen", "vfsgenassets", "vfsgen", "\t\"io\"\n", fmt.Sprintf("f, err := vfsgenassets.Assets.Open(%q)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tb, err := io.ReadAll(f)\n\tfmt.Println(len(b), err)", "/"+file)},
	}
	nonce := s.path("nonce.sh")
	s.writeFile(nonce, nonceScript)
	var cmds []sidebyside.Command
	for _, e := range embedders {
		s.writeFile(filepath.Join(mod, "cmd", e.pkg, "main.go"),
			fmt.Sprintf("package main\n\nimport (\n\t\"fmt\"\n%s\n\t\"benchembed/%s\"\n)\n\nfunc main() {\n\t%s\n}\n", e.imports, e.pkg, e.body))
		bin := filepath.Join(f, e.pkg+".bin")
		s.cmd(mod, []string{"GOFLAGS=-mod=mod"}, "go", "build", "-o", bin, "./cmd/"+e.pkg)
		if out := s.cmd(mod, nil, bin); !strings.HasSuffix(out, " <nil>\n") {
			s.fail("%s reads no file: %s", e.pkg, out)
		}
		cmds = append(cmds, contender(e.name, fmt.Sprintf("GOFLAGS=-mod=mod go build -o %s/out-%s ./cmd/%s", f, e.out, e.pkg), "bash "+nonce+" "+filepath.Join(mod, e.pkg)))
	}
	var treeSize int64
	for _, name := range files {
		treeSize += s.size(filepath.Join(tree, name))
	}
	// Each run compiles the asset package again (a new constant in it) and
	// links the command; the standard library stays in the shared cache.
	s.compare(comparison{
		title:  fmt.Sprintf("go build after the embedded tree changed (%d files, %d B)", len(files), treeSize),
		warmup: 1, rounds: s.rounds, dir: mod, env: []string{"GOCACHE=" + filepath.Join(f, "gocache")},
		cmds: cmds,
	})
	goFiles, err := filepath.Glob(filepath.Join(mod, "bakefsassets", "*.go"))
	s.check(err)
	dataFiles := s.files(filepath.Join(mod, "bakefsassets"), func(name string) bool { return !strings.HasSuffix(name, ".go") })
	s.outf("Generated Go source: bakefs %d B (data in %d embedded files), go-bindata %d B (gzip in string literals), vfsgen %d B (gzip in string literals).",
		s.size(goFiles...), len(dataFiles), s.size(filepath.Join(mod, "bindataassets", "bindata.go")), s.size(filepath.Join(mod, "vfsgenassets", "vfsgen.go")))
	s.outf("Binary: bakefs %d B, go:embed %d B, go-bindata %d B, vfsgen %d B.",
		s.size(f+"/out-bakefs"), s.size(f+"/out-embed"), s.size(f+"/out-bindata"), s.size(f+"/out-vfsgen"))
	s.outf("Peers: go-bindata %s, vfsgen %s; peak RSS is that of go build and the compiler and linker it waits for.", goBindataVersion, vfsgenVersion)
	s.out("")
	if _, err := os.Stat(filepath.Join(s.root, "bench", "compile", "main.go")); err != nil {
		return
	}
	s.logf("bench/compile")
	s.out("#### bench/compile (generated package vs hand-written //go:embed)", "")
	c := exec.Command("go", "run", "./bench/compile", "-sizes", "750:5", "-runs", "3")
	c.Dir = s.root
	out, err := c.CombinedOutput()
	if err != nil {
		s.outf("bench/compile failed: %s", strings.TrimRight(tail(string(out), 3), "\n"))
		s.out("")
		return
	}
	s.fenced(string(out))
}
