package embedgen

import (
	"bytes"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/internal/streamfile"
)

// MarkerFile is the file, at the root of a package directory, in which
// Generate lists every file it wrote there. Its first line is markerHeader.
// Generate replaces a directory only when it does not exist, holds no file
// at any depth (only empty directories, if anything), or holds nothing but
// the files its marker lists (and their directories), so that a mistaken
// target such as the module root is refused, never emptied.
const MarkerFile = "bakefs-generated.txt"

const markerHeader = "# bakefs embed: this directory is generated and replaced whole on each run."

// marker returns the content of MarkerFile: the stamp of the inputs, the
// SHA-256 of the generated files as generatedSums gives them, and names,
// sorted slash-separated paths relative to the package directory.
func marker(stamp, generated string, names []string) []byte {
	var b bytes.Buffer
	b.WriteString(markerHeader + "\n")
	b.WriteString("# bakefs refuses to replace it if it holds any file not listed here.\n")
	b.WriteString(stampPrefix + stamp + "\n")
	b.WriteString(generatedPrefix + generated + "\n")
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return b.Bytes()
}

// An ownedDir is what checkOwned found of a package directory.
type ownedDir struct {
	exists bool
	// present lists the files a marker-owned dir holds (slash-separated,
	// relative to dir), the marker included; listed is how many files the
	// marker lists.
	present map[string]bool
	listed  int
	// stamp and generated are the marker's lines of those names ("" when
	// there is no marker, or it has none).
	stamp, generated string
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
// What it found tells the caller whether the directory is complete
// without a stat of each file.
func checkOwned(dir string) (ownedDir, error) {
	foreign := func(file, why string) error {
		return &iofs.PathError{Op: "replace", Path: file, Err: fmt.Errorf("%w (%s)", ErrForeignDir, why)}
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return ownedDir{}, nil
	case err != nil:
		return ownedDir{}, err
	case fi.Mode()&iofs.ModeSymlink != 0:
		return ownedDir{exists: true}, foreign(dir, "a symbolic link, not a directory")
	case !fi.IsDir():
		return ownedDir{exists: true}, foreign(dir, "not a directory")
	}
	owned := ownedDir{exists: true}
	m, err := readMarker(filepath.Join(dir, MarkerFile))
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
		return owned, err
	}
	if err != nil {
		return owned, err
	}
	listed := m.names
	owned.listed, owned.stamp, owned.generated = len(listed), m.stamp, m.generated
	present := make(map[string]bool, len(listed)+1)
	dirs := map[string]bool{".": true}
	for name := range listed {
		for d := path.Dir(name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	// The listings are taken in the file system's order, which needs no
	// sort; only when something foreign is found (or a listing fails) are
	// they taken again in lexical order, so that the error is the one
	// filepath.WalkDir would meet first.
	err = checkListed(dir, ".", dirs, listed, present, nil)
	if err != nil {
		clear(present)
		err = checkListed(dir, ".", dirs, listed, present, foreign)
	}
	owned.present = present
	return owned, err
}

// errForeignFound is what checkListed returns, without a foreign function,
// for the first entry that is not the package's.
var errForeignFound = errors.New("a file the marker does not list")

// checkListed checks the directory rel of dir ("." for dir itself) and,
// depth first, its subdirectories, listing each directory once and
// stat'ing nothing: every regular file listed (or the marker) is recorded
// in present; any other entry stops it. With foreign, the directories are
// read in lexical order, as filepath.WalkDir would, and the first other
// entry is refused by foreign; without, in the order the file system
// gives, and the first other entry met returns errForeignFound. dirs
// holds the directories that listed names imply.
func checkListed(dir, rel string, dirs, listed, present map[string]bool, foreign func(file, why string) error) error {
	full := filepath.Join(dir, filepath.FromSlash(rel))
	entries, err := readDir(full, foreign != nil)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name() // entries have no slashes: no path.Join needed
		if rel != "." {
			name = rel + "/" + name
		}
		var why string
		switch t := e.Type(); {
		case t.IsDir() && dirs[name]:
			if err := checkListed(dir, name, dirs, listed, present, foreign); err != nil {
				return err
			}
			continue
		case t.IsRegular() && (listed[name] || name == MarkerFile):
			present[name] = true
			continue
		case t.IsDir():
			why = "a directory " + MarkerFile + " does not list"
		case t.IsRegular():
			why = "a file " + MarkerFile + " does not list"
		default:
			why = "not a regular file"
		}
		if foreign == nil {
			return errForeignFound
		}
		return foreign(filepath.Join(full, e.Name()), why)
	}
	return nil
}

// readDir lists the directory, sorted by name when sorted is set.
func readDir(name string, sorted bool) ([]os.DirEntry, error) {
	if sorted {
		return os.ReadDir(name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// A markerFile is what a marker file says.
type markerFile struct {
	names            map[string]bool
	stamp, generated string
}

// readMarker reads a marker file. A file that does not start with
// markerHeader is not a marker, and is an error.
func readMarker(file string) (markerFile, error) {
	text, err := streamfile.ReadString(file)
	if err != nil {
		return markerFile{}, err
	}
	// The lines are slices of text: the names of a large package (a few
	// thousand) are kept without a string each.
	line, rest, _ := strings.Cut(text, "\n")
	if strings.TrimSuffix(line, "\r") != markerHeader {
		return markerFile{}, &iofs.PathError{Op: "replace", Path: file, Err: fmt.Errorf("%w (not a marker written by bakefs)", ErrForeignDir)}
	}
	m := markerFile{names: make(map[string]bool, strings.Count(rest, "\n")+1)}
	for rest != "" {
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, stampPrefix):
			m.stamp = line[len(stampPrefix):]
		case strings.HasPrefix(line, generatedPrefix):
			m.generated = line[len(generatedPrefix):]
		case line != "" && !strings.HasPrefix(line, "#"):
			m.names[line] = true
		}
	}
	return m, nil
}
