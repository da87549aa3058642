package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// pageReference is a src or href of index.html that names a file of the
// output by its absolute path.
var pageReference = regexp.MustCompile(`(src|href)="?/[^" >]+`)

// pageFiles returns the files that out/index.html names by absolute path,
// relative to out, and those of them that are not regular files of out.
func (s *suite) pageFiles(out string) (page, missing []string) {
	for _, ref := range pageReference.FindAllString(s.readFile(filepath.Join(out, "index.html")), -1) {
		_, path, _ := strings.Cut(ref, "/")
		page = append(page, path)
		if fi, err := os.Stat(filepath.Join(out, path)); err != nil || !fi.Mode().IsRegular() {
			missing = append(missing, path)
		}
	}
	return page, missing
}
