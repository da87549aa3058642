package browser

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProductionBinaryHasNoDevCode checks that the example's production
// binary contains neither the dev server, the transform pipeline, nor
// their dependencies, while the dev build (the control) has them.
func TestProductionBinaryHasNoDevCode(t *testing.T) {
	f := setup(t, "prod", "dev")
	markers := []struct {
		what   string
		module string // in go version -m; "" to skip
		symbol string // prefix of a symbol in go tool nm; "" to skip
	}{
		{"package dev", "", "github.com/bakefs/bakefs/dev."},
		{"package transform", "", "github.com/bakefs/bakefs/transform."},
		{"fsnotify", "github.com/fsnotify/fsnotify", "github.com/fsnotify/fsnotify."},
		{"esbuild", "github.com/evanw/esbuild", "github.com/evanw/esbuild/"},
	}
	tests := []struct {
		name, bin string
		want      bool
	}{
		{"production", f.prod, false},
		{"dev", f.devBin, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mods, err := exec.Command(goBin(), "version", "-m", tt.bin).Output()
			if err != nil {
				t.Fatalf("go version -m: %v", err)
			}
			syms, err := exec.Command(goBin(), "tool", "nm", tt.bin).Output()
			if err != nil {
				t.Fatalf("go tool nm: %v", err)
			}
			if strings.Contains(string(mods), "github.com/chromedp/") || strings.Contains(string(syms), "github.com/chromedp/") {
				t.Error("chromedp is linked in")
			}
			for _, m := range markers {
				if m.module != "" {
					if got := strings.Contains(string(mods), "\t"+m.module+"\t"); got != tt.want {
						t.Errorf("module %s listed by go version -m: %v, want %v", m.module, got, tt.want)
					}
				}
				if got := strings.Contains(string(syms), " "+m.symbol); got != tt.want {
					t.Errorf("symbols of %s in go tool nm: %v, want %v", m.what, got, tt.want)
				}
			}
		})
	}
}
