package pipeline

import (
	"strconv"
	"strings"
)

// An Explanation says why a job ran instead of coming from the cache
// (Pipeline.Explain): what changed since the job's last run, as the
// cache's record of it (jobrecords.go) and the entry it made tell.
type Explanation struct {
	// Path is the job's logical path (Job.Path).
	Path string
	// Reasons are what made the job run, the cause first, in words:
	// "input js/util.ts changed", "option minify.target changed (es2020 →
	// es2017)", "directory listing js/components changed", "tool changed
	// (bakefs build ID)", "no earlier build of this job", "cache entry
	// evicted". Files are named by their path under the source root, or
	// in full outside it. A note on this run may follow, such as "input
	// a.css changed while it ran, so it ran again".
	Reasons []string
}

// String returns "PATH: REASON; REASON".
func (e Explanation) String() string {
	return e.Path + ": " + strings.Join(e.Reasons, "; ")
}

// explainMiss returns why job, whose record now is rec, looked up under
// rec.Key, found no cache entry: what differs from the record the cache
// holds of its last run, and, when the key is the same, what the entry
// that run made depends on that changed.
func (p *Pipeline) explainMiss(job *Job, rec jobRecord) []string {
	c := p.Cache
	id := jobIdentity(job)
	tool := c.toolRecord()
	old, oldTool, ok := c.jobRecords().last(id, tool)
	for i := 0; !ok && i < len(job.Inputs); i++ {
		// A joined job is recorded under its first input: that of its
		// last run may be one of its further inputs now.
		old, oldTool, ok = c.jobRecords().last(job.Inputs[i].Path, tool)
	}
	var why []string
	switch {
	case !ok:
		why = []string{"no earlier build of this job"}
	case old.Key == rec.Key && old.Note != "":
		why = []string{old.Note}
	case old.Key == rec.Key:
		if why = p.changedDeps(old.Key); len(why) == 0 {
			why = []string{"cache entry evicted"}
		}
	default:
		why = append(keyChanges(old, oldTool, rec, tool), p.changedDeps(old.Key)...)
		if len(why) == 0 {
			why = []string{"cache key changed"}
		}
	}
	if p.Remote != nil {
		why = append(why, "not in the remote cache")
	}
	return dedupe(why)
}

// keyChanges lists the parts of a job's cache key that differ between its
// record old, keyed with oldTool, and rec, keyed with tool.
func keyChanges(old jobRecord, oldTool toolRecord, rec jobRecord, tool toolRecord) []string {
	var why []string
	if oldTool.Identity != tool.Identity {
		why = append(why, "tool changed ("+toolChange(oldTool.Info, tool.Info)+")")
	}
	if old.Profile != rec.Profile {
		why = append(why, "profile changed ("+old.Profile+" → "+rec.Profile+")")
	}
	if old.Source != rec.Source {
		why = append(why, "source changed ("+old.Source+" → "+rec.Source+")")
	}
	if old.Width != rec.Width || old.Height != rec.Height {
		why = append(why, "image size changed ("+size(old.Width, old.Height)+" → "+size(rec.Width, rec.Height)+")")
	}
	why = append(why, chainChanges(old.Chain, rec.Chain)...)
	why = append(why, inputChanges(old.Inputs, rec.Inputs)...)
	if old.Carried != rec.Carried {
		why = append(why, "carried variants changed")
	}
	return why
}

func size(w, h int) string { return strconv.Itoa(w) + "x" + strconv.Itoa(h) }

// toolChange words what differs between two descriptions of the tool
// (toolid.Info.String: "bakefs VERSION", the Go version, a module and its
// version a line): the lines that changed, or, when none did, the
// executable itself (a development build is named by its build ID).
func toolChange(old, cur string) string {
	was := make(map[string]string)
	for _, line := range strings.Split(old, "\n") {
		if line != "" {
			name, version := toolLine(line)
			was[name] = version
		}
	}
	var changes []string
	for _, line := range strings.Split(cur, "\n") {
		name, version := toolLine(line)
		if line == "" || was[name] == version {
			continue
		}
		prev := was[name]
		if prev == "" {
			prev = "none"
		}
		changes = append(changes, name+" "+prev+" → "+version)
	}
	if len(changes) == 0 {
		return "bakefs build ID"
	}
	return strings.Join(changes, ", ")
}

// toolLine splits a line of toolid.Info.String into a name and a version;
// the Go version's line is named "go".
func toolLine(line string) (name, version string) {
	if name, version, ok := strings.Cut(line, " "); ok {
		return name, version
	}
	return "go", line
}

// chainChanges lists what differs between two chains, given by their
// keys (transform.Chain.Key: "name@version canonical" a line): the steps
// themselves, or a step's version, or its options one by one.
func chainChanges(old, cur string) []string {
	if old == cur {
		return nil
	}
	a, b := chainSteps(old), chainSteps(cur)
	if len(a) != len(b) {
		return []string{"steps changed (" + chainText(a) + " → " + chainText(b) + ")"}
	}
	for i := range a {
		if a[i].name != b[i].name {
			return []string{"steps changed (" + chainText(a) + " → " + chainText(b) + ")"}
		}
	}
	var why []string
	for i := range a {
		if a[i].version != b[i].version {
			why = append(why, "step "+a[i].name+" changed version ("+a[i].version+" → "+b[i].version+")")
		}
		why = append(why, optionChanges(a[i].name, a[i].canonical, b[i].canonical)...)
	}
	return why
}

// A chainStep is one line of a chain's key.
type chainStep struct {
	name, version, canonical string
}

func chainSteps(key string) []chainStep {
	var steps []chainStep
	for _, line := range strings.Split(strings.TrimSuffix(key, "\n"), "\n") {
		if line == "" {
			continue
		}
		id, canonical, _ := strings.Cut(line, " ")
		name, version, _ := strings.Cut(id, "@")
		steps = append(steps, chainStep{name, version, canonical})
	}
	return steps
}

// chainText is a chain in the step language, as transform.Chain.String
// writes it; "no steps" for none.
func chainText(steps []chainStep) string {
	if len(steps) == 0 {
		return "no steps"
	}
	texts := make([]string, len(steps))
	for i, s := range steps {
		texts[i] = s.canonical
	}
	return strings.Join(texts, " | ")
}

// optionChanges lists the options of step name that differ between two
// canonical texts ("name:key=value,key=value", a list's items under one
// key each, values quoted as Go strings where needed): "option
// name.key changed (old → new)", an option left at its default shown as
// "default".
func optionChanges(name, old, cur string) []string {
	if old == cur {
		return nil
	}
	a, okA := canonicalOptions(old)
	b, okB := canonicalOptions(cur)
	if !okA || !okB {
		return []string{"options of " + name + " changed (" + old + " → " + cur + ")"}
	}
	var why []string
	for _, key := range mergedKeys(a, b) {
		was, now := a.value(key), b.value(key)
		if was != now {
			why = append(why, "option "+name+"."+key+" changed ("+orDefault(was)+" → "+orDefault(now)+")")
		}
	}
	return why
}

func orDefault(v string) string {
	if v == "" {
		return "default"
	}
	return v
}

// stepOptions are a canonical step text's options in order: keys, with
// the items of each (joined by "+", as the step language writes lists).
type stepOptions struct {
	keys   []string
	values map[string][]string
}

func (o stepOptions) value(key string) string { return strings.Join(o.values[key], "+") }

// mergedKeys returns the keys of a, then those of b that a lacks.
func mergedKeys(a, b stepOptions) []string {
	keys := append([]string(nil), a.keys...)
	for _, k := range b.keys {
		if _, ok := a.values[k]; !ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// canonicalOptions splits a canonical step text into its options; ok is
// false for a text it cannot read.
func canonicalOptions(text string) (opts stepOptions, ok bool) {
	opts.values = make(map[string][]string)
	_, rest, found := strings.Cut(text, ":")
	if !found {
		return opts, true
	}
	for rest != "" {
		key, after, found := strings.Cut(rest, "=")
		if !found || key == "" {
			return opts, false
		}
		var value string
		if strings.HasPrefix(after, `"`) {
			quoted, err := strconv.QuotedPrefix(after)
			if err != nil {
				return opts, false
			}
			if value, err = strconv.Unquote(quoted); err != nil {
				return opts, false
			}
			after = after[len(quoted):]
		} else if i := strings.IndexByte(after, ','); i >= 0 {
			value, after = after[:i], after[i:]
		} else {
			value, after = after, ""
		}
		if _, seen := opts.values[key]; !seen {
			opts.keys = append(opts.keys, key)
		}
		opts.values[key] = append(opts.values[key], value)
		if after != "" && after[0] != ',' {
			return opts, false
		}
		rest = strings.TrimPrefix(after, ",")
	}
	return opts, true
}

// inputChanges lists the inputs added, removed or changed between two
// records, in the order of the new one, then those removed.
func inputChanges(old, cur []recordedInput) []string {
	was := make(map[string]string, len(old))
	for _, in := range old {
		was[in.Path] = in.SHA256
	}
	var why []string
	is := make(map[string]bool, len(cur))
	for _, in := range cur {
		is[in.Path] = true
		switch sum, ok := was[in.Path]; {
		case !ok:
			why = append(why, "input "+in.Path+" added")
		case sum != in.SHA256:
			why = append(why, "input "+in.Path+" changed")
		}
	}
	for _, in := range old {
		if !is[in.Path] {
			why = append(why, "input "+in.Path+" removed")
		}
	}
	return why
}

// changedDeps lists the dependencies of the entry stored under key (the
// variant the last run used, else the newest) whose file or listing
// differs now from what the entry recorded; none when there is no entry.
func (p *Pipeline) changedDeps(key string) []string {
	c := p.Cache
	e, ok := c.entryIndex().lookup(key)
	if !ok {
		cf, _, found := c.readEntryFile(c.entryFile(key))
		if !found {
			return nil
		}
		e = cf.Variants[0]
	}
	var why []string
	for _, d := range e.Deps {
		sum, err := c.depSum(d.path(p.Root), d.Dir)
		name := d.File
		switch {
		case d.Dir && (err != nil || sum != d.SHA256):
			why = append(why, "directory listing "+name+" changed")
		case err != nil:
			why = append(why, "input "+name+" removed")
		case sum != d.SHA256:
			why = append(why, "input "+name+" changed")
		}
	}
	return why
}

// uncachedNotes words why a run's result stayed out of the cache (err from
// Cache.store), for this run's explanation and for the next's.
func uncachedNotes(err error) (now, next string) {
	d, ok := err.(*uncachedError)
	if !ok {
		return "", ""
	}
	what := "input " + d.name
	if d.dir {
		what = "directory listing " + d.name
	}
	switch d.why {
	case depVanished:
		return "not cached: " + what + " vanished while it ran", what + " vanished during the last run"
	case depChanged:
		return "not cached: " + what + " changed while it ran", what + " changed during the last run"
	default:
		return "not cached: " + what + " was modified too recently (racy)", what + " was modified during the last run (racy)"
	}
}

// dedupe drops repeated reasons, keeping the first of each.
func dedupe(why []string) []string {
	seen := make(map[string]bool, len(why))
	out := why[:0]
	for _, w := range why {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
