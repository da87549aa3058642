package pipeline

import (
	"io"
	"os"
	"path/filepath"

	bakefs "github.com/bakefs/bakefs/fs"
)

// A tree holds each hashed file a second time, under its hashed name, and
// each of its variants under the hashed name with the variant's suffix
// (css/app.3f2a1b9c0d.css, css/app.3f2a1b9c0d.css.gz), so that a static
// server (nginx with gzip_static, a CDN, a bucket) serves the hashed URLs
// that rewritten pages name, as the generated handler does. The second
// names are hard links where the file system allows, copies otherwise.
// The manifest does not list them: readers resolve hashed names through
// it, and embedgen embeds each file once.

// A staticName is the second name of one file of the tree.
type staticName struct {
	of, name string // the file's path in the tree, and its hashed name
	sha256   string
	size     int64
}

// staticNames returns the second names of an entry's file and variants;
// none when the entry has no hashed name.
func staticNames(e *bakefs.Entry) []staticName {
	if e.Hashed == "" {
		return nil
	}
	names := []staticName{{of: e.Path, name: e.Hashed, sha256: e.SHA256, size: e.Size}}
	for _, enc := range e.Encodings {
		suffix, _ := bakefs.EncodingSuffix(enc.Name)
		names = append(names, staticName{of: enc.Path, name: e.Hashed + suffix, sha256: enc.SHA256, size: enc.Size})
	}
	return names
}

// linkStatic gives the files of the tree being made in tmp their second
// names.
func linkStatic(tmp string, m *bakefs.Manifest) error {
	for i := range m.Files {
		for _, n := range staticNames(&m.Files[i]) {
			from := filepath.Join(tmp, filepath.FromSlash(n.of))
			to := filepath.Join(tmp, filepath.FromSlash(n.name))
			if err := linkOrCopy(from, to); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkOrCopy makes to a hard link of from, or a copy of it when the file
// system has no hard links. An existing to is an error.
func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
