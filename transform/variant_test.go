package transform

import (
	"fmt"
	"testing"
)

func TestWorthKeeping(t *testing.T) {
	tests := []struct {
		identity, encoded int
		want              bool
	}{
		{1000, 950, true},  // 50 bytes, 5%
		{1000, 951, false}, // 4.9%
		{100, 68, true},    // 32 bytes, 32%
		{100, 69, false},   // 31 bytes
		{1 << 20, 1 << 20, false},
		{1 << 20, 1<<20 - 52428, false}, // just under 5%
		{1 << 20, 1<<20 - 52429, true},
		{40, 50, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d-%d", tt.identity, tt.encoded), func(t *testing.T) {
			if got := WorthKeeping(tt.identity, tt.encoded); got != tt.want {
				t.Errorf("WorthKeeping(%d, %d) = %v, want %v", tt.identity, tt.encoded, got, tt.want)
			}
		})
	}
}
