package transform

// An Asset is one file moving through a chain. Steps take assets and return
// assets: they may change the bytes, rename (a.ts to a.js), add (a source
// map, srcset widths) or drop.
type Asset struct {
	// Path is the logical output path, slash-separated and valid for io/fs.
	Path string
	// Source is the logical path of the source file the asset came from.
	// Errors name it; the manifest records it when it differs from Path.
	Source string
	// Data is the identity content. Steps must not modify a Data slice they
	// did not allocate: make a new one.
	Data []byte
	// Type is the media type; empty means MediaType(Path).
	Type string
	// Width and Height are the pixel size of an image, set by image steps.
	Width, Height int
	// Encodings are precompressed variants, set by compression steps and
	// kept sorted by name.
	Encodings []Encoding
	// Hashed marks the asset for a fingerprinted name in the manifest.
	Hashed bool
	// Fingerprinted says that Path is content-named already (a step put
	// a hash of the bytes in it): the manifest records it, the handler
	// serves it as immutable, and references to it are not rewritten.
	Fingerprinted bool

	// Imports, DynamicImports and CSS are the module graph of a
	// JavaScript output of a bundle with code splitting, by logical path
	// of the chain's other outputs: the chunks it imports statically and
	// with import(), and the style sheets it needs. Each is sorted and
	// without duplicates; the manifest records them (fs.Entry).
	Imports, DynamicImports, CSS []string

	// Warnings are mistakes found in making the asset that do not stop
	// the build, such as an import that a bundle keeps nothing of. They
	// are reported after the run (errors with Pipeline.Strict) and cached
	// with the asset. A step adds to them on a Clone, by append.
	Warnings []*SourceError
	// Absorbed, when not nil, is the step after the one that made the
	// asset, whose work that step did already (see Absorber): that step
	// passes the asset through.
	Absorbed Step
}

// An Encoding is one precompressed variant of an asset.
type Encoding struct {
	// Name is the Content-Encoding token ("br", "gzip", "zstd").
	Name string
	// Data is the encoded bytes.
	Data []byte
}

// SetEncoding adds or replaces the variant named enc.Name, keeping the list
// sorted by name.
func (a *Asset) SetEncoding(enc Encoding) {
	for i := range a.Encodings {
		switch {
		case a.Encodings[i].Name == enc.Name:
			a.Encodings[i] = enc
			return
		case a.Encodings[i].Name > enc.Name:
			a.Encodings = append(a.Encodings[:i], append([]Encoding{enc}, a.Encodings[i:]...)...)
			return
		}
	}
	a.Encodings = append(a.Encodings, enc)
}

// MediaTypeOf returns a.Type, or MediaType(a.Path) when a.Type is empty.
func (a *Asset) MediaTypeOf() string {
	if a.Type != "" {
		return a.Type
	}
	return MediaType(a.Path)
}

// Clone returns a copy of a whose slices can be changed without changing a.
// The byte slices themselves are shared, as steps never modify them.
func (a *Asset) Clone() *Asset {
	c := *a
	c.Encodings = append([]Encoding(nil), a.Encodings...)
	c.Warnings = append([]*SourceError(nil), a.Warnings...)
	return &c
}
