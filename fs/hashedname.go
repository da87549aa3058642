package fs

import "strings"

// SplitHashedName is the inverse of HashedName: given a fingerprinted name
// such as "js/app.3f2a1b9c0d.js" it returns the logical name "js/app.js",
// the HashLen lowercase hex digits "3f2a1b9c0d", and true. For a name that
// HashedName cannot have produced it returns "", "", false.
//
// The split is unambiguous: HashedName puts the digits before the last
// extension of a base name that has one (a dot after its first byte), and
// after the base name otherwise, so exactly one reading can apply. It only
// parses: whether an FS has the name is up to its manifest.
func SplitHashedName(name string) (logical, hash string, ok bool) {
	dir, base := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir, base = name[:i+1], name[i+1:]
	}
	j := strings.LastIndexByte(base, '.')
	if j <= 0 {
		return "", "", false
	}
	// Appended: "<stem>.<hash>" where stem has no extension.
	if isHashDigits(base[j+1:]) && strings.LastIndexByte(base[:j], '.') <= 0 {
		return dir + base[:j], base[j+1:], true
	}
	// Inserted: "<stem>.<hash><ext>" where stem is not empty.
	k := strings.LastIndexByte(base[:j], '.')
	if k > 0 && isHashDigits(base[k+1:j]) {
		return dir + base[:k] + base[j:], base[k+1 : j], true
	}
	return "", "", false
}

// isHashDigits reports whether s is HashLen lowercase hex digits.
func isHashDigits(s string) bool {
	if len(s) != HashLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
