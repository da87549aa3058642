package pipeline

import (
	"fmt"
	"sort"

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

// jobInputs are a joined job's further inputs as a run sees them: their
// part of the cache key (paths and hashes), what was read, and, once read,
// their bytes.
type jobInputs struct {
	sums  string
	reads []fileRead
	data  [][]byte
}

// add records one further input with the hash of its bytes.
func (x *jobInputs) add(in JobInput, sum string, size int64) {
	x.sums += fmt.Sprintf(" input %q %q %s", in.Path, in.source(), sum)
	x.reads = append(x.reads, fileRead{in.File, size})
}

// sumInputs hashes a joined job's further inputs through the cache's file
// index, reading only those it has no stamp of.
func (p *Pipeline) sumInputs(job *Job, limit int64) (jobInputs, error) {
	var x jobInputs
	for _, in := range job.Inputs {
		stamp, _, err := p.Cache.files().sum(in.File, limit)
		if err != nil {
			return x, inputError(&Job{Path: in.Path}, err)
		}
		x.add(in, stamp.SHA256, stamp.Size)
	}
	return x, nil
}

// readInputs reads a joined job's further inputs, for a run of its chain.
func readInputs(job *Job, limit int64) (jobInputs, error) {
	var x jobInputs
	for _, in := range job.Inputs {
		data, err := readInput(&Job{Path: in.Path, File: in.File}, limit)
		if err != nil {
			return x, err
		}
		x.add(in, transform.SHA256Hex(data), int64(len(data)))
		x.data = append(x.data, data)
	}
	return x, nil
}
