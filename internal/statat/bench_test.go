package statat

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkStat stats the files of a tree of 2,000 files in 20
// directories, five levels below the temporary directory as an output
// tree usually is, in path order: with os.Stat of the joined path, as the
// tree check did, and with a Tree. Compare the two in one run
// (`go test -bench Stat ./internal/statat`); ns/op is per file.
func BenchmarkStat(b *testing.B) {
	root := filepath.Join(b.TempDir(), "project", "build", "site")
	var names []string
	for d := range 20 {
		for f := range 100 {
			name := fmt.Sprintf("dir%02d/file%03d.css", d, f)
			file := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(name), 0o644); err != nil {
				b.Fatal(err)
			}
			names = append(names, name)
		}
	}
	b.Run("os.Stat", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			name := names[i%len(names)]
			fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
			if err != nil || fi.Size() != int64(len(name)) {
				b.Fatal(name, err)
			}
		}
	})
	b.Run("Tree", func(b *testing.B) {
		tree := New(root)
		defer tree.Close()
		for i := 0; b.Loop(); i++ {
			name := names[i%len(names)]
			if size, ok := tree.RegularSize(name); !ok || size != int64(len(name)) {
				b.Fatal(name)
			}
		}
	})
}
