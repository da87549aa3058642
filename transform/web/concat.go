package web

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bakefs/bakefs/transform"
)

func init() {
	transform.Register("concat", "1", "join files in order into one, as classic scripts and style sheets are joined; with banner, footer and a source map", transform.Content, newConcatStep)
}

// ConcatOptions are the options of the concat step.
type ConcatOptions struct {
	Files     []string `opt:"files" doc:"the files to join, in order: paths under the source root (required)"`
	Banner    string   `opt:"banner" doc:"text put before the joined files, on a line of its own, such as a license comment; default none"`
	Footer    string   `opt:"footer" doc:"text put after the joined files, on a line of its own; default none"`
	Sourcemap string   `opt:"sourcemap" values:"none|external|inline" doc:"external adds a .map file and a sourceMappingURL comment, inline embeds the map; lines map to the lines of the parts; default none"`
}

// MaxConcatSize bounds the bytes one concat step joins: 256 MiB, the
// bound of one input file.
const MaxConcatSize = 256 << 20

// concatStep joins its files, the parts, into each asset it is given: the
// asset keeps its path and takes the joined bytes. A part that does not
// end with a newline is followed by one, so that a part's last line (a
// // comment, a statement without a semicolon) never runs into the next
// part's first. Each part is recorded with Context.Depend, so that an edit
// to any of them runs the chain again.
//
// The parts are read as they are on disk, without being parsed: classic
// scripts keep their top-level names as globals of the page, which a
// bundle (an ES module graph) would not. A later minify drops the source
// map comment, as it does for every input.
type concatStep struct {
	files          []string
	banner, footer string
	sourcemap      string
}

func newConcatStep(o ConcatOptions) (transform.Step, error) {
	if len(o.Files) == 0 {
		return nil, fmt.Errorf("%w: files is required: the paths to join, in order (concat:files=a.js+b.js)", transform.ErrBadOption)
	}
	for _, f := range o.Files {
		if !fs.ValidPath(f) || f == "." {
			return nil, fmt.Errorf("%w: files: %q is not a slash-separated path under the source root", transform.ErrBadOption, f)
		}
	}
	if _, err := esSourcemap(o.Sourcemap, 0); err != nil {
		return nil, err
	}
	return &concatStep{files: o.Files, banner: o.Banner, footer: o.Footer, sourcemap: o.Sourcemap}, nil
}

// Run replaces each asset's bytes with the joined parts.
func (s *concatStep) Run(ctx *transform.Context, in []*transform.Asset) ([]*transform.Asset, error) {
	return transform.EachAsset(s.one).Run(ctx, in)
}

func (s *concatStep) one(ctx *transform.Context, a *transform.Asset) ([]*transform.Asset, error) {
	comment, err := mapComment(a.Path, s.sourcemap)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	m := newLineMap()
	if s.banner != "" {
		m.skipLines(writeLine(&out, s.banner))
	}
	for i, part := range s.files {
		data, err := readPart(ctx, part, MaxConcatSize-int64(out.Len()))
		if err != nil {
			return nil, err
		}
		m.addSource(transform.RelativePath(path.Dir(a.Path), part), data)
		out.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' && (i < len(s.files)-1 || s.footer != "" || comment != nil) {
			out.WriteByte('\n')
		}
	}
	if s.footer != "" {
		writeLine(&out, s.footer)
	}
	joined := a.Clone()
	joined.Type, joined.Encodings = "", nil
	if comment == nil {
		joined.Data = out.Bytes()
		return []*transform.Asset{joined}, nil
	}
	mapJSON := m.json(path.Base(a.Path))
	if s.sourcemap == sourcemapInline {
		out.WriteString(comment("data:application/json;base64," + base64.StdEncoding.EncodeToString(mapJSON)))
		joined.Data = out.Bytes()
		return []*transform.Asset{joined}, nil
	}
	out.WriteString(comment(path.Base(a.Path) + ".map"))
	joined.Data = out.Bytes()
	mapAsset := &transform.Asset{Path: a.Path + ".map", Source: a.Source, Data: mapJSON}
	return []*transform.Asset{joined, mapAsset}, nil
}

// mapComment returns the function that writes the sourceMappingURL comment
// for the output p, or nil when the step makes no map. Only JavaScript
// and CSS can name a map.
func mapComment(p, mode string) (func(url string) string, error) {
	if mode == "" || mode == sourcemapNone {
		return nil, nil
	}
	switch t, _, _ := strings.Cut(transform.MediaType(p), ";"); t {
	case "text/javascript":
		return sourceMappingURL, nil
	case "text/css":
		return func(url string) string { return "/*# sourceMappingURL=" + url + " */\n" }, nil
	}
	return nil, fmt.Errorf("%w: sourcemap: %s is neither JavaScript nor CSS, which alone can name a source map", transform.ErrBadOption, p)
}

// writeLine writes text and, unless it ends with one, a newline; it
// returns the number of lines written.
func writeLine(out *bytes.Buffer, text string) int {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	out.WriteString(text)
	return strings.Count(text, "\n")
}

// readPart reads one part, recording it as a dependency. A missing part
// and one over limit bytes are errors naming it.
func readPart(ctx *transform.Context, part string, limit int64) ([]byte, error) {
	file := filepath.Join(ctx.Root, filepath.FromSlash(part))
	ctx.Depend(file)
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &transform.SourceError{File: part, Msg: "concat: no such file under the source root"}
		}
		return nil, fmt.Errorf("concat: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("concat: %s: %w", part, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: concat: %s: the joined files exceed %d MiB", transform.ErrTooLarge, part, MaxConcatSize>>20)
	}
	return data, nil
}
