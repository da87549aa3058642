package sidebyside

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		prepare []string
		wantErr bool
		want    map[string]int // prepare commands per name
	}{
		{"two", []string{"a=x", "b=y=z"}, []string{"*=p", "b=q"}, false, map[string]int{"a": 1, "b": 2}},
		{"none", nil, nil, true, nil},
		{"no equals", []string{"a"}, nil, true, nil},
		{"empty command", []string{"a="}, nil, true, nil},
		{"star name", []string{"*=x"}, nil, true, nil},
		{"duplicate", []string{"a=x", "a=y"}, nil, true, nil},
		{"prepare unknown", []string{"a=x"}, []string{"b=y"}, true, nil},
		{"prepare bad", []string{"a=x"}, []string{"a"}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, err := ParseCommands(tt.args, tt.prepare)
			if tt.wantErr {
				if !errors.Is(err, ErrUsage) {
					t.Fatalf("got %v, want ErrUsage", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cmds {
				if len(c.Prepare) != tt.want[c.Name] {
					t.Errorf("%s has %d prepare commands, want %d", c.Name, len(c.Prepare), tt.want[c.Name])
				}
			}
			if cmds[1].Cmd != "y=z" {
				t.Errorf("command b = %q, want y=z (only the first = splits)", cmds[1].Cmd)
			}
		})
	}
}

// TestMeasureAlternates replaces the runner with a fake clock: "slow" takes
// three times as long as "fast", and the machine gets slower every run, as
// a noisy neighbour would make it. Pairing within rounds must still find 3.
func TestMeasureAlternates(t *testing.T) {
	var order []string
	load := 1.0
	runner = func(cmd string, _ Options) (sample, []byte, error) {
		order = append(order, cmd)
		load *= 1.1
		base := map[string]float64{"fast": 10, "slow": 30, "prep": 1}[cmd]
		return sample{wall: time.Duration(base * load * float64(time.Millisecond)), rssKiB: int64(base) * 1024}, nil, nil
	}
	cmds, err := ParseCommands([]string{"f=fast", "s=slow"}, []string{"s=prep"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Measure(cmds, Options{Warmup: 1, Rounds: 4, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(order, " ")
	want := "fast prep slow " + // warmup
		"fast prep slow prep slow fast fast prep slow prep slow fast"
	if got != want {
		t.Errorf("order:\n got %s\nwant %s", got, want)
	}
	st := res.Stats("s")
	if st.Ratio < 2.5 || st.Ratio > 3.7 {
		t.Errorf("ratio %.2f, want about 3 despite the growing load", st.Ratio)
	}
	if st.RSSRatio != 3 {
		t.Errorf("RSS ratio %.2f, want 3", st.RSSRatio)
	}
	md := res.Markdown("T")
	for _, s := range []string{"#### T", "| s |", "`slow` (before each run: `prep`)", "4 rounds"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func TestMeasureFailure(t *testing.T) {
	runner = func(cmd string, _ Options) (sample, []byte, error) {
		if cmd == "bad" {
			return sample{}, []byte("boom"), errors.New("exit status 1")
		}
		return sample{wall: time.Millisecond}, nil, nil
	}
	cmds, _ := ParseCommands([]string{"g=good", "b=bad"}, nil)
	_, err := Measure(cmds, Options{Rounds: 2})
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "b: bad") {
		t.Fatalf("got %v, want the failing command and its output", err)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"odd", []float64{3, 1, 2}, 2},
		{"even", []float64{4, 1, 3, 2}, 2.5},
		{"empty", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := median(tt.in); got != tt.want {
				t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestRatio(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1, "1.00"},
		{27.483, "27.48"},
		{0.1234, "0.12"},
		{0.01234, "0.012"},
		{0.000456, "0.00046"},
		{0, "0.00"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := ratio(tt.in); got != tt.want {
				t.Errorf("ratio(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
