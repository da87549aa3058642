package fs

import "errors"

// ErrTree reports an output tree that does not hold what its manifest lists:
// a missing file, a directory where a file should be, or a size that
// differs. New wraps it, together with the underlying error when there is
// one, and names the file.
var ErrTree = errors.New("bakefs: tree does not match manifest")

// ErrIsDir is the Err of the *io/fs.PathError returned when a directory is
// read as a file (Read, ReadFile).
var ErrIsDir = errors.New("bakefs: is a directory")

// ErrNotDir is the Err of the *io/fs.PathError returned when a file is
// listed or entered as a directory (ReadDir, Sub).
var ErrNotDir = errors.New("bakefs: not a directory")

// ErrNotModule reports a file given to a module-graph function (FS.ModulePreloads,
// FuncMap's module, …) that is not JavaScript by its type.
var ErrNotModule = errors.New("bakefs: not a JavaScript module")
