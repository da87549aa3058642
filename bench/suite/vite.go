package main

import (
	"fmt"
	"path/filepath"

	"github.com/bakefs/bakefs/bench/sidebyside"
	bakefs "github.com/bakefs/bakefs/fs"
)

// viteApp is the app of section p: an HTML page and a TypeScript entry
// that imports Bulma's CSS and three.js's sources, with a Vite
// configuration without and with compression, and a project file.
var viteApp = map[string]string{
	"index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>bench</title></head>\n<body><div id=\"app\"></div><script type=\"module\" src=\"/src/main.ts\"></script></body></html>\n",
	"src/main.ts": `import './bulma.css';
import * as THREE from './three/Three.js';

const app = document.getElementById('app')!;
const v: THREE.Vector3 = new THREE.Vector3(1, 2, 3);
app.textContent = ` + "`${v.length()} ${THREE.REVISION}`" + `;
`,
	"vite.plain.mjs": "export default { logLevel: 'warn', build: { manifest: true, outDir: 'dist-plain', emptyOutDir: true } };\n",
	"vite.comp.mjs":  "import { compression } from 'vite-plugin-compression2';\nexport default { logLevel: 'warn', plugins: [compression({ algorithms: ['gzip', 'brotliCompress'] })], build: { manifest: true, outDir: 'dist-comp', emptyOutDir: true } };\n",
	"bakefs.toml": `src   = "."
out   = "bakefs-out"
cache = ".bakefs-cache"
compress = ["br", "gzip"]
hash  = true

[[rule]]
match = "src/main.ts"
steps = ["bundle:format=esm,minify=true"]

[[rule]]
match = "index.html"
steps = ["minify"]
`,
}

// vite measures section p, goal 9: vite build, without and with
// vite-plugin-compression2, against a cold bakefs build of the same app,
// with the brotli bytes of the scripts and style sheets compared.
func vite(s *suite) {
	s.logf("whole pipeline: vite build vs bakefs build")
	s.outf("### p. Whole pipeline: `vite build` (vite@%s, manifest; with vite-plugin-compression2@%s) vs `bakefs build` of the same app", viteVersion, compression2Version)
	s.out("")
	app := s.path("vite", "app")
	// three.js's sources: Vite 8 (Rolldown) stops on rxjs's sources, which
	// re-export types without `export type` (MISSING_EXPORT).
	s.copyTree(filepath.Join(s.nodeModules(), "three", "src"), filepath.Join(app, "src", "three"))
	s.writeFile(filepath.Join(app, "src", "bulma.css"), s.readFile(filepath.Join(s.nodeModules(), "bulma", "css", "bulma.css")))
	for name, content := range viteApp {
		s.writeFile(filepath.Join(app, name), content)
	}
	s.linkNodeModules(app)
	viteBin := s.npmBin("vite")
	res := s.compare(comparison{
		title:  fmt.Sprintf("index.html + src/main.ts (three.js src, %d modules, and bulma.css)", len(s.files(filepath.Join(app, "src", "three"), withSuffix(".js")))),
		warmup: 1, rounds: s.rounds, dir: app,
		cmds: []sidebyside.Command{
			s.bakefsColdBuild(app),
			contender("vite-build", viteBin+" build --config vite.plain.mjs"),
			contender("vite-build+compression2", viteBin+" build --config vite.comp.mjs"),
		},
	})
	out, plain, comp := filepath.Join(app, "bakefs-out"), filepath.Join(app, "dist-plain"), filepath.Join(app, "dist-comp")
	s.outf("Output: bakefs %d B in %d files (br 11, gzip 9), vite %d B in %d files, vite with compression2 %d B in %d files (its default levels).",
		s.treeBytes(out), len(s.files(out, nil)), s.treeBytes(plain), len(s.files(plain, nil)), s.treeBytes(comp), len(s.files(comp, nil)))
	s.out("")
	// The brotli bytes of the app's scripts and style sheets: bakefs's from
	// its manifest (its tree holds each file under a second, hashed name
	// too), Vite's from its assets directory.
	brBakefs := s.manifestBrotliBytes(filepath.Join(out, "bakefs-manifest.json"), ".js", ".css")
	brVite := s.sizeUnder(filepath.Join(comp, "assets"), withSuffix(".js.br", ".css.br"))
	rv := res.Stats("vite-build+compression2")
	s.goal("9. whole pipeline with brotli and gzip, vite build + vite-plugin-compression2 / bakefs build (cold; goal ≥ 1.5×, brotli bytes the same or fewer)",
		fmt.Sprintf("%s (without compression: %s); brotli bytes bakefs %d, vite %d", rv.RatioText(), res.Stats("vite-build").RatioText(), brBakefs, brVite),
		met(rv.Ratio >= 1.5 && brBakefs <= brVite))
}

// readBakefsManifest parses the bakefs-manifest.json at path.
func (s *suite) readBakefsManifest(path string) *bakefs.Manifest {
	m, err := bakefs.ParseManifest([]byte(s.readFile(path)))
	if err != nil {
		s.fail("%s: %v", path, err)
	}
	return m
}

// manifestBrotliBytes is the total size of the br variants of the files of
// the manifest at path whose names end in one of suffixes.
func (s *suite) manifestBrotliBytes(path string, suffixes ...string) int64 {
	var n int64
	keep := withSuffix(suffixes...)
	for _, f := range s.readBakefsManifest(path).Files {
		if !keep(f.Path) {
			continue
		}
		for _, e := range f.Encodings {
			if e.Name == "br" {
				n += e.Size
			}
		}
	}
	return n
}
