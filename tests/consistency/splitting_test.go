package consistency

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// buildEsbuildCLI builds esbuild's command-line tool from the module
// go.mod requires, so at the version the bundle step links, into binDir.
var buildEsbuildCLI = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "esbuild")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/evanw/esbuild/cmd/esbuild")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build github.com/evanw/esbuild/cmd/esbuild: %v\n%s", err, out)
	}
	return bin, nil
})

// esbuildCLI returns the esbuild command-line tool, built on first use
// (buildEsbuildCLI), or fails the test.
func esbuildCLI(t testing.TB) string {
	t.Helper()
	bin, err := buildEsbuildCLI()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// esbuild runs the esbuild CLI with args in dir, where the entry points
// are named relative to dir (so that the "// path" comments of its output
// name them as the bundle step does), and returns the regular files it
// wrote under out. It fails the test when the CLI fails.
func esbuild(t testing.TB, dir, out string, args ...string) tree {
	t.Helper()
	cmd := exec.Command(esbuildCLI(t), append(args, "--log-level=error")...)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return regularFiles(snapshot(t, out))
}

// regularFiles returns the regular files of a tree but the manifest,
// which only bakefs writes.
func regularFiles(tr tree) tree {
	files := tree{}
	for _, n := range tr.names() {
		if n != "bakefs-manifest.json" {
			files[n] = tr[n]
		}
	}
	return files
}

// esbuildCommonFlags are the CLI's flags for the bundle step's defaults.
var esbuildCommonFlags = []string{"--bundle", "--format=esm", "--target=es2020", "--platform=browser"}

// splitTOML returns a project file whose one rule bundles entries with
// step, with no hashed names, no variants and no cache.
func splitTOML(entries []string, step string) string {
	return fmt.Sprintf(`src   = "src"
out   = "out"
cache = ""

[[rule]]
match = ["%s"]
steps = [%q]
`, strings.Join(entries, `", "`), step)
}

// TestSplittingMatchesEsbuildCLI: the entries of one rule, bundled
// together with splitting (the bundle step's default with format=esm),
// give the files and bytes that esbuild's CLI writes for the same entries
// with --splitting: the entries, the chunks of the code they share and
// of each import(), and their CSS. A single entry gives the CLI's bytes
// with and without --splitting: splitting changes nothing for it.
func TestSplittingMatchesEsbuildCLI(t *testing.T) {
	pages := []string{"pages/home.ts", "pages/admin.ts", "pages/settings.tsx"}
	tests := []struct {
		name    string
		files   map[string]string // under src/
		entries []string          // the rule's files, relative to src/
		dir     string            // the entries' deepest common directory
		step    string
		flags   []string // of the CLI, beyond esbuildCommonFlags and --splitting
		want    []string // path.Match patterns that some output must match
		only    bool     // the outputs are exactly want
		unsplit bool     // the CLI writes the same without --splitting
	}{
		{
			name:    "three entries",
			files:   pagesSources,
			entries: pages,
			dir:     "pages",
			step:    "bundle",
			want:    []string{"pages/home.js", "pages/admin.js", "pages/settings.js", "pages/chunk-*.js", "pages/lazy-*.js", "pages/home.css", "pages/lazy-*.css"},
		},
		{
			name:    "three entries minified",
			files:   pagesSources,
			entries: pages,
			dir:     "pages",
			step:    "bundle:minify=true",
			flags:   []string{"--minify"},
			want:    []string{"pages/chunk-*.js", "pages/lazy-*.js"},
		},
		{
			name:    "three entries with chunks in a directory",
			files:   pagesSources,
			entries: pages,
			dir:     "pages",
			step:    "bundle:chunk-names=chunks/[name]-[hash]",
			flags:   []string{"--chunk-names=chunks/[name]-[hash]"},
			want:    []string{"pages/chunks/chunk-*.js", "pages/chunks/lazy-*.js"},
		},
		{
			name:    "rxjs-style single entry minified",
			files:   rxjsStyleSources(30),
			entries: []string{"index.ts"},
			dir:     ".",
			step:    "bundle:minify=true",
			flags:   []string{"--minify"},
			want:    []string{"index.js"},
			only:    true,
			unsplit: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			files := make(map[string]string)
			for name, body := range tt.files {
				files["src/"+name] = body
			}
			p := newProject(t, filepath.Join(root, "proj"), splitTOML(tt.entries, tt.step), files)
			p.mustBuild(t)
			got := regularFiles(snapshot(t, p.path(outDir)))

			// cliArgs are the CLI's arguments for the case, with more flags,
			// writing into out. bakefs gives esbuild a rule's entries in path
			// order, whatever order match lists them in; the order decides
			// which chunk holds what.
			cliArgs := func(out string, more ...string) []string {
				args := append(slices.Sorted(slices.Values(tt.entries)), esbuildCommonFlags...)
				args = append(append(args, tt.flags...), more...)
				return append(args, "--outdir="+filepath.Join(out, filepath.FromSlash(tt.dir)))
			}
			cli := filepath.Join(root, "cli")
			args := cliArgs(cli, "--splitting")
			want := esbuild(t, p.path("src"), cli, args...)

			if g, w := got.names(), want.names(); !slices.Equal(g, w) {
				t.Fatalf("bakefs wrote %q, the esbuild CLI %q", g, w)
			}
			if d := got.diff(want, "bakefs", "esbuild CLI"); d != "" {
				t.Fatalf("bakefs and the esbuild CLI (esbuild %s) differ: %s", strings.Join(args, " "), d)
			}
			for _, pattern := range tt.want {
				if !slices.ContainsFunc(got.names(), func(n string) bool { ok, _ := path.Match(pattern, n); return ok }) {
					t.Errorf("no output matches %s; the outputs are %q", pattern, got.names())
				}
			}
			if tt.only && !slices.Equal(got.names(), tt.want) {
				t.Errorf("the outputs are %q, want only %q", got.names(), tt.want)
			}
			if tt.unsplit {
				plain := filepath.Join(root, "cli-unsplit")
				if d := got.diff(esbuild(t, p.path("src"), plain, cliArgs(plain)...), "bakefs", "esbuild CLI without --splitting"); d != "" {
					t.Fatalf("a single entry's output changes with splitting: %s", d)
				}
			}
		})
	}
}

// pagesSources are three entry points under pages/ that share modules in
// diamonds (each of lib/base, lib/shared, lib/format and lib/model is
// imported by two entries or more, lib/base also through the others), load
// lib/lazy with import() from two entries, import CSS from an entry, a
// shared module and the lazy one, and JSON; one is TSX, compiled with the
// JSX settings of src/tsconfig.json.
var pagesSources = map[string]string{
	"tsconfig.json": `{"compilerOptions": {"jsx": "react", "jsxFactory": "h", "jsxFragmentFactory": "Fragment"}}` + "\n",
	"pages/home.ts": `import { Store, kind } from "../lib/shared";
import { format } from "../lib/format";
import "../styles/home.css";

export const store = new Store<number>().add(1);
export const label: string = format(3.14159) + kind;

export async function openLazy(): Promise<string> {
  const { lazy } = await import("../lib/lazy");
  return lazy();
}
`,
	"pages/admin.ts": `import { Store } from "../lib/shared";
import { Model } from "../lib/model";
import config from "../data/config.json";

export const admins = new Store<Model>().add(new Model(config.name));

export function lazyLater(): Promise<typeof import("../lib/lazy")> {
  return import("../lib/lazy");
}
`,
	"pages/settings.tsx": `import { h, Fragment } from "../lib/dom";
import { format } from "../lib/format";
import { Model } from "../lib/model";

export const defaultModel = new Model("settings");

export function Settings({ model }: { model: Model }) {
  return <><section class="settings"><h2>{model.describe()}</h2><p>{format(2)}</p></section></>;
}
`,
	"lib/base.ts": `export const enum Level { Low = 1, High = 2 }
export enum Kind { Page = "page", Panel = "panel" }

export const registry: Map<string, number> = new Map();

export function stamp(s: string): string {
  return "[" + s + "]";
}
`,
	"lib/shared.ts": `import { stamp, registry, Kind } from "./base";
import "../styles/shared.css";

export class Store<T> {
  private items: T[] = [];
  add(x: T): this {
    this.items.push(x);
    registry.set(stamp(String(x)), this.items.length);
    return this;
  }
  get size(): number {
    return this.items.length;
  }
}

export const kind = Kind.Page;
`,
	"lib/format.ts": `import { stamp, Level } from "./base";

export function format(n: number, level: Level = Level.Low): string {
  return stamp(n.toFixed(level));
}
`,
	"lib/model.ts": `import { Kind, stamp } from "./base";

export class Model {
  kind: Kind = Kind.Panel;
  static count = 0;
  constructor(public name: string) {
    Model.count++;
  }
  describe(): string {
    return stamp(` + "`${this.kind}:${this.name}`" + `);
  }
}
`,
	"lib/dom.ts": `export const Fragment = "fragment";

export function h(tag: string, props: Record<string, unknown> | null, ...children: unknown[]) {
  return { tag, props, children };
}
`,
	"lib/lazy.ts": `import { stamp } from "./base";
import "../styles/lazy.css";

export function lazy(): string {
  return stamp("lazy");
}
`,
	"styles/home.css":   ".home {\n  color: #112233;\n  margin: 0px auto;\n}\n",
	"styles/shared.css": ":root {\n  --accent: #abcdef;\n}\n.shared {\n  color: var(--accent);\n}\n",
	"styles/lazy.css":   ".lazy {\n  padding: 1px 2px 1px 2px;\n}\n",
	"data/config.json":  "{ \"name\": \"admin\", \"level\": 2, \"items\": [1, 2, 3] }\n",
}

// rxjsStyleSources returns a TypeScript library in the manner of rxjs's
// sources: index.ts re-exports, with export * and by name, from n
// modules under internal/ that hold generic classes extending a base
// class, enums, interfaces, namespaces and functions, each importing the
// one before it, gathered five at a time by group index files.
func rxjsStyleSources(n int) map[string]string {
	files := map[string]string{
		"internal/base.ts": `export abstract class Base<T> {
  protected constructor(protected readonly value: T) {}
  abstract run(): T;
  toString(): string {
    return "Base(" + String(this.value) + ")";
  }
}
`,
	}
	index := []string{`export { Base } from "./internal/base";`}
	for i := range n {
		prev := ""
		extra := "0"
		if i > 0 {
			prev = fmt.Sprintf("import { Op%dKind } from \"./op%d\";\n", i-1, i-1)
			extra = fmt.Sprintf("Op%dKind.C", i-1)
		}
		files[fmt.Sprintf("internal/op%d.ts", i)] = strings.NewReplacer("{I}", fmt.Sprint(i), "{PREV}", prev, "{EXTRA}", extra).Replace(`import { Base } from "./base";
{PREV}
export enum Op{I}Kind { A = {I}, B, C }

export interface Op{I}Config<T> {
  seed: T;
  kind: Op{I}Kind;
}

export class Op{I}<T> extends Base<T> {
  static readonly tag = "op{I}";
  private runs = 0;
  constructor(private readonly config: Op{I}Config<T>) {
    super(config.seed);
  }
  run(): T {
    this.runs += {EXTRA} + this.config.kind;
    return this.value;
  }
  static of<U>(seed: U): Op{I}<U> {
    return new Op{I}({ seed, kind: Op{I}Kind.B });
  }
}

export namespace Op{I}Util {
  export const name = "util{I}";
  export function twice<T>(x: T): [T, T] {
    return [x, x];
  }
}

export function op{I}<T>(x: T): Op{I}<T> {
  return Op{I}.of(x);
}
`)
		g := i / 5
		group := fmt.Sprintf("internal/group%d/index.ts", g)
		files[group] += fmt.Sprintf("export * from \"../op%d\";\n", i)
		if i%5 == 0 {
			index = append(index, fmt.Sprintf("export * from \"./internal/group%d\";", g))
		}
	}
	index = append(index, `export * as first from "./internal/op0";`, fmt.Sprintf("export { op%d as last, Op%dKind as LastKind } from \"./internal/op%d\";", n-1, n-1, n-1))
	files["index.ts"] = strings.Join(index, "\n") + "\n"
	return files
}
