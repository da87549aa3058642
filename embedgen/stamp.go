package embedgen

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// generatorVersion changes whenever Generate writes different bytes for the
// same inputs, so that packages written by an older generator are redone.
const generatorVersion = "1"

// stampPrefix starts the marker line that records the inputs' stamp.
const stampPrefix = "# stamp: "

// stamp identifies everything a package depends on: the generator version,
// the manifest (which fixes every data file's bytes by their SHA-256) and
// the options that reach the output.
func stamp(manifest []byte, o Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "bakefs embed %s\npackage %q\nimport %q\nform %d\n", generatorVersion, o.Package, o.ImportPath, o.Manifest)
	h.Write(manifest)
	return hex.EncodeToString(h.Sum(nil))
}

// upToDate reports whether dir already holds the package for this stamp:
// its marker records the stamp and every data file is there with its size.
// Generate then writes nothing, so a build with nothing changed touches
// nothing (and leaves make and editors nothing to reload).
func upToDate(dir, stamp string, files []treeFile) bool {
	data, err := os.ReadFile(filepath.Join(dir, MarkerFile))
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	found := false
	for sc.Scan() && !found {
		found = sc.Text() == stampPrefix+stamp
	}
	if !found {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, GoFile)); err != nil {
		return false
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(dir, dataDir, filepath.FromSlash(f.name)))
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != f.size {
			return false
		}
	}
	return true
}
