package embedgen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/bakefs/bakefs/internal/streamfile"
)

// generatorVersion changes whenever Generate writes different bytes for the
// same inputs, so that packages written by an older generator are redone.
const generatorVersion = "3"

// stampPrefix starts the marker line that records the inputs' stamp, and
// generatedPrefix the one that records the generated files' SHA-256.
const (
	stampPrefix     = "# stamp: "
	generatedPrefix = "# generated: "
)

// stamp identifies everything a package depends on: the generator version,
// the manifest (which fixes every data file's bytes by their SHA-256) and
// the options that reach the output.
func stamp(manifest []byte, o Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "bakefs embed %s\npackage %q\nimport %q\nform %d\n", generatorVersion, o.Package, o.ImportPath, o.Manifest)
	h.Write(manifest)
	return hex.EncodeToString(h.Sum(nil))
}

// generatedSums returns the SHA-256 of the Go file and of the table ("-"
// when there is none), as the marker records them.
func generatedSums(goFile, table []byte) string {
	g := sha256.Sum256(goFile)
	t := noTable
	if table != nil {
		sum := sha256.Sum256(table)
		t = hex.EncodeToString(sum[:])
	}
	return joinSums(hex.EncodeToString(g[:]), t)
}

// noTable stands for the table's SHA-256 when there is no table.
const noTable = "-"

// joinSums is the marker's form of the two hex sums.
func joinSums(goFile, table string) string { return goFile + " " + table }

// stampedUpToDate reports whether dir already holds the package for the
// inputs of stamp, without making the package again: its marker records
// that stamp, which fixes every byte the generator would write, the Go
// file and table are still the bytes the marker records the SHA-256 of
// (hashed as they are read, not held: the table of a large tree is
// hundreds of kilobytes), and every file the marker lists is there. This
// is how a build with nothing changed finds the package current; when it
// does not hold, upToDate compares what the generator makes now.
func stampedUpToDate(dir, stamp string, owned ownedDir) bool {
	if !owned.exists || owned.stamp != stamp || owned.generated == "" || len(owned.present) != owned.listed+1 {
		return false
	}
	goSum, err := streamfile.SHA256Hex(filepath.Join(dir, GoFile))
	if err != nil {
		return false
	}
	tableSum := noTable
	if owned.present[TableFile] {
		if tableSum, err = streamfile.SHA256Hex(filepath.Join(dir, TableFile)); err != nil {
			return false
		}
	}
	return joinSums(goSum, tableSum) == owned.generated
}

// upToDate reports whether dir already holds the package: the generated
// files (marker, Go file, table) are byte for byte what this generator
// makes now — so a package written by an older generator, or from other
// inputs, is redone — and every data file is there (present, from
// checkOwned's walk). Data files are neither re-read nor stat'ed: they are
// copies of the tree, verified by SHA-256 when they were written, and
// bakefs build --check compares them byte for byte. Generate then writes
// nothing, so a build with nothing changed touches nothing (and leaves
// make and editors nothing to reload).
func upToDate(dir string, gen generatedFiles, files []treeFile, present map[string]bool) bool {
	same := func(name string, want []byte) bool {
		ok, err := streamfile.Equal(filepath.Join(dir, name), want)
		return err == nil && ok
	}
	if !same(MarkerFile, gen.marker) || !same(GoFile, gen.goFile) || !same(TestFile, gen.test) {
		return false
	}
	if gen.table != nil && !same(TableFile, gen.table) {
		return false
	}
	for _, f := range files {
		if !present[dataDir+"/"+f.name] {
			return false
		}
	}
	return true
}
