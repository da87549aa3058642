package embedgen

// This file is compiled into embedgen, whose tests read tables with it, and
// its declarations after the line readerStart are copied into every
// generated package of the ManifestTable form; the lines from
// graphStart to graphEnd only into those whose manifest has a module
// graph, and those from releasesStart to releasesEnd only into those
// whose manifest has deltas or kept files, so that the package of any
// other manifest is unchanged.

import (
	iofs "io/fs"
	"strconv"
	"strings"

	bakefs "github.com/bakefs/bakefs/fs"
)

//bakefs:generated-code-below

// parseTable reads the manifest, of the given version, from s, the text of
// the manifest table: one file per line after a header line, in
// tab-separated columns path, source, size, type, sha256, hashed,
// fingerprinted ("1" or empty), integrity, width, height, then name, path, size and sha256 of each
// encoding. A field starting with a double quote is a Go string literal.
func parseTable(s string, version int) (*bakefs.Manifest, error) {
	//bakefs:module-graph
	// A table whose header has graphColumns has them on every line, and
	// their paths share one array.
	header, _, _ := strings.Cut(s, "\n")
	graph := strings.Contains(header, graphColumns)
	var paths []string
	//bakefs:end-module-graph
	//bakefs:releases
	// A table whose header has releaseColumns has them on every line, and
	// the deltas share one array.
	releaseHeader, _, _ := strings.Cut(s, "\n")
	releases := strings.Contains(releaseHeader, releaseColumns)
	var deltas []bakefs.Delta
	//bakefs:end-releases
	_, s, _ = strings.Cut(s, "\n")
	m := &bakefs.Manifest{Version: version, Files: make([]bakefs.Entry, 0, strings.Count(s, "\n"))}
	// One array of fields, reused for every line, and one of encodings,
	// cut for every entry: a table of thousands of files costs a handful
	// of allocations.
	var fields []string
	encs := make([]bakefs.Encoding, 0, max(0, strings.Count(s, "\t")-8*cap(m.Files))/4)
	for line := range strings.Lines(s) {
		fields = fields[:0]
		for rest := strings.TrimSuffix(line, "\n"); ; {
			f, more, ok := strings.Cut(rest, "\t")
			fields = append(fields, f)
			if !ok {
				break
			}
			rest = more
		}
		r := row{f: fields}
		var e bakefs.Entry
		e.Path = r.text()
		e.Source = r.text()
		e.Size = r.num()
		e.Type = r.text()
		e.SHA256 = r.text()
		e.Hashed = r.text()
		e.Fingerprinted = r.text() == "1"
		e.Integrity = r.text()
		e.Width = int(r.num())
		e.Height = int(r.num())
		//bakefs:module-graph
		if graph {
			e.Imports = r.list(&paths)
			e.DynamicImports = r.list(&paths)
			e.CSS = r.list(&paths)
		}
		//bakefs:end-module-graph
		//bakefs:releases
		if releases {
			e.Previous = r.text()
			e.Release = int(r.num())
			e.Deltas = r.deltas(&deltas)
		}
		//bakefs:end-releases
		start := len(encs)
		for len(r.f) > 0 && r.err == nil {
			var enc bakefs.Encoding
			enc.Name = r.text()
			enc.Path = r.text()
			enc.Size = r.num()
			enc.SHA256 = r.text()
			encs = append(encs, enc)
		}
		if len(encs) > start {
			e.Encodings = encs[start:len(encs):len(encs)]
		}
		if r.err != nil {
			return nil, &iofs.PathError{Op: "parse", Path: "line " + strconv.Itoa(len(m.Files)+2), Err: r.err}
		}
		m.Files = append(m.Files, e)
	}
	return m, nil
}

// row is a line of the table being read; err is its first error.
type row struct {
	f   []string
	err error
}

// text returns the next field as a string.
func (r *row) text() string {
	if len(r.f) == 0 {
		if r.err == nil {
			r.err = iofs.ErrInvalid
		}
		return ""
	}
	s := r.f[0]
	r.f = r.f[1:]
	if strings.HasPrefix(s, "\"") {
		u, err := strconv.Unquote(s)
		if err != nil && r.err == nil {
			r.err = err
		}
		return u
	}
	return s
}

// num returns the next field as a decimal integer.
func (r *row) num() int64 {
	n, err := strconv.ParseInt(r.text(), 10, 64)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n
}

//bakefs:module-graph

// list returns the next fields, a count n and n strings, appended to
// paths; nil when n is 0.
func (r *row) list(paths *[]string) []string {
	n := r.num()
	if n < 0 || n > int64(len(r.f)) {
		if r.err == nil {
			r.err = iofs.ErrInvalid
		}
		return nil
	}
	start := len(*paths)
	for range n {
		*paths = append(*paths, r.text())
	}
	if n == 0 {
		return nil
	}
	return (*paths)[start:len(*paths):len(*paths)]
}

// graphColumns are the columns of the module graph (Entry.Imports,
// DynamicImports and CSS), which a table has after height when an entry
// has one: the number of paths of each list, then the paths.
const graphColumns = "\tn\t[import]...\tn\t[dynamic import]...\tn\t[css]..."

//bakefs:end-module-graph

//bakefs:releases

// deltas returns the next fields, a count n and n deltas of four fields
// (dictionary, path, size, sha256), appended to all; nil when n is 0.
func (r *row) deltas(all *[]bakefs.Delta) []bakefs.Delta {
	n := r.num()
	if n < 0 || 4*n > int64(len(r.f)) {
		if r.err == nil {
			r.err = iofs.ErrInvalid
		}
		return nil
	}
	start := len(*all)
	for range n {
		var d bakefs.Delta
		d.Dictionary = r.text()
		d.Path = r.text()
		d.Size = r.num()
		d.SHA256 = r.text()
		*all = append(*all, d)
	}
	if n == 0 {
		return nil
	}
	return (*all)[start:len(*all):len(*all)]
}

// releaseColumns are the columns of the kept files and deltas
// (Entry.Previous, Release and Deltas), which a table has after the module
// graph's (or height) when an entry has any: previous, release, the number
// of deltas, then dictionary, path, size and sha256 of each.
const releaseColumns = "\tprevious\trelease\tn\t[dictionary\tpath\tsize\tsha256]..."

//bakefs:end-releases
