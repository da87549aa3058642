package embedgen

import (
	"errors"
	iofs "io/fs"
	"testing"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"js/app.js", true},
		{".well-known/security.txt", true},
		{"_next/static/chunk.js", true},
		{"a b/c d.txt", true},
		{"a[1]/b{2}(3)!#$%&+,-=@^~.txt", true},
		{"café/über.txt", true},
		{"main.go", true},
		{"CONFIG.txt", true},
		{"a\"b.txt", false},
		{"a*b.txt", false},
		{"a?b.txt", false},
		{"a<b.txt", false},
		{"a>b.txt", false},
		{"a|b.txt", false},
		{"a:b.txt", false},
		{"a\\b.txt", false},
		{"a`b.txt", false},
		{"a'b.txt", false},
		{"a;b.txt", false},
		{"tab\there.txt", false},
		{"new\nline.txt", false},
		{"del\x7f.txt", false},
		{"cafe\u0301.txt", false}, // combining mark, not a letter
		{"emoji\U0001F600.txt", false},
		{"bad\xffutf8.txt", false},
		{"trailing./x.txt", false},
		{"x.txt.", false},
		{"...", false},
		{"con.txt", false},
		{"dir/NUL", false},
		{"Lpt9.log", false},
		{"COM10.txt", true},
		{".git/config", false},
		{"a/.svn", false},
		{".hg/x", false},
		{"sub/go.mod", false},
		{"go.mod/x", false},
		{"go.sum", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkName(tt.name)
			if tt.ok && err != nil {
				t.Fatalf("checkName(%q) = %v, want nil", tt.name, err)
			}
			if !tt.ok && !errors.Is(err, ErrName) {
				t.Fatalf("checkName(%q) = %v, want ErrName", tt.name, err)
			}
		})
	}
}

func TestNameSet(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		bad   int // index of the file whose add fails; -1 for none
	}{
		{"distinct", []string{"a.js", "b.js", "d/a.js"}, -1},
		{"case of file", []string{"README.md", "readme.md"}, 1},
		{"case of dir", []string{"Img/a.png", "img/b.png"}, 1},
		{"unicode fold", []string{"straße/K.txt", "STRASSE/x", "straße/\u212a.txt"}, 2}, // Kelvin sign folds to K
		{"file and dir", []string{"a", "a/b"}, 1},
		{"dir and file", []string{"a/b", "a"}, 1},
		{"twice", []string{"a", "a"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s nameSet
			for i, f := range tt.files {
				err := s.add(f)
				switch {
				case i == tt.bad:
					var pe *iofs.PathError
					if !errors.As(err, &pe) || pe.Op != "embed" || pe.Path != f || !errors.Is(err, ErrName) {
						t.Fatalf("add(%q) = %v, want *PathError embed %s wrapping ErrName", f, err, f)
					}
					return
				case err != nil:
					t.Fatalf("add(%q) = %v", f, err)
				}
			}
			if tt.bad >= 0 {
				t.Fatalf("no error, want one for %q", tt.files[tt.bad])
			}
		})
	}
}
