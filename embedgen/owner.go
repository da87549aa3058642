package embedgen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// MarkerFile is the file, at the root of a package directory, in which
// Generate lists every file it wrote there. Its first line is markerHeader.
// Generate replaces a directory only when it does not exist, holds no file
// at any depth (only empty directories, if anything), or holds nothing but
// the files its marker lists (and their directories), so that a mistaken
// target such as the module root is refused, never emptied.
const MarkerFile = "bakefs-generated.txt"

const markerHeader = "# bakefs embed: this directory is generated and replaced whole on each run."

// marker returns the content of MarkerFile listing names, sorted
// slash-separated paths relative to the package directory.
func marker(stamp string, names []string) []byte {
	var b bytes.Buffer
	b.WriteString(markerHeader + "\n")
	b.WriteString("# bakefs refuses to replace it if it holds any file not listed here.\n")
	b.WriteString(stampPrefix + stamp + "\n")
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return b.Bytes()
}

// checkOwned reports whether dir exists, and refuses it with a
// *fs.PathError (Op "replace", wrapping ErrForeignDir) naming the first
// entry, in lexical order, that Generate did not write: anything but a
// directory in a directory without a marker, anything a marker does not
// list, a symbolic link. A dir without a marker that holds only
// directories, however deep, holds nothing to lose and is accepted: a
// build system creates the output directories it expects (Bazel, the
// declared _data directory) before the action runs. A dir that is itself a
// symbolic link or not a directory is refused too.
//
// present lists the files a marker-owned dir holds (slash-separated,
// relative to dir), so that the caller can tell whether it is complete
// without a stat of each.
func checkOwned(dir string) (exists bool, present map[string]bool, err error) {
	foreign := func(file, why string) error {
		return &iofs.PathError{Op: "replace", Path: file, Err: fmt.Errorf("%w (%s)", ErrForeignDir, why)}
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return false, nil, nil
	case err != nil:
		return false, nil, err
	case fi.Mode()&iofs.ModeSymlink != 0:
		return true, nil, foreign(dir, "a symbolic link, not a directory")
	case !fi.IsDir():
		return true, nil, foreign(dir, "not a directory")
	}
	listed, err := readMarker(filepath.Join(dir, MarkerFile))
	if errors.Is(err, iofs.ErrNotExist) {
		// No marker: only directories may be there. WalkDir does not
		// follow symbolic links, so a link to a directory is refused too.
		err := filepath.WalkDir(dir, func(file string, d iofs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return foreign(file, "no "+MarkerFile+" in "+dir)
			}
			return nil
		})
		return true, nil, err
	}
	if err != nil {
		return true, nil, err
	}
	present = make(map[string]bool, len(listed))
	dirs := map[string]bool{".": true}
	for name := range listed {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	err = filepath.WalkDir(dir, func(file string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, file)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t.IsDir() && dirs[rel]:
			return nil
		case t.IsRegular() && (listed[rel] || rel == MarkerFile):
			present[rel] = true
			return nil
		case t.IsDir():
			return foreign(file, "a directory "+MarkerFile+" does not list")
		case t.IsRegular():
			return foreign(file, "a file "+MarkerFile+" does not list")
		default:
			return foreign(file, "not a regular file")
		}
	})
	return true, present, err
}

// readMarker returns the names a marker file lists. A file that does not
// start with markerHeader is not a marker, and is an error.
func readMarker(file string) (map[string]bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || sc.Text() != markerHeader {
		return nil, &iofs.PathError{Op: "replace", Path: file, Err: fmt.Errorf("%w (not a marker written by bakefs)", ErrForeignDir)}
	}
	names := make(map[string]bool)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			names[line] = true
		}
	}
	return names, sc.Err()
}
