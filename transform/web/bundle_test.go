package web

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/internal/golden"
	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

func TestBundleGolden(t *testing.T) {
	for _, tc := range []struct {
		name, step, file string
		paths            string // the output paths, in order
	}{
		{
			name: "default", step: "bundle", file: "app.ts",
			paths: "app.js app.css assets/dot-3URKFMMG.svg assets/glyf-NYRVLZQ6.ttf assets/logo-64TPWG2W.png",
		},
		{
			name: "sourcemap-external", step: "bundle:sourcemap=external,define=DEBUG:false", file: "app.ts",
			paths: "app.js app.css app.css.map app.js.map assets/dot-3URKFMMG.svg assets/glyf-NYRVLZQ6.ttf assets/logo-64TPWG2W.png",
		},
		{
			name: "sourcemap-inline", step: "bundle:sourcemap=inline,define=DEBUG:false", file: "lib/greet.ts",
			paths: "lib/greet.js",
		},
		{
			name: "minify-iife-inline", step: "bundle:format=iife,global-name=demo,minify=true,inline-limit=300,define=DEBUG:true", file: "app.ts",
			paths: "app.js app.css assets/glyf-NYRVLZQ6.ttf assets/logo-64TPWG2W.png",
		},
		{
			name: "public-path", step: "bundle:public-path=/static/,target=es2015", file: "app.ts",
			paths: "app.js app.css assets/dot-3URKFMMG.svg assets/glyf-NYRVLZQ6.ttf assets/logo-64TPWG2W.png",
		},
		{
			name: "loader-dataurl", step: "bundle:loader=png:dataurl+.ttf:dataurl", file: "app.ts",
			paths: "app.js app.css assets/dot-3URKFMMG.svg",
		},
		{
			name: "css-entry", step: "bundle:minify=true", file: "styles/app.css",
			paths: "styles/app.css styles/assets/dot-3URKFMMG.svg styles/assets/glyf-NYRVLZQ6.ttf",
		},
		{
			name: "external-tsx", step: "bundle:external=react", file: "components/app.tsx",
			paths: "components/app.js",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			esCheckStep(t, tc.step, tc.file, tc.paths, "esbuild/bundle/"+tc.name+".txt")
		})
	}
}

// TestBundleDepends checks that every file the bundle read, and only those,
// is recorded for the cache, the entry aside.
func TestBundleDepends(t *testing.T) {
	root, err := filepath.Abs(esRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, step, file string
		want             []string
	}{
		{"app", "bundle", "app.ts", []string{"fonts/glyf.ttf", "img/dot.svg", "img/logo.png", "lib/format.ts", "lib/greet.ts", "styles/app.css", "styles/base.css"}},
		{"inline", "bundle:inline-limit=100000", "app.ts", []string{"fonts/glyf.ttf", "img/dot.svg", "img/logo.png", "lib/format.ts", "lib/greet.ts", "styles/app.css", "styles/base.css"}},
		{"external", "bundle:external=react", "components/app.tsx", []string{"components/Button.tsx", "components/list.jsx"}},
		{"leaf", "bundle", "lib/format.ts", []string{}},
		// A failed bundle has no list of inputs, but the file at fault is
		// recorded, so that a watcher retries when it is fixed.
		{"failed", "bundle", "broken/imports-broken.ts", []string{"broken/syntax.ts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx, err := esRun(t, esRoot, tc.step, esLoad(t, esRoot, tc.file))
			if (err != nil) != (tc.name == "failed") {
				t.Fatalf("error %v", err)
			}
			want := make([]string, len(tc.want))
			for i, f := range tc.want {
				want[i] = filepath.Join(root, filepath.FromSlash(f))
			}
			if got := ctx.Deps(); !slices.Equal(got, want) {
				t.Errorf("Deps()\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestBundleDeterministic bundles the same project at two different places
// on disk, twice each: the outputs must be byte-identical and must not
// contain any machine path.
func TestBundleDeterministic(t *testing.T) {
	const step = "bundle:sourcemap=external,define=DEBUG:false"
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
	var first []byte
	for i, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "another", "place")} {
		esCopyTree(t, esRoot, dir)
		for run := 0; run < 2; run++ {
			// esbuild parses in parallel: one core must give the same
			// bytes as many.
			runtime.GOMAXPROCS(max(1, procs*run))
			out, _, err := esRun(t, dir, step, esLoad(t, dir, "app.ts"))
			if err != nil {
				t.Fatal(err)
			}
			dump := esDump(out)
			for _, a := range out {
				for _, abs := range []string{dir, wd, filepath.Dir(dir), os.TempDir()} {
					if bytes.Contains(a.Data, []byte(abs)) {
						t.Errorf("place %d: %s contains the machine path %s", i, a.Path, abs)
					}
				}
			}
			if first == nil {
				first = dump
			} else if !bytes.Equal(dump, first) {
				t.Fatalf("place %d, run %d: output differs from the first run", i, run)
			}
		}
	}
}

func TestBundleErrors(t *testing.T) {
	for _, tc := range []struct {
		name, step, file string
		want             string // the exact error text
		count            int    // SourceErrors; 0 for one *SourceError
	}{
		{
			name: "missing import", step: "bundle", file: "broken/missing.ts",
			want: `broken/missing.ts:2:25: error: Could not resolve "./does-not-exist"`,
		},
		{
			name: "syntax error in entry", step: "bundle", file: "broken/syntax.ts",
			want: `broken/syntax.ts:4:13: error: Unexpected "="`,
		},
		{
			name: "syntax error in import", step: "bundle", file: "broken/imports-broken.ts",
			want: `broken/syntax.ts:4:13: error: Unexpected "="`,
		},
		{
			name: "bare import not installed", step: "bundle", file: "components/app.tsx",
			want: `components/app.tsx:1:31: error: Could not resolve "react"`,
		},
		{
			name: "outside the source root", step: "bundle", file: "broken/escape.ts",
			want: `broken/escape.ts: error: import "../../minify/data.json" resolves outside the source root`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transform.Chain{mustStep(t, tc.step)}.Run(transform.NewContext(t.Context(), esRoot, transform.Release), []*transform.Asset{esLoad(t, esRoot, tc.file)})
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			var se *transform.SourceError
			var ses transform.SourceErrors
			if !errors.As(err, &se) && !errors.As(err, &ses) {
				t.Errorf("error is %T, want a source error", err)
			}
		})
	}
}

func TestBundleBadOptions(t *testing.T) {
	for _, tc := range []struct{ name, step, want string }{
		{"unknown option", "bundle:split=true", `option "split": unknown option`},
		{"splitting with iife", "bundle:format=iife,splitting=true", `splitting needs format=esm`},
		{"chunk names without splitting", "bundle:splitting=false,chunk-names=[name]-[hash]", `chunk-names needs splitting`},
		{"chunk names without hash", "bundle:chunk-names=chunks/[name]", `must hold [hash]`},
		{"chunk names outside", "bundle:chunk-names=../[name]-[hash]", `must be a relative slash-separated name`},
		{"bad jsx", "bundle:jsx=preserve", `"preserve" is not one of transform, automatic`},
		{"format cjs", "bundle:format=cjs", `"cjs" is not one of esm, iife`},
		{"bad target", "bundle:target=es5", `"es5" is not one of es2015`},
		{"bad loader", "bundle:loader=svg:magic", `loader "magic" for "svg" is not one of base64`},
		{"bad loader key", "bundle:loader=a/b:file", `loader key ".a/b" is not a file extension`},
		{"negative inline limit", "bundle:inline-limit=-1", `inline-limit -1 is negative`},
		{"two wildcards", "bundle:external=*/x/*", `must be a non-empty path with at most one *`},
		{"global name without iife", "bundle:global-name=app", `global-name needs format=iife`},
		{"bad global name", "bundle:format=iife,global-name=1app", `Syntax error "a"`},
		{"bad define", `bundle:define="x:a b"`, `Invalid define value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steptest.CheckBadOption(t, tc.step, tc.want)
		})
	}
}

// TestBundleDefineString checks a define whose value is a JSON string,
// which the step language needs quoted.
func TestBundleDefineString(t *testing.T) {
	out, _, err := esRun(t, esRoot, `bundle:define="DEBUG:\"yes\"",define=process.env.NODE_ENV:null`, esLoad(t, esRoot, "app.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out[0].Data), `if ("yes") {`) {
		t.Errorf("DEBUG not replaced by the string:\n%s", out[0].Data)
	}
}

// TestBundleAfterTranspile bundles the output of an earlier step: the
// entry's bytes come from the asset, its imports from disk.
func TestBundleAfterTranspile(t *testing.T) {
	chain, err := transform.ParseChain([]string{"typescript:define=DEBUG:false", "bundle:minify=true"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := chain.Run(transform.NewContext(t.Context(), esRoot, transform.Release), []*transform.Asset{esLoad(t, esRoot, "app.ts")})
	if err != nil {
		t.Fatal(err)
	}
	if got := esPaths(out); got != "app.js app.css assets/dot-3URKFMMG.svg assets/glyf-NYRVLZQ6.ttf assets/logo-64TPWG2W.png" {
		t.Errorf("output paths %s", got)
	}
	golden.Check(t, "esbuild/bundle/after-typescript.txt", esDump(out[:1]))

	// A mistake in bytes made by the earlier step names the generated file.
	a := esLoad(t, esRoot, "app.ts")
	a.Path, a.Data = "app.js", []byte("import { greet } from './lib/greet';\ngreet(;\n")
	_, err = transform.Chain{mustStep(t, "bundle")}.Run(transform.NewContext(t.Context(), esRoot, transform.Release), []*transform.Asset{a})
	if want := `app.ts: bundle: app.js:2:7: error: Unexpected ";"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestBundlePassThrough(t *testing.T) {
	png := esLoad(t, esRoot, "img/logo.png")
	out, _, err := esRun(t, esRoot, "bundle", png)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0] != png {
		t.Errorf("bundle changed a PNG asset: %v", esPaths(out))
	}
}

func TestBundleCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := mustStep(t, "bundle")
	_, err := s.Step.Run(transform.NewContext(ctx, esRoot, transform.Release), []*transform.Asset{esLoad(t, esRoot, "app.ts")})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestStepsConcurrent runs one bound bundle step and one minify step from
// several goroutines at once, as the pipeline does: every run must give
// the bytes of a lone run.
func TestStepsConcurrent(t *testing.T) {
	for _, tc := range []struct{ step, root, file string }{
		{"bundle:sourcemap=external,minify=true", esRoot, "app.ts"},
		{"minify", minifyRoot, "page.html"},
		{"typescript", esRoot, "lib/format.ts"},
	} {
		t.Run(tc.step, func(t *testing.T) {
			s := mustStep(t, tc.step)
			in := esLoad(t, tc.root, tc.file) // shared: steps must not change their input
			run := func() ([]byte, error) {
				out, err := s.Step.Run(transform.NewContext(t.Context(), tc.root, transform.Release), []*transform.Asset{in})
				return esDump(out), err
			}
			want, err := run()
			if err != nil {
				t.Fatal(err)
			}
			const n = 6
			got := make([][]byte, n)
			errs := make([]error, n)
			done := make(chan int)
			for i := 0; i < n; i++ {
				go func() {
					got[i], errs[i] = run()
					done <- i
				}()
			}
			for range n {
				i := <-done
				if errs[i] != nil {
					t.Error(errs[i])
				} else if !bytes.Equal(got[i], want) {
					t.Errorf("run %d differs from a lone run", i)
				}
			}
		})
	}
}
