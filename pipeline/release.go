package pipeline

import (
	"fmt"
	"os"
	"path/filepath"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/transform"
)

// A Release is an output tree of an earlier build of the project, as
// deployed: its files stay reachable under their hashed names in the new
// tree (so that a page of that release still loads what it loads later,
// such as lazily imported chunks), and are the dictionaries that the new
// versions of the same files are compressed against (see Pipeline.Previous).
type Release struct {
	Dir      string
	manifest *bakefs.Manifest
}

// LoadRelease reads the output tree dir of an earlier release: its
// manifest must be there and valid. Its files are read later, when they
// are kept or used as dictionaries, and checked against the manifest then.
func LoadRelease(dir string) (*Release, error) {
	file := filepath.Join(dir, bakefs.ManifestName)
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("previous release: %w", err)
	}
	m, err := bakefs.ParseManifest(raw)
	if err != nil {
		return nil, fmt.Errorf("previous release: %s: %w", file, err)
	}
	return &Release{Dir: dir, manifest: m}, nil
}

// A keptFile is a file of an earlier release carried into the new tree:
// its manifest entry (a kept one, see bakefs.Entry.Previous) and where
// its bytes and variants are in the release's directory.
type keptFile struct {
	entry bakefs.Entry
	dir   string
	from  string   // the file's path in dir
	encs  []string // each encoding's path in dir, in entry.Encodings' order
}

// keptFiles returns the files of rel that the new tree keeps, sorted by
// path: the hashed files of rel itself (release 1) and the kept files of
// rel from fewer than releases releases back, each under its hashed name
// with its variants beside it (name plus the variant's suffix). A file
// whose hashed name the new tree uses already (its bytes did not change)
// is not kept again; taken is the set of the new tree's names.
func keptFiles(rel *Release, releases int, taken func(name string) bool) []*keptFile {
	var kept []*keptFile
	for _, e := range rel.manifest.Files {
		k := &keptFile{dir: rel.Dir, from: e.Path}
		switch {
		case e.Previous == "" && e.Hashed != "":
			k.entry = bakefs.Entry{Path: e.Hashed, Previous: e.Path, Release: 1,
				Size: e.Size, Type: e.Type, SHA256: e.SHA256, Integrity: e.Integrity}
		case e.Previous != "" && e.Release < releases:
			k.entry = e
			k.entry.Release++
			k.entry.Encodings = nil
		default:
			continue
		}
		if taken(k.entry.Path) {
			continue
		}
		for _, enc := range e.Encodings {
			suffix, _ := bakefs.EncodingSuffix(enc.Name)
			enc.Path, k.encs = k.entry.Path+suffix, append(k.encs, enc.Path)
			k.entry.Encodings = append(k.entry.Encodings, enc)
		}
		kept = append(kept, k)
	}
	return kept
}

// place writes the kept file and its variants into the tree being made in
// tmp: a link to the copy in dir (the tree being replaced) when it lists
// the same bytes, else the bytes of the release's file, checked against
// its manifest.
func (k *keptFile) place(tmp, dir string, old *tree) error {
	files := []struct {
		name, from, sha256 string
		size               int64
	}{{k.entry.Path, k.from, k.entry.SHA256, k.entry.Size}}
	for i, enc := range k.entry.Encodings {
		files = append(files, struct {
			name, from, sha256 string
			size               int64
		}{enc.Path, k.encs[i], enc.SHA256, enc.Size})
	}
	for _, f := range files {
		dst := filepath.Join(tmp, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if old != nil && old.sum(f.name) == f.sha256 && linkIntact(filepath.Join(dir, filepath.FromSlash(f.name)), dst, f.size) {
			continue
		}
		data, err := readReleaseFile(k.dir, f.from, f.size, f.sha256)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readReleaseFile reads the file name of the release in dir, which its
// manifest lists with size and sha256, and checks that it holds them.
func readReleaseFile(dir, name string, size int64, sha256 string) ([]byte, error) {
	file := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("previous release: %w", err)
	}
	if int64(len(data)) != size || transform.SHA256Hex(data) != sha256 {
		return nil, fmt.Errorf("previous release: %s does not hold the bytes its %s lists", file, bakefs.ManifestName)
	}
	return data, nil
}
