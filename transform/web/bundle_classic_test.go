package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/transform"
)

// TestBundleWarnsClassicScripts: a bundle warns about each imported file
// that holds code, neither imports nor exports, and of which esbuild kept
// nothing (a classic script whose class the next file uses as a global),
// and not about files without code, modules, or a TypeScript file of
// types.
func TestBundleWarnsClassicScripts(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"gestures.js": "class Gestures { hi() { return 1 } }\n",
		"app.js":      "new Gestures().hi();\n",
		"comment.js":  "// nothing but a comment\n",
		"types.ts":    "interface Point { x: number }\n",
		"util.js":     "export function unused() { return 2 }\n",
		"entry.ts":    "import './comment.js'; import './types'; import './util.js'; import './gestures.js'; import './app.js';\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entry := &transform.Asset{Path: "entry.ts", Source: "entry.ts"}
	entry.Data, _ = os.ReadFile(filepath.Join(root, "entry.ts"))
	out := runChainText(t, root, []string{"bundle:minify=true"}, entry)
	if got := string(out[0].Data); !strings.Contains(got, "new Gestures") || strings.Contains(got, "class") {
		t.Fatalf("the bundle is not the broken one this test is about:\n%s", got)
	}
	var got []string
	for _, w := range out[0].Warnings {
		got = append(got, w.Error())
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "gestures.js: warning: entry.js keeps nothing of this file") || !strings.Contains(got[0], "concat step") {
		t.Errorf("warnings %q, want one about gestures.js", got)
	}
}
