package embedgen

import (
	"fmt"
	iofs "io/fs"
	"strings"
	"unicode"
	"unicode/utf8"
)

// checkName reports whether //go:embed can take the tree file name, which is
// a valid io/fs path. It applies the rules the go command applies to every
// element of an embedded path (those of module zip file names): elements
// made of letters, digits, spaces and the ASCII punctuation
// !#$%&()+,-.=@[]^_{}~; no element that is all dots or ends in a dot; no
// element whose part before the first dot is a name Windows reserves (CON,
// PRN, AUX, NUL, COM1-9, LPT1-9, in any case); no version control directory
// (.bzr, .git, .hg, .svn). It also refuses an element named go.mod, which
// would start another module and hide the files below it. Names beginning
// with "." or "_" are fine: the generated patterns name every file.
//
// The error wraps ErrName and says which element and why.
func checkName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: not valid UTF-8", ErrName)
	}
	for elem := range strings.SplitSeq(name, "/") {
		if err := checkElem(elem); err != nil {
			return err
		}
	}
	return nil
}

// windowsReserved are the device names Windows reserves, with any
// extension.
var windowsReserved = []string{
	"CON", "PRN", "AUX", "NUL",
	"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
	"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
}

func checkElem(elem string) error {
	switch {
	case elem == "":
		return fmt.Errorf("%w: empty path element", ErrName)
	case strings.Count(elem, ".") == len(elem):
		return fmt.Errorf("%w: element %q is only dots", ErrName, elem)
	case elem[len(elem)-1] == '.':
		return fmt.Errorf("%w: element %q ends in a dot", ErrName, elem)
	}
	for _, r := range elem {
		if !fileNameOK(r) {
			return fmt.Errorf("%w: element %q holds the character %q (%U)", ErrName, elem, r, r)
		}
	}
	short, _, _ := strings.Cut(elem, ".")
	for _, bad := range windowsReserved {
		if strings.EqualFold(bad, short) {
			return fmt.Errorf("%w: element %q is a device name on Windows", ErrName, elem)
		}
	}
	switch elem {
	case ".bzr", ".git", ".hg", ".svn":
		return fmt.Errorf("%w: element %q is a version control directory", ErrName, elem)
	case "go.mod":
		return fmt.Errorf("%w: element %q would start another module", ErrName, elem)
	}
	return nil
}

// fileNameOK reports whether r may appear in an element of an embedded
// file name: ASCII letters and digits, a space, the punctuation
// !#$%&()+,-.=@[]^_{}~, and non-ASCII letters.
func fileNameOK(r rune) bool {
	if r < utf8.RuneSelf {
		const allowed = "!#$%&()+,-.=@[]^_{}~ "
		return '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' ||
			strings.ContainsRune(allowed, r)
	}
	return unicode.IsLetter(r)
}

// foldKey maps s to a form shared by every string equal to it under Unicode
// simple case folding: each rune becomes the smallest rune of its folding
// orbit.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		return low
	}, s)
}

// nameSet finds tree names that cannot live side by side on a file system
// that ignores case (the default on macOS and Windows), or where a name is
// both a file and a directory.
type nameSet struct {
	seen map[string]nameUse // foldKey(name) -> first use
}

type nameUse struct {
	name string
	dir  bool
}

// add records the file name and its parent directories. The error is a
// *fs.PathError with Op "embed" wrapping ErrName.
func (s *nameSet) add(name string) error {
	if s.seen == nil {
		s.seen = make(map[string]nameUse)
	}
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		use := nameUse{name: name[:i], dir: i < len(name)}
		key := foldKey(use.name)
		prev, ok := s.seen[key]
		switch {
		case !ok:
			s.seen[key] = use
		case prev.name != use.name:
			return &iofs.PathError{Op: "embed", Path: name, Err: fmt.Errorf("%w: %s differs from %s only in case", ErrName, use.name, prev.name)}
		case prev.dir != use.dir:
			return &iofs.PathError{Op: "embed", Path: name, Err: fmt.Errorf("%w: %s is both a file and a directory", ErrName, use.name)}
		case !use.dir:
			return &iofs.PathError{Op: "embed", Path: name, Err: fmt.Errorf("%w: %s is listed twice", ErrName, use.name)}
		}
	}
	return nil
}
