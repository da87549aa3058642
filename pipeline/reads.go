package pipeline

import (
	"os"
	"path/filepath"
)

// A fileRead is a source file that a job's outputs were made from, and its
// size: the job's input, an encoding it carries, or a file its steps read
// (a bundle's imports, a joined file). Stats.BytesIn counts each file
// once, however many jobs read it, and the same whether the jobs ran or
// came from a cache.
type fileRead struct {
	file string
	size int64
}

// depReads returns the reads of the files a step depended on, sized as
// this run's file index saw them, or by a stat when it holds no stamp of
// them.
func (p *Pipeline) depReads(files []string) []fileRead {
	reads := make([]fileRead, 0, len(files))
	for _, f := range files {
		size, ok := int64(0), false
		if p.Cache != nil {
			size, ok = p.Cache.files().knownSize(f)
		}
		if !ok {
			fi, err := os.Stat(f)
			if err != nil {
				continue // gone since: no bytes to count
			}
			size = fi.Size()
		}
		reads = append(reads, fileRead{f, size})
	}
	return reads
}

// depFiles returns the absolute names of the files (not directories) an
// entry depends on, paths relative to the source root taken under root.
func (e *cacheEntry) depFiles(root string) []string {
	var files []string
	for _, d := range e.Deps {
		if d.Dir {
			continue
		}
		files = append(files, d.path(root))
	}
	return files
}

// bytesRead sums the sizes of the distinct files that the jobs read.
func (p *Pipeline) bytesRead(results []jobResult) int64 {
	seen := make(map[string]bool)
	var n int64
	for i := range results {
		for _, r := range results[i].reads {
			abs, err := filepath.Abs(r.file)
			if err != nil || seen[abs] {
				continue
			}
			seen[abs] = true
			n += r.size
		}
	}
	return n
}
