// Package dirswap replaces a directory whole: the new content is made in a
// temporary directory beside it (Temp) and put in its place (Replace) so
// that a reader sees the complete old or the complete new directory, never
// a mix and never no directory at all, and a failure or a crash at any
// moment leaves the previous directory intact. An Update holds such a
// replacement between the two steps, so that a caller can commit several
// together or discard them. The output tree and the generated package of a
// build are both written this way.
package dirswap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tempMarker is in the name of every temporary directory, so that the
// leftovers of a crashed run are recognised.
const tempMarker = ".bakefs-new-"

// IsTemp reports whether name, a base name, is that of a temporary
// directory of this package (one made by Temp, or set aside by Replace).
func IsTemp(name string) bool { return strings.Contains(name, tempMarker) }

// Temp creates an empty temporary directory beside dir (creating dir's
// parent if needed) for the new content, after removing what crashed
// runs left beside dir. The directory has mode 0755.
//
// Runs that replace the same dir must not overlap: Temp of one would
// remove the other's temporary directory.
func Temp(dir string) (string, error) {
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	if err := Clean(dir); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+tempMarker)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// Clean removes the temporary directories that interrupted runs left
// beside dir.
func Clean(dir string) error {
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	prefix := "." + base + tempMarker
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			if err := os.RemoveAll(filepath.Join(parent, e.Name())); err != nil {
				return fmt.Errorf("removing a leftover of an interrupted build: %w", err)
			}
		}
	}
	return nil
}

// Replace puts the directory tmp, made by Temp(dir), in dir's place and
// removes the previous content. Where the system can exchange two
// directories atomically (Linux), dir is never missing; elsewhere dir is
// moved aside first, and moved back if tmp cannot take its place.
func Replace(dir, tmp string) error {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return os.Rename(tmp, dir)
	}
	if err := exchange(tmp, dir); err != nil {
		return err
	}
	// tmp now holds the previous content.
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("replaced %s but could not remove its previous content at %s: %w", dir, tmp, err)
	}
	return nil
}

// renameAside is exchange without an atomic system call: dir is moved to
// a second temporary name, tmp renamed to dir, and the previous content
// moved to tmp.
func renameAside(tmp, dir string) error {
	aside := tmp + ".old"
	if err := os.Rename(dir, aside); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if rerr := os.Rename(aside, dir); rerr != nil {
			return fmt.Errorf("%v (the previous content is at %s: %v)", err, aside, rerr)
		}
		return err
	}
	return os.Rename(aside, tmp)
}
