package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestTranspileGolden(t *testing.T) {
	for _, tc := range []struct {
		name, step, file string
		paths            string // the output paths, in order
	}{
		{"default", "typescript", "lib/format.ts", "lib/format.js"},
		{"es2015", "typescript:target=es2015", "lib/format.ts", "lib/format.js"},
		{"esnext", "typescript:target=esnext", "lib/format.ts", "lib/format.js"},
		{"iife", "typescript:format=iife", "lib/greet.ts", "lib/greet.js"},
		{"cjs", "typescript:format=cjs", "lib/greet.ts", "lib/greet.js"},
		{"sourcemap-external", "typescript:sourcemap=external", "lib/greet.ts", "lib/greet.js lib/greet.js.map"},
		{"sourcemap-inline", "typescript:sourcemap=inline", "lib/greet.ts", "lib/greet.js"},
		{"define", "typescript:define=DEBUG:false", "app.ts", "app.js"},
		{"mts", "typescript", "lib/module.mts", "lib/module.mjs"},
		{"tsx", "tsx", "components/Button.tsx", "components/Button.js"},
		{"tsx-automatic", "tsx:jsx=automatic", "components/Button.tsx", "components/Button.js"},
		{"tsx-factory", "tsx:jsx-factory=h,jsx-fragment=Fragment", "components/Button.tsx", "components/Button.js"},
		{"jsx", "jsx", "components/list.jsx", "components/list.js"},
		{"jsx-import-source", "jsx:jsx=automatic,jsx-import-source=preact", "components/list.jsx", "components/list.js"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			esCheckStep(t, tc.step, tc.file, tc.paths, "esbuild/transpile/"+tc.name+".txt")
		})
	}
}

// TestTranspileSourceMapLink checks that an external map is linked by the
// last line of the code and names the source relative to itself.
func TestTranspileSourceMapLink(t *testing.T) {
	out, _, err := esRun(t, esRoot, "typescript:sourcemap=external", esLoad(t, esRoot, "lib/greet.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("got %d assets, want 2", len(out))
	}
	if !strings.HasSuffix(string(out[0].Data), "\n//# sourceMappingURL=greet.js.map\n") {
		t.Errorf("code does not end with the map link:\n%s", out[0].Data)
	}
	if !strings.Contains(string(out[1].Data), `"sources": ["greet.ts"]`) {
		t.Errorf("map does not name greet.ts relative to itself:\n%s", out[1].Data)
	}
}

func TestTranspilePassThrough(t *testing.T) {
	css := esLoad(t, esRoot, "styles/base.css")
	js := &transform.Asset{Path: "x.js", Source: "x.ts", Data: []byte("let a = b < c > d;\n")}
	tsx := esLoad(t, esRoot, "components/Button.tsx")
	for step, others := range map[string][]*transform.Asset{
		"typescript": {css, js, tsx},
		"jsx":        {css, js, tsx},
		"tsx":        {css, js, esLoad(t, esRoot, "lib/format.ts")},
	} {
		t.Run(step, func(t *testing.T) {
			out, _, err := esRun(t, esRoot, step, others...)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(others) {
				t.Fatalf("got %s", esPaths(out))
			}
			for i := range out {
				if out[i] != others[i] {
					t.Errorf("%s changed %s", step, others[i].Path)
				}
			}
		})
	}
}

func TestTranspileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, step, file string
		data             string // replaces the file's bytes when set
		want             string // the exact error text
		count            int    // SourceErrors; 0 for one *SourceError, -1 for neither
	}{
		{
			name: "syntax",
			step: "typescript", file: "broken/syntax.ts",
			want: `broken/syntax.ts:4:13: error: Unexpected "="`,
		},
		{
			name: "two errors",
			step: "typescript", file: "broken/two-errors.ts",
			want:  "broken/two-errors.ts:2:5: error: The symbol \"a\" has already been declared\nbroken/two-errors.ts:3:9: error: Unexpected \";\"",
			count: 2,
		},
		{
			name: "multibyte column",
			step: "typescript", file: "lib/format.ts",
			data:  "const s = \"héllo\"; let x = é é;\n",
			want:  `lib/format.ts: typescript: lib/format.ts:1:32: error: Expected ";" but found "é"`,
			count: -1,
		},
		{
			name: "jsx in typescript",
			step: "typescript", file: "components/Button.tsx",
			data:  "const b = <b>x</b>;\n",
			want:  "components/Button.tsx: typescript: components/Button.ts:1:20: error: Unterminated regular expression",
			count: -1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := esLoad(t, esRoot, tc.file)
			step := tc.step
			if tc.data != "" {
				// Bytes that differ from the file on disk come from an
				// earlier step: the positions are not the source's.
				a.Data = []byte(tc.data)
				if strings.HasSuffix(tc.file, ".tsx") {
					a.Path = strings.TrimSuffix(a.Path, "x")
				}
			}
			chain := transform.Chain{mustStep(t, step)}
			_, err := chain.Run(transform.NewContext(t.Context(), esRoot, transform.Release), []*transform.Asset{a})
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			var se *transform.SourceError
			var ses transform.SourceErrors
			switch {
			case tc.count == 0 && !errors.As(err, &se):
				t.Errorf("error is %T, want *SourceError", err)
			case tc.count > 0 && (!errors.As(err, &ses) || len(ses) != tc.count):
				t.Errorf("error is %T, want SourceErrors of %d", err, tc.count)
			case tc.count < 0 && (errors.As(err, &se) || errors.As(err, &ses)):
				t.Errorf("error is a source error, but the bytes are not the source's")
			}
		})
	}
}

func mustStep(t testing.TB, text string) *transform.BoundStep {
	t.Helper()
	s, err := transform.NewStep(text)
	if err != nil {
		t.Fatalf("NewStep(%q): %v", text, err)
	}
	return s
}

func TestTranspileBadOptions(t *testing.T) {
	for _, tc := range []struct{ name, step, want string }{
		{"unknown option", "typescript:minify=true", `option "minify": unknown option`},
		{"bad target", "typescript:target=es3", `"es3" is not one of es2015`},
		{"bad format", "tsx:format=amd", `"amd" is not one of esm, iife, cjs`},
		{"bad sourcemap", "typescript:sourcemap=both", `"both" is not one of none, external, inline`},
		{"bad define", `typescript:define="DEBUG:if("`, `Invalid define value`},
		{"bad jsx factory", "jsx:jsx-factory=1h", `Invalid JSX factory: "1h"`},
		{"bad jsx mode", "jsx:jsx=preserve", `"preserve" is not one of transform, automatic`},
		{"jsx option on typescript", "typescript:jsx=automatic", `option "jsx": unknown option`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steptest.CheckBadOption(t, tc.step, tc.want)
		})
	}
}

func TestTranspileDeterministic(t *testing.T) {
	a := esLoad(t, esRoot, "app.ts")
	first, _, err := esRun(t, esRoot, "typescript:sourcemap=external", a)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		again, _, err := esRun(t, esRoot, "typescript:sourcemap=external", esLoad(t, esRoot, "app.ts"))
		if err != nil {
			t.Fatal(err)
		}
		if string(esDump(again)) != string(esDump(first)) {
			t.Fatalf("run %d differs from the first", i+2)
		}
	}
}
