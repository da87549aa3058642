package transform

import "testing"

// TestChainKey: Key lists each step's name, version and canonical text,
// and AppendKey appends the same bytes after what b holds.
func TestChainKey(t *testing.T) {
	c := Chain{
		{Name: "minify", Version: "3", Canonical: "minify"},
		{Name: "br", Version: "2", Canonical: "br:quality=9"},
	}
	want := "minify@3 minify\nbr@2 br:quality=9\n"
	if got := c.Key(); got != want {
		t.Errorf("Key() = %q, want %q", got, want)
	}
	if got := string(c.AppendKey([]byte("tool x\n"))); got != "tool x\n"+want {
		t.Errorf("AppendKey = %q, want the prefix then %q", got, want)
	}
	if got := (Chain{}).Key(); got != "" {
		t.Errorf("empty chain: Key() = %q", got)
	}
}
