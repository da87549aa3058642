package project

import (
	"strings"
	"testing"
)

// jobList returns each job as "path <= file => chain", file relative to
// the source root.
func jobList(t *testing.T, p *Project) string {
	t.Helper()
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, j := range jobs {
		file := strings.TrimPrefix(j.File, p.Src+"/")
		lines = append(lines, j.Path+" <= "+file+" => "+j.Chain.String())
	}
	return strings.Join(lines, "\n")
}

// TestConcatRule: a concat rule makes its output from its files in
// order, with its own concat options kept; the files it joins are parts,
// which later pattern rules do not take, and several rules may share a
// part.
func TestConcatRule(t *testing.T) {
	toml := `src = "web"
out = "b"

[[rule]]
output = "js/app.js"
concat = ["js/gestures.js", "js/app.js"]
steps  = ['concat:footer="/*! end */"', "minify"]

[[rule]]
output = "css/dark.css"
concat = ["css/base.css", "css/dark.css"]

[[rule]]
output = "css/light.css"
concat = ["css/base.css", "css/light.css"]

[[rule]]
match = "**/*.js"
steps = ["minify"]
`
	p, err := Load(writeProject(t, toml, "js/gestures.js", "js/app.js", "js/other.js", "css/base.css", "css/dark.css", "css/light.css"))
	if err != nil {
		t.Fatal(err)
	}
	want := `js/other.js <= js/other.js => minify
js/app.js <= js/gestures.js => concat:files=js/gestures.js,files=js/app.js,footer="/*! end */" | minify
css/dark.css <= css/base.css => concat:files=css/base.css,files=css/dark.css
css/light.css <= css/base.css => concat:files=css/base.css,files=css/light.css`
	if got := jobList(t, p); got != want {
		t.Errorf("jobs:\n%s\nwant:\n%s", got, want)
	}
}

// TestPathMapping: strip_prefix and prefix give matched files their
// logical paths, as a public/ folder served at the root wants.
func TestPathMapping(t *testing.T) {
	toml := `src = "."
out = "b"

[[rule]]
match = "public/**"
strip_prefix = "public"
steps = []

[[rule]]
match = "bundles/css/*.css"
strip_prefix = "bundles/"
prefix = "static"
steps = ["minify"]
`
	file := writeProject(t, toml, "public/favicon.ico", "public/img/logo.svg", "bundles/css/x.css")
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	p.Src += "/web"
	got := jobList(t, p)
	for _, line := range []string{"static/css/x.css <= bundles/css/x.css => minify", "favicon.ico <= public/favicon.ico => ", "img/logo.svg <= public/img/logo.svg => "} {
		if !strings.Contains(got+"\n", line+"\n") {
			t.Errorf("jobs:\n%s\nwant a line %q", got, line)
		}
	}
}

// TestRuleErrors: mistakes of concat rules and mappings name the line,
// and two rules that make one path are an error naming both.
func TestRuleErrors(t *testing.T) {
	head := "src = \"web\"\nout = \"b\"\n\n[[rule]]\n"
	for _, tt := range []struct {
		name, rule, want string
		files            []string
	}{
		{"concat without output", "concat = [\"a.js\"]\n", "bakefs.toml:5: rule 1: concat needs output", nil},
		{"output without concat", "output = \"a.js\"\n", "bakefs.toml:5: rule 1: output names what concat makes", nil},
		{"match and concat", "match = \"*\"\nconcat = [\"a.js\"]\noutput = \"x.js\"\n", "bakefs.toml:6: rule 1: a rule has match or concat, not both", nil},
		{"pattern in concat", "output = \"x.js\"\nconcat = [\"a.js\", \"js/*.js\"]\n", `bakefs.toml:6: rule 1: concat: "js/*.js" is not a path under src`, nil},
		{"concat later", "output = \"x.js\"\nconcat = [\"a.js\"]\nsteps = [\"minify\", \"concat\"]\n", "bakefs.toml:7: rule 1: steps: concat comes first", nil},
		{"files twice", "output = \"x.js\"\nconcat = [\"a.js\"]\nsteps = [\"concat:files=b.js\"]\n", "bakefs.toml:7: rule 1: steps[0]: the files to join are the rule's concat list", nil},
		{"bad strip_prefix", "match = \"*\"\nstrip_prefix = \"../up\"\nsteps = []\n", `bakefs.toml:6: rule 1: strip_prefix: "../up" is not a relative directory`, nil},
		{"missing part", "output = \"x.js\"\nconcat = [\"a.js\", \"gone.js\"]\n", `bakefs.toml:6: concat: gone.js is not a file under`, []string{"a.js"}},
		{"not under strip_prefix", "match = \"**/*.js\"\nstrip_prefix = \"public\"\nsteps = []\n", `bakefs.toml:6: a.js is not under strip_prefix "public/"`, []string{"a.js"}},
		{"two rules, one path", "match = \"public/*.js\"\nstrip_prefix = \"public\"\nsteps = []\n\n[[rule]]\nmatch = \"a.js\"\nsteps = []\n",
			"bakefs.toml:4: a.js, from public/a.js, is also made by the rule at line 9 (a.js), from a.js", []string{"a.js", "public/a.js"}},
		{"concat over a file", "match = \"*.js\"\nsteps = []\n\n[[rule]]\noutput = \"a.js\"\nconcat = [\"b.js\"]\n",
			"bakefs.toml:8: a.js, from the files it joins, is also made by the rule at line 4 (*.js), from a.js", []string{"a.js", "b.js"}},
		{"only parts", "output = \"x.js\"\nconcat = [\"a.js\"]\n\n[[rule]]\nmatch = \"*.js\"\nsteps = []\n",
			`bakefs.toml:9: pattern "*.js" matches only files that concat rules join, such as a.js (joined by the rule at line 4)`, []string{"a.js"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Load(writeProject(t, head+tt.rule, tt.files...))
			if err == nil {
				_, err = p.Jobs()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}
