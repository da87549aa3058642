package transform

// A Job is one source file and the chain to run on it.
type Job struct {
	// Path is the logical path of the input, valid for io/fs.
	Path string
	// Source is the logical path of the original source, when the input is
	// itself an output of an earlier run (a.js made from a.ts); empty means
	// Path.
	Source string
	// File is where the input's bytes are on disk.
	File string
	// Width and Height carry an earlier run's image size.
	Width, Height int
	// Chain is the steps to run; an empty chain copies the file.
	Chain Chain
}

func (j *Job) source() string {
	if j.Source != "" {
		return j.Source
	}
	return j.Path
}
