package toolid

import (
	"bytes"
	"debug/elf"
)

// goBuildID returns the Go build ID of the executable file, as `go tool
// buildid` prints it: the go command's hash of everything that built the
// binary (its action ID) and of the linked bytes (its content ID), which
// the linker writes into the ELF note section .note.go.buildid. Reading it
// costs a few hundred bytes where hashing the executable reads all of it.
// ok is false for a file that is not ELF or has no Go build ID, and for one
// linked with its build ID redacted or emptied (-buildid=, as Bazel's
// rules_go does), which then must be hashed.
func goBuildID(file string) (id string, ok bool) {
	f, err := elf.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", false
	}
	note, err := s.Data()
	if err != nil || len(note) < 16 {
		return "", false
	}
	// An ELF note: name size, description size, type (4: Go build ID),
	// then the name "Go" with NULs, padded to 4 bytes, then the
	// description.
	order := f.ByteOrder
	nameSize, descSize, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	nameEnd := 12 + uint64(nameSize)
	descStart := 12 + (uint64(nameSize)+3)&^3
	if typ != 4 || nameEnd > uint64(len(note)) || string(bytes.TrimRight(note[12:nameEnd], "\x00")) != "Go" ||
		descStart+uint64(descSize) > uint64(len(note)) {
		return "", false
	}
	id = string(note[descStart : descStart+uint64(descSize)])
	if id == "" || id == "redacted" || !bytes.ContainsRune([]byte(id), '/') {
		return "", false
	}
	return id, true
}
