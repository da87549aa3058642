package pipeline

import "github.com/bakefs/bakefs/transform"

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
	Chain transform.Chain
	// Encodings and Hashed carry an earlier run's variants (files on disk)
	// and fingerprint. They are kept only when Chain has no content step
	// (a merge of trees), since a step that changes the bytes makes them
	// stale.
	Encodings     []JobEncoding
	Hashed        bool
	Fingerprinted bool
	// Imports, DynamicImports and CSS carry an earlier run's module graph
	// (transform.Asset.Imports), kept as Encodings are.
	Imports, DynamicImports, CSS []string
	// KeepRefs leaves the references in the job's outputs as they are
	// (a rule's rewrite = false): see rewrite.go. Files it refers to are
	// still rewritten in the others.
	KeepRefs bool
	// Group names the rule the job comes from, "" for none. The jobs of
	// one group whose chain joins (transform.Chain.Joins: a bundle with
	// code splitting) run as one job: see joinJobs.
	Group string
	// Inputs are the other inputs of a joined job, which enter its chain
	// beside its own, in path order. Pipeline.Run sets them.
	Inputs []JobInput
}

// A JobInput is one further input of a joined job.
type JobInput struct {
	Path, Source, File string
}

// A JobEncoding is a variant an earlier run made of a job's input.
type JobEncoding struct {
	Name string // Content-Encoding token
	File string // where its bytes are on disk
}

// carries reports whether the job keeps its earlier variants and
// fingerprint: only a chain without content steps does.
func (j *Job) carries() bool {
	if len(j.Encodings) == 0 && !j.Hashed && !j.Fingerprinted && j.Imports == nil && j.DynamicImports == nil && j.CSS == nil {
		return false
	}
	for _, s := range j.Chain {
		if s.Kind == transform.Content {
			return false
		}
	}
	return true
}

func (j *Job) source() string {
	if j.Source != "" {
		return j.Source
	}
	return j.Path
}
