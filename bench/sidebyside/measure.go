// Package sidebyside times commands against each other on a shared, noisy
// machine: it runs them in alternation, round after round, and reports
// each command's time and peak memory relative to the first command's in
// the same round. The ratio of a command is the median, over the rounds,
// of its time divided by the first command's time in that round; pairing
// runs that are seconds apart cancels most of the load that other
// processes put on the machine. Peak RSS is the largest resident set of
// the command and its waited-for children (wait4), as /usr/bin/time
// reports it.
package sidebyside

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ErrUsage reports command-line arguments that cannot be measured.
var ErrUsage = errors.New("sidebyside: bad arguments")

// A Command is one contender: Cmd runs with bash -c, and each of Prepare
// before every run of it, untimed (to empty a cache or change a file).
type Command struct {
	Name, Cmd string
	Prepare   []string
}

// ParseCommands reads NAME=CMD arguments and attaches the NAME=CMD prepare
// commands (NAME "*": every command).
func ParseCommands(args, prepare []string) ([]Command, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: no NAME=CMD", ErrUsage)
	}
	var cmds []Command
	index := make(map[string]int)
	for _, a := range args {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok || name == "" || cmd == "" || name == "*" {
			return nil, fmt.Errorf("%w: %q is not NAME=CMD", ErrUsage, a)
		}
		if _, dup := index[name]; dup {
			return nil, fmt.Errorf("%w: two commands named %q", ErrUsage, name)
		}
		index[name] = len(cmds)
		cmds = append(cmds, Command{Name: name, Cmd: cmd})
	}
	for _, p := range prepare {
		name, cmd, ok := strings.Cut(p, "=")
		if !ok || cmd == "" {
			return nil, fmt.Errorf("%w: -prepare %q is not NAME=CMD", ErrUsage, p)
		}
		if name == "*" {
			for i := range cmds {
				cmds[i].Prepare = append(cmds[i].Prepare, cmd)
			}
			continue
		}
		i, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("%w: -prepare names %q, which is no command", ErrUsage, name)
		}
		cmds[i].Prepare = append(cmds[i].Prepare, cmd)
	}
	return cmds, nil
}

// A sample is one timed run.
type sample struct {
	wall   time.Duration
	rssKiB int64
}

// Options says how to measure.
type Options struct {
	Warmup, Rounds int       // unmeasured rounds first, then measured ones
	Dir            string    // working directory of every command ("": the current one)
	Env            []string  // added to the environment of every command
	Log            io.Writer // progress, one line per round (nil: none)
}

// Results holds every command's samples, one per round, in command order.
type Results struct {
	cmds    []Command
	samples [][]sample // [command][round]
}

// runner runs one shell command and measures it; tests replace it.
var runner = func(cmd string, opt Options) (sample, []byte, error) {
	c := exec.Command("bash", "-c", cmd)
	c.Dir = opt.Dir
	if len(opt.Env) > 0 {
		c.Env = append(os.Environ(), opt.Env...)
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	err := c.Run()
	s := sample{wall: time.Since(start)}
	if c.ProcessState != nil {
		if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
			s.rssKiB = ru.Maxrss
		}
	}
	return s, out.Bytes(), err
}

// Measure runs opt.Warmup rounds, then opt.Rounds, each running every
// command once; round r starts with command r mod n, so that no command
// always runs first. A command or prepare command that fails stops the
// measurement with its output.
func Measure(cmds []Command, opt Options) (*Results, error) {
	if len(cmds) == 0 || opt.Rounds < 1 || opt.Warmup < 0 {
		return nil, fmt.Errorf("%w: %d commands, %d rounds, %d warm-up rounds", ErrUsage, len(cmds), opt.Rounds, opt.Warmup)
	}
	res := &Results{cmds: cmds, samples: make([][]sample, len(cmds))}
	for r := -opt.Warmup; r < opt.Rounds; r++ {
		for k := range cmds {
			i := (k + max(r, 0)) % len(cmds)
			c := cmds[i]
			for _, p := range c.Prepare {
				if _, out, err := runner(p, opt); err != nil {
					return nil, fmt.Errorf("prepare of %s: %s: %v\n%s", c.Name, p, err, out)
				}
			}
			s, out, err := runner(c.Cmd, opt)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v\n%s", c.Name, c.Cmd, err, out)
			}
			if r >= 0 {
				res.samples[i] = append(res.samples[i], s)
			}
		}
		if r >= 0 && opt.Log != nil {
			fmt.Fprintf(opt.Log, "sidebyside: round %d/%d done\n", r+1, opt.Rounds)
		}
	}
	return res, nil
}

// Stats summarises one command's rounds.
type Stats struct {
	Median, Min, Max time.Duration
	Ratio            float64 // median over rounds of its time / the first command's
	RatioMin         float64
	RatioMax         float64
	RSSKiB           int64   // median peak RSS
	RSSRatio         float64 // median over rounds of its peak RSS / the first command's
}

// Stats returns the summary of the command named name; it panics if there
// is none, a mistake of the caller's.
func (res *Results) Stats(name string) Stats {
	for i, c := range res.cmds {
		if c.Name == name {
			return res.stats(i)
		}
	}
	panic(fmt.Sprintf("sidebyside: no command named %q", name))
}

func (res *Results) stats(i int) Stats {
	s := res.samples[i]
	walls := make([]float64, len(s))
	rss := make([]float64, len(s))
	ratios := make([]float64, len(s))
	rssRatios := make([]float64, len(s))
	for r := range s {
		base := res.samples[0][r]
		walls[r] = float64(s[r].wall)
		rss[r] = float64(s[r].rssKiB)
		ratios[r] = float64(s[r].wall) / float64(max(base.wall, 1))
		rssRatios[r] = float64(s[r].rssKiB) / float64(max(base.rssKiB, 1))
	}
	return Stats{
		Median: time.Duration(median(walls)), Min: time.Duration(slices.Min(walls)), Max: time.Duration(slices.Max(walls)),
		Ratio: median(ratios), RatioMin: slices.Min(ratios), RatioMax: slices.Max(ratios),
		RSSKiB: int64(median(rss)), RSSRatio: median(rssRatios),
	}
}

// median returns the middle value, or the mean of the two middle values.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Markdown renders the results as a table headed by title ("": no heading),
// followed by the commands.
func (res *Results) Markdown(title string) string {
	var b strings.Builder
	if title != "" {
		fmt.Fprintf(&b, "#### %s\n\n", title)
	}
	rounds := len(res.samples[0])
	fmt.Fprintf(&b, "| command | median | min … max | ratio vs %s (min … max) | peak RSS | RSS ratio |\n", res.cmds[0].Name)
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for i, c := range res.cmds {
		st := res.stats(i)
		fmt.Fprintf(&b, "| %s | %s | %s … %s | %s | %s | %s× |\n",
			c.Name, Duration(st.Median), Duration(st.Min), Duration(st.Max), st.RatioText(), st.RSSText(), ratio(st.RSSRatio))
	}
	fmt.Fprintf(&b, "\n%d rounds, alternating. Commands:\n\n", rounds)
	for _, c := range res.cmds {
		fmt.Fprintf(&b, "- %s: `%s`", c.Name, c.Cmd)
		if len(c.Prepare) > 0 {
			fmt.Fprintf(&b, " (before each run: `%s`)", strings.Join(c.Prepare, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// RatioText is the ratio as the table prints it: "1.18× (0.84 … 1.30)".
func (s Stats) RatioText() string {
	return fmt.Sprintf("%s× (%s … %s)", ratio(s.Ratio), ratio(s.RatioMin), ratio(s.RatioMax))
}

// RSSText is the median peak RSS in MiB: "123 MiB".
func (s Stats) RSSText() string { return fmt.Sprintf("%.0f MiB", float64(s.RSSKiB)/1024) }

// MedianText is the median time as the table prints it.
func (s Stats) MedianText() string { return Duration(s.Median) }

// Duration prints d in milliseconds, or in seconds from 10 s on.
func Duration(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// ratio prints two significant digits below 0.1, two decimals above.
func ratio(r float64) string {
	if r > 0 && r < 0.1 {
		return fmt.Sprintf("%.2g", r)
	}
	return fmt.Sprintf("%.2f", r)
}
