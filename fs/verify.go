package fs

// Verify checks f as New would have: the manifest loads and is valid, and
// every file and variant it lists is in the tree's data as a regular file
// of the listed size. It returns the first problem (errors wrap
// ErrManifest or ErrTree and name the file), or nil. For an FS of NewLazy
// it builds the tree if it was not built yet; a Sub or With of f checks
// the whole tree all the same.
func (f *FS) Verify() error {
	t, err := f.src.get()
	if err != nil {
		return err
	}
	for i := range t.files {
		for j := range t.files[i].variants {
			v := &t.files[i].variants[j]
			if err := checkFile(t.data, v.path, v.size); err != nil {
				return err
			}
		}
	}
	return nil
}
