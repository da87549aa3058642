package dirswap

import "os"

// An Update is the new content of a directory, made beside it (by Prepare)
// and not yet in its place, or the news that the directory already holds it
// (Unchanged). Commit puts it in place; Discard drops it, leaving the
// directory as it was. Until one of them is called, the temporary directory
// stays beside the directory; a crash leaves it there for the next Temp or
// Clean to remove. An Update is not safe for concurrent use.
type Update struct {
	dir string
	tmp string // "" when dir already holds the content, or once committed or discarded
}

// Unchanged returns an update that changes nothing, for a dir that already
// holds the new content, after removing the temporary directories that
// interrupted runs left beside it (Clean). The update is returned even
// when Clean fails, with Clean's error.
func Unchanged(dir string) (*Update, error) {
	return &Update{dir: dir}, Clean(dir)
}

// Prepare creates a temporary directory beside dir (Temp) and has fill
// write the new content into it. When fill fails, Prepare removes the
// temporary directory and returns fill's error unwrapped, leaving dir as
// it was.
func Prepare(dir string, fill func(tmp string) error) (*Update, error) {
	tmp, err := Temp(dir)
	if err != nil {
		return nil, err
	}
	u := &Update{dir: dir, tmp: tmp}
	if err := fill(tmp); err != nil {
		u.Discard()
		return nil, err
	}
	return u, nil
}

// Dir returns the directory the update replaces.
func (u *Update) Dir() string { return u.dir }

// Changed reports whether committing the update changes the directory.
func (u *Update) Changed() bool { return u.tmp != "" }

// Path returns where the new content can be read before it is committed:
// the temporary directory, or the directory itself when the update changes
// nothing.
func (u *Update) Path() string {
	if u.tmp != "" {
		return u.tmp
	}
	return u.dir
}

// Commit puts the new content in place of the directory with Replace, so
// that a reader sees the whole old or the whole new content. It does
// nothing when the update changes nothing or was already committed or
// discarded. After Commit, whatever it returns, the update changes nothing.
func (u *Update) Commit() error {
	if u.tmp == "" {
		return nil
	}
	err := Replace(u.dir, u.tmp)
	u.tmp = ""
	return err
}

// Discard removes the temporary directory of an uncommitted update,
// leaving the directory as it was. It does nothing when the update changes
// nothing or was already committed or discarded.
func (u *Update) Discard() {
	if u.tmp != "" {
		os.RemoveAll(u.tmp)
		u.tmp = ""
	}
}
