package fs_test

import (
	"crypto/sha256"
	"encoding/hex"
	bakefs "github.com/bakefs/bakefs/fs"
	iofs "io/fs"
	"testing"
)

func TestSplitHashedName(t *testing.T) {
	tests := []struct {
		name, logical, hash string
		ok                  bool
	}{
		{"js/app.3f2a1b9c0d.js", "js/app.js", "3f2a1b9c0d", true},
		{"app.3f2a1b9c0d.min.js", "app.3f2a1b9c0d.js", "", false}, // digits not before the last extension
		{"app.min.3f2a1b9c0d.js", "app.min.js", "3f2a1b9c0d", true},
		{"LICENSE.3f2a1b9c0d", "LICENSE", "3f2a1b9c0d", true},
		{".env.3f2a1b9c0d", ".env", "3f2a1b9c0d", true},
		{"d/.eslintrc.3f2a1b9c0d.json", "d/.eslintrc.json", "3f2a1b9c0d", true},
		{"a.3f2a1b9c0d.0123456789", "a.0123456789", "3f2a1b9c0d", true},
		{"a.3F2A1B9C0D.js", "", "", false}, // uppercase
		{"a.3f2a1b9c0.js", "", "", false},  // 9 digits
		{"a.3f2a1b9c0dd.js", "", "", false},
		{"a.3f2a1b9c0g.js", "", "", false},
		{".3f2a1b9c0d", "", "", false},
		{"app.js", "", "", false},
		{"noext", "", "", false},
		{"", "", "", false},
		{"dir.3f2a1b9c0d/app.js", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logical, hash, ok := bakefs.SplitHashedName(tt.name)
			if ok != tt.ok || ok && (logical != tt.logical || hash != tt.hash) {
				t.Errorf("SplitHashedName = %q, %q, %v; want %q, %q, %v", logical, hash, ok, tt.logical, tt.hash, tt.ok)
			}
		})
	}
}

// FuzzSplitHashedName checks that SplitHashedName inverts HashedName on
// valid names, and that whatever it accepts HashedName gives back.
func FuzzSplitHashedName(f *testing.F) {
	for _, s := range []string{"js/app.js", "LICENSE", ".env", "a.b.c", "a.", "x/.y.z", "js/app.3f2a1b9c0d.js"} {
		f.Add(s, []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, content []byte) {
		sum := sha256.Sum256(content)
		hexSum := hex.EncodeToString(sum[:])
		if iofs.ValidPath(name) && name != "." {
			hashed := bakefs.HashedName(name, hexSum)
			logical, h, ok := bakefs.SplitHashedName(hashed)
			if !ok || logical != name || h != hexSum[:bakefs.HashLen] {
				t.Fatalf("SplitHashedName(HashedName(%q)) = %q, %q, %v", name, logical, h, ok)
			}
		}
		if logical, h, ok := bakefs.SplitHashedName(name); ok {
			if back := bakefs.HashedName(logical, h+hexSum[bakefs.HashLen:]); back != name {
				t.Fatalf("SplitHashedName(%q) = %q, %q but HashedName gives %q", name, logical, h, back)
			}
		}
	})
}
