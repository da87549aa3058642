package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

// joinJobs returns jobs with the jobs of each group whose chain joins
// (Job.Group, transform.Chain.Joins) made into one: the group's first job
// in path order, with the others as its Inputs, in the place of the
// group's first job in jobs. Other jobs are returned as they are. The
// jobs given are not changed.
func joinJobs(jobs []*Job) []*Job {
	members := make(map[string][]*Job)
	for _, j := range jobs {
		if joins(j) {
			members[j.Group] = append(members[j.Group], j)
		}
	}
	out := make([]*Job, 0, len(jobs))
	for _, j := range jobs {
		if !joins(j) {
			out = append(out, j)
			continue
		}
		group := members[j.Group]
		if group == nil {
			continue // joined already
		}
		delete(members, j.Group)
		sort.SliceStable(group, func(a, b int) bool { return group[a].Path < group[b].Path })
		head := *group[0]
		head.Inputs = nil
		for _, m := range group[1:] {
			head.Inputs = append(head.Inputs, JobInput{Path: m.Path, Source: m.Source, File: m.File})
		}
		out = append(out, &head)
	}
	return out
}

// joins reports whether the job runs joined with the others of its group.
func joins(j *Job) bool {
	return j.Group != "" && !j.carries() && j.Chain.Joins()
}

// source returns the logical path of the input's source.
func (in JobInput) source() string {
	if in.Source != "" {
		return in.Source
	}
	return in.Path
}

// jobInputs are a joined job's further inputs as a run sees them, in the
// order of Job.Inputs: each with the hash and size of its bytes, and the
// bytes once read.
type jobInputs []jobInput

type jobInput struct {
	JobInput
	sum  string
	size int64
	data []byte // nil until read
}

// newJobInputs returns the further inputs of job, not hashed or read yet.
func newJobInputs(job *Job) jobInputs {
	x := make(jobInputs, len(job.Inputs))
	for i, in := range job.Inputs {
		x[i].JobInput = in
	}
	return x
}

// sum hashes the inputs through the cache's file index, which reads only
// the files it has no stamp of; the bytes it read are kept.
func (x jobInputs) sum(c *Cache, limit int64) error {
	for i := range x {
		stamp, data, err := c.files().sum(x[i].File, limit)
		if err != nil {
			return inputError(&Job{Path: x[i].Path}, err)
		}
		x[i].sum, x[i].size, x[i].data = stamp.SHA256, stamp.Size, data
	}
	return nil
}

// read reads the inputs whose bytes are not held yet, for a run of the
// chain, and reports whether it read any: their hashes are then those of
// the bytes read, which may differ from what the index vouched for.
func (x jobInputs) read(limit int64) (bool, error) {
	read := false
	for i := range x {
		if x[i].data != nil {
			continue
		}
		data, err := readInput(&Job{Path: x[i].Path, File: x[i].File}, limit)
		if err != nil {
			return read, err
		}
		x[i].sum, x[i].size, x[i].data, read = transform.SHA256Hex(data), int64(len(data)), data, true
	}
	return read, nil
}

// keyPart is the inputs' part of the cache key: paths and hashes.
func (x jobInputs) keyPart() string {
	var b strings.Builder
	for _, in := range x {
		fmt.Fprintf(&b, " input %q %q %s", in.Path, in.source(), in.sum)
	}
	return b.String()
}

// reads are the files the inputs were read from.
func (x jobInputs) reads() []fileRead {
	reads := make([]fileRead, len(x))
	for i, in := range x {
		reads[i] = fileRead{in.File, in.size}
	}
	return reads
}

// bytes are the inputs' bytes, once read.
func (x jobInputs) bytes() [][]byte {
	data := make([][]byte, len(x))
	for i, in := range x {
		data[i] = in.data
	}
	return data
}
