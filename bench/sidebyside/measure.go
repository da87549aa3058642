package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// errUsage reports command-line arguments that cannot be measured.
var errUsage = errors.New("sidebyside: bad arguments")

// A command is one contender.
type command struct {
	name, cmd string
	prepare   []string
}

// parseCommands reads NAME=CMD arguments and attaches the prepare commands.
func parseCommands(args, prepare []string) ([]command, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: no NAME=CMD", errUsage)
	}
	var cmds []command
	index := make(map[string]int)
	for _, a := range args {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok || name == "" || cmd == "" || name == "*" {
			return nil, fmt.Errorf("%w: %q is not NAME=CMD", errUsage, a)
		}
		if _, dup := index[name]; dup {
			return nil, fmt.Errorf("%w: two commands named %q", errUsage, name)
		}
		index[name] = len(cmds)
		cmds = append(cmds, command{name: name, cmd: cmd})
	}
	for _, p := range prepare {
		name, cmd, ok := strings.Cut(p, "=")
		if !ok || cmd == "" {
			return nil, fmt.Errorf("%w: -prepare %q is not NAME=CMD", errUsage, p)
		}
		if name == "*" {
			for i := range cmds {
				cmds[i].prepare = append(cmds[i].prepare, cmd)
			}
			continue
		}
		i, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("%w: -prepare names %q, which is no command", errUsage, name)
		}
		cmds[i].prepare = append(cmds[i].prepare, cmd)
	}
	return cmds, nil
}

// A sample is one timed run.
type sample struct {
	wall   time.Duration
	rssKiB int64
}

// results holds every command's samples, one per round, in command order.
type results struct {
	cmds    []command
	samples [][]sample // [command][round]
}

// runner runs one shell command and measures it; tests replace it.
var runner = func(cmd string) (sample, []byte, error) {
	c := exec.Command("bash", "-c", cmd)
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

// measure runs warmup rounds, then rounds, rotating the first command.
// Progress goes to log.
func measure(cmds []command, warmup, rounds int, log io.Writer) (*results, error) {
	res := &results{cmds: cmds, samples: make([][]sample, len(cmds))}
	for r := -warmup; r < rounds; r++ {
		for k := range cmds {
			i := (k + max(r, 0)) % len(cmds)
			c := cmds[i]
			for _, p := range c.prepare {
				if _, out, err := runner(p); err != nil {
					return nil, fmt.Errorf("prepare of %s: %s: %v\n%s", c.name, p, err, out)
				}
			}
			s, out, err := runner(c.cmd)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v\n%s", c.name, c.cmd, err, out)
			}
			if r >= 0 {
				res.samples[i] = append(res.samples[i], s)
			}
		}
		if r >= 0 {
			fmt.Fprintf(log, "sidebyside: round %d/%d done\n", r+1, rounds)
		}
	}
	return res, nil
}

// stats summarises one command.
type stats struct {
	median, min, max time.Duration
	ratio            float64 // median over rounds of wall/first command's wall
	ratioMin         float64
	ratioMax         float64
	rssKiB           int64 // median peak RSS
	rssRatio         float64
}

func (res *results) stats(i int) stats {
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
	return stats{
		median: time.Duration(median(walls)), min: time.Duration(slices.Min(walls)), max: time.Duration(slices.Max(walls)),
		ratio: median(ratios), ratioMin: slices.Min(ratios), ratioMax: slices.Max(ratios),
		rssKiB: int64(median(rss)), rssRatio: median(rssRatios),
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

// markdown renders the results as a table headed by title.
func (res *results) markdown(title string) string {
	var b strings.Builder
	if title != "" {
		fmt.Fprintf(&b, "#### %s\n\n", title)
	}
	rounds := len(res.samples[0])
	fmt.Fprintf(&b, "| command | median | min … max | ratio vs %s (min … max) | peak RSS | RSS ratio |\n", res.cmds[0].name)
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for i, c := range res.cmds {
		st := res.stats(i)
		fmt.Fprintf(&b, "| %s | %s | %s … %s | %s× (%s … %s) | %s | %s× |\n",
			c.name, ms(st.median), ms(st.min), ms(st.max), ratio(st.ratio), ratio(st.ratioMin), ratio(st.ratioMax), mib(st.rssKiB), ratio(st.rssRatio))
	}
	fmt.Fprintf(&b, "\n%d rounds, alternating. Commands:\n\n", rounds)
	for _, c := range res.cmds {
		fmt.Fprintf(&b, "- %s: `%s`", c.name, c.cmd)
		if len(c.prepare) > 0 {
			fmt.Fprintf(&b, " (before each run: `%s`)", strings.Join(c.prepare, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func ms(d time.Duration) string {
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

func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }
