package embedgen_test

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	iofs "io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bakefs/bakefs/embedgen"
	bakefs "github.com/bakefs/bakefs/fs"
)

// ExampleGenerate writes a package from an output tree of two files and
// lists what it wrote. The tree is normally written by the transform
// pipeline; here it is made by hand.
func ExampleGenerate() {
	work, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	tree := filepath.Join(work, "dist")
	if err := writeExampleTree(tree, map[string]string{
		"js/app.js":                "console.log('hi')\n",
		".well-known/security.txt": "Contact: mailto:security@example.com\n",
	}); err != nil {
		log.Fatal(err)
	}

	dir := filepath.Join(work, "internal", "assets")
	err = embedgen.Generate(embedgen.Options{
		Tree:       tree,
		Dir:        dir,
		ImportPath: "example.com/app/internal/assets",
	})
	if err != nil {
		log.Fatal(err)
	}

	filepath.WalkDir(dir, func(path string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			fmt.Println(filepath.ToSlash(rel))
		}
		return err
	})
	// Output:
	// _data/.well-known/security.txt
	// _data/js/app.js
	// bakefs-generated.txt
	// bakefs-manifest.tsv
	// bakefs_embed.go
	// bakefs_embed_test.go
}

// writeExampleTree writes files and their manifest, with fingerprinted
// names, to the directory tree.
func writeExampleTree(tree string, files map[string]string) error {
	m := &bakefs.Manifest{Version: bakefs.ManifestVersion}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Join(tree, filepath.Dir(name)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tree, name), []byte(body), 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256([]byte(body))
		sri := sha512.Sum384([]byte(body))
		e := bakefs.Entry{
			Path:      name,
			Size:      int64(len(body)),
			Type:      "text/plain; charset=utf-8",
			SHA256:    hex.EncodeToString(sum[:]),
			Integrity: "sha384-" + base64.StdEncoding.EncodeToString(sri[:]),
		}
		e.Hashed = bakefs.HashedName(name, e.SHA256)
		m.Files = append(m.Files, e)
	}
	// The manifest lists files sorted by path.
	slices.SortFunc(m.Files, func(a, b bakefs.Entry) int { return strings.Compare(a.Path, b.Path) })
	raw, err := json.MarshalIndent(m, "", "  ")
	raw = append(raw, '\n') // the canonical form ends with a newline
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(tree, bakefs.ManifestName), raw, 0o644)
}
