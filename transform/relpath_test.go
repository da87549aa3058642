package transform

import (
	"path"
	"testing"
)

func TestRelativePath(t *testing.T) {
	for _, tc := range []struct{ dir, target, want string }{
		{".", "a.ts", "a.ts"},
		{"", "a.ts", "a.ts"},
		{"lib", "lib/a.ts", "a.ts"},
		{"out", "src/a.ts", "../src/a.ts"},
		{"a/b", "a/c/d.ts", "../c/d.ts"},
		{"a/b", "x.ts", "../../x.ts"},
		{"a/b", "a/b/c/d.ts", "c/d.ts"},
		{"pages", "pages", "../pages"}, // a file named as the directory
	} {
		t.Run(tc.dir+"→"+tc.target, func(t *testing.T) {
			if got := RelativePath(tc.dir, tc.target); got != tc.want {
				t.Errorf("RelativePath(%q, %q) = %q, want %q", tc.dir, tc.target, got, tc.want)
			}
			if joined := path.Join(tc.dir, RelativePath(tc.dir, tc.target)); joined != tc.target {
				t.Errorf("path.Join(dir, rel) = %q, want %q", joined, tc.target)
			}
		})
	}
}
