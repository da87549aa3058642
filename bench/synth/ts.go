package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// genTS writes the TypeScript modules, one entry point per group of
// modules, and all.ts, which imports every entry.
//
// Module l of a group (l > 0) calls module l-1 of its group and reads a
// constant of up to two other earlier modules, so that module 0 is a
// dependency of the whole group and no call chain grows faster than the
// group.
func genTS(o Options, p plan, add func(string, []byte)) {
	for k := 0; k < p.modules; k++ {
		g, l := k/o.GroupSize, k%o.GroupSize
		var deps []int
		if l > 0 {
			deps = append(deps, k-1)
			seen := map[int]bool{k - 1: true}
			r := newRand(o.Seed, "ts-deps", k)
			for n := 0; n < 2 && l > 1; n++ {
				d := g*o.GroupSize + r.IntN(l-1)
				if !seen[d] {
					seen[d] = true
					deps = append(deps, d)
				}
			}
		}
		add(modulePath(o, k), genModule(newRand(o.Seed, "ts", k), k, g, deps, o.Size))
	}
	var all bytes.Buffer
	all.WriteString("// Every entry point: the largest bundle of the tree.\n")
	for g := 0; g < p.groups; g++ {
		var b bytes.Buffer
		fmt.Fprintf(&b, "// Entry point of group %02d.\n", g)
		first, last := g*o.GroupSize, min((g+1)*o.GroupSize, p.modules)
		for k := first; k < last; k++ {
			fmt.Fprintf(&b, "import { compute%04d } from \"./%s\";\n", k, strings.TrimSuffix(strings.TrimPrefix(modulePath(o, k), "ts/"), ".ts"))
		}
		fmt.Fprintf(&b, "\nexport function run%02d(seed: number): number {\n  let acc = seed;\n", g)
		for k := first; k < last; k++ {
			fmt.Fprintf(&b, "  acc = (acc + compute%04d(acc %% 101)) %% 1000003;\n", k)
		}
		b.WriteString("  return acc;\n}\n")
		add(fmt.Sprintf("ts/entry-%02d.ts", g), b.Bytes())
		fmt.Fprintf(&all, "import { run%02d } from \"./entry-%02d\";\n", g, g)
	}
	all.WriteString("\nexport function runAll(seed: number): number {\n  let acc = seed;\n")
	for g := 0; g < p.groups; g++ {
		fmt.Fprintf(&all, "  acc = run%02d(acc);\n", g)
	}
	all.WriteString("  return acc;\n}\n")
	add("ts/all.ts", all.Bytes())
}

func modulePath(o Options, k int) string {
	return fmt.Sprintf("ts/g%02d/m%04d.ts", k/o.GroupSize, k)
}

// isEntry reports whether a name under web/ is an entry point.
func isEntry(name string) bool {
	rest, ok := strings.CutPrefix(name, "ts/")
	return ok && !strings.Contains(rest, "/")
}

// genModule writes module k: an interface, an enum, a generic class, and
// helper functions that computeK calls, until the file reaches its size.
func genModule(r *rand.Rand, k, g int, deps []int, mean int) []byte {
	var b bytes.Buffer
	size := targetSize(r, mean)
	fmt.Fprintf(&b, "// Module m%04d of group %02d. %s\n", k, g, sentence(r, 6))
	for i, d := range deps {
		if i == 0 {
			fmt.Fprintf(&b, "import { compute%04d, type Record%04d } from \"./m%04d\";\n", d, d, d)
		} else {
			fmt.Fprintf(&b, "import { name%04d } from \"./m%04d\";\n", d, d)
		}
	}
	fmt.Fprintf(&b, "\nexport const name%04d = \"%s-%d\";\n\n", k, word(r), k)
	fmt.Fprintf(&b, "export interface Record%04d {\n  id: number;\n  label: string;\n  tags: readonly string[];\n  weight?: number;\n}\n\n", k)
	fmt.Fprintf(&b, "export enum Mode%04d {\n  Alpha = %d,\n  Beta,\n  Gamma,\n}\n\n", k, 1+r.IntN(9))
	fmt.Fprintf(&b, "export class Store%04d<T extends Record%04d> {\n", k, k)
	b.WriteString("  private readonly items = new Map<number, T>();\n\n  constructor(private readonly name: string) {}\n\n")
	b.WriteString("  add(item: T): this {\n    this.items.set(item.id, item);\n    return this;\n  }\n\n")
	b.WriteString("  get size(): number {\n    return this.items.size;\n  }\n\n")
	b.WriteString("  labels(): string[] {\n    return [...this.items.values()].map((x) => `${this.name}:${x.label}`);\n  }\n}\n\n")

	var helpers []string
	for n := 0; b.Len() < size-400-40*len(helpers); n++ {
		name := fmt.Sprintf("%s%s%04d_%d", word(r), title(r), k, n)
		helpers = append(helpers, name)
		fmt.Fprintf(&b, "/** %s */\nfunction %s(a: number, b: string): number {\n", sentence(r, 7), name)
		fmt.Fprintf(&b, "  const words: readonly string[] = [\"%s\", \"%s\", \"%s\", \"%s\"];\n", word(r), word(r), word(r), word(r))
		fmt.Fprintf(&b, "  let acc = %d;\n  for (let i = 0; i < b.length; i++) {\n    acc = (acc * %d + b.charCodeAt(i)) %% %d;\n  }\n", r.IntN(100000), 31+2*r.IntN(50), 1000003)
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "  if (a > %d) {\n    acc += words.indexOf(b) + 1;\n  }\n", r.IntN(1000))
		case 1:
			fmt.Fprintf(&b, "  const mode: Mode%04d = a %% 2 === 0 ? Mode%04d.Beta : Mode%04d.Gamma;\n  acc += mode;\n", k, k, k)
		default:
			b.WriteString("  acc += words.join(\"-\").length;\n")
		}
		b.WriteString("  return acc + a;\n}\n\n")
	}

	fmt.Fprintf(&b, "export function compute%04d(x: number): number {\n", k)
	fmt.Fprintf(&b, "  const store = new Store%04d<Record%04d>(\"%s\");\n", k, k, word(r))
	fmt.Fprintf(&b, "  store.add({ id: x, label: \"%s\", tags: [\"%s\", \"%s\"] });\n", word(r), word(r), word(r))
	fmt.Fprintf(&b, "  let acc = x + store.size + Mode%04d.Beta + store.labels().length;\n", k)
	for _, h := range helpers {
		fmt.Fprintf(&b, "  acc = (acc + %s(acc, \"%s\")) %% 1000003;\n", h, word(r))
	}
	for i, d := range deps {
		if i == 0 {
			fmt.Fprintf(&b, "  const prev: Record%04d = { id: acc, label: name%04d, tags: [] };\n", d, k)
			fmt.Fprintf(&b, "  acc = (acc + compute%04d(prev.id %% 97)) %% 1000003;\n", d)
		} else {
			fmt.Fprintf(&b, "  acc += name%04d.length;\n", d)
		}
	}
	b.WriteString("  return acc;\n}\n")
	return b.Bytes()
}
