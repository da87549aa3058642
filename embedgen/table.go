package embedgen

import (
	"bytes"
	"flag"
	"fmt"
	bakefs "github.com/bakefs/bakefs/fs"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A ManifestForm says how the generated package holds the manifest.
type ManifestForm int

const (
	// ManifestTable, the default, embeds the manifest as the file
	// TableFile, a tab-separated table that the package reads once when it
	// is initialised. The package compiles about as fast as a hand-written
	// //go:embed of the same bytes with the runtime, and the table is read
	// in about 2 ms per 3,000 entries.
	ManifestTable ManifestForm = iota

	// ManifestGo compiles the manifest into Go values: nothing to read at
	// start-up, but the compiler spends about 0.1 s (and 10 MB) more per
	// 1,000 entries on the package each time it is rebuilt.
	ManifestGo
)

var _ flag.Value = (*ManifestForm)(nil)

// String returns the name of the form as Set takes it: "table" or "go".
func (f ManifestForm) String() string {
	switch f {
	case ManifestTable:
		return "table"
	case ManifestGo:
		return "go"
	}
	return "ManifestForm(" + strconv.Itoa(int(f)) + ")"
}

// Set sets f from its name, "table" or "go", so that a *ManifestForm can be
// a command-line flag (flag.Var). Another name is an error wrapping
// ErrOptions.
func (f *ManifestForm) Set(name string) error {
	switch name {
	case "table":
		*f = ManifestTable
	case "go":
		*f = ManifestGo
	default:
		return fmt.Errorf("%w: manifest form %q (want table or go)", ErrOptions, name)
	}
	return nil
}

// TableFile is the name of the manifest table that Generate writes beside
// the Go file in the ManifestTable form.
const TableFile = "bakefs-manifest.tsv"

// tableHeader is the first line of TableFile, naming the columns; a
// manifest with a module graph has graphColumns after height.
const (
	tableHeader     = entryColumns + encodingColumns
	entryColumns    = "# path\tsource\tsize\ttype\tsha256\thashed\tfingerprinted\tintegrity\twidth\theight"
	encodingColumns = "\t[encoding\tpath\tsize\tsha256]...\n"
)

// hasReleases reports whether an entry of m is kept from an earlier
// release or has deltas.
func hasReleases(m *bakefs.Manifest) bool {
	for _, e := range m.Files {
		if e.Previous != "" || len(e.Deltas) > 0 {
			return true
		}
	}
	return false
}

// hasModuleGraph reports whether an entry of m has a module graph
// (Imports, DynamicImports or CSS).
func hasModuleGraph(m *bakefs.Manifest) bool {
	for _, e := range m.Files {
		if len(e.Imports)+len(e.DynamicImports)+len(e.CSS) > 0 {
			return true
		}
	}
	return false
}

// table returns the manifest in the form read by the generated parseTable:
// after tableHeader, one line per entry in manifest order, of tab-separated
// fields path, source, size, type, sha256, hashed, fingerprinted ("1"
// or empty), integrity, width, height, then, when the manifest has a
// module graph (and its header graphColumns), the number of imports and
// each import, the same for dynamic imports and for css, then, when the
// manifest has kept files or deltas (and its header releaseColumns),
// previous, release, the number of deltas and dictionary, path, size and
// sha256 of each, then name, path, size and sha256 of each encoding in
// order. Numbers are decimal; a
// string is written as is unless it holds a tab, a line break or invalid
// UTF-8, or starts with a double quote, in which case it is written as a
// Go string literal (strconv.Quote).
func table(m *bakefs.Manifest) []byte {
	var b bytes.Buffer
	graph, releases := hasModuleGraph(m), hasReleases(m)
	if graph || releases {
		b.WriteString(entryColumns)
		if graph {
			b.WriteString(graphColumns)
		}
		if releases {
			b.WriteString(releaseColumns)
		}
		b.WriteString(encodingColumns)
	} else {
		b.WriteString(tableHeader)
	}
	text := func(s string) {
		if strings.ContainsAny(s, "\t\n\r") || strings.HasPrefix(s, `"`) || !utf8.ValidString(s) {
			s = strconv.Quote(s)
		}
		b.WriteString(s)
	}
	num := func(n int64) { b.WriteString(strconv.FormatInt(n, 10)) }
	tab := func() { b.WriteByte('\t') }
	for _, e := range m.Files {
		text(e.Path)
		tab()
		text(e.Source)
		tab()
		num(e.Size)
		tab()
		text(e.Type)
		tab()
		text(e.SHA256)
		tab()
		text(e.Hashed)
		tab()
		if e.Fingerprinted {
			b.WriteByte('1')
		}
		tab()
		text(e.Integrity)
		tab()
		num(int64(e.Width))
		tab()
		num(int64(e.Height))
		if graph {
			for _, list := range [...][]string{e.Imports, e.DynamicImports, e.CSS} {
				tab()
				num(int64(len(list)))
				for _, p := range list {
					tab()
					text(p)
				}
			}
		}
		if releases {
			tab()
			text(e.Previous)
			tab()
			num(int64(e.Release))
			tab()
			num(int64(len(e.Deltas)))
			for _, d := range e.Deltas {
				tab()
				text(d.Dictionary)
				tab()
				text(d.Path)
				tab()
				num(d.Size)
				tab()
				text(d.SHA256)
			}
		}
		for _, enc := range e.Encodings {
			tab()
			text(enc.Name)
			tab()
			text(enc.Path)
			tab()
			num(enc.Size)
			tab()
			text(enc.SHA256)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}
