package web

import (
	"bytes"
	"errors"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bakefs/bakefs/internal/golden"
	"github.com/bakefs/bakefs/transform"
	"github.com/bakefs/bakefs/transform/steptest"
)

// minifyRoot holds the inputs of the minify tests.
const minifyRoot = "testdata/minify"

func TestMinifyGolden(t *testing.T) {
	for _, tc := range []struct{ name, step, file string }{
		{"js", "minify", "app.js"},
		{"js-es2015", "minify:target=es2015", "app.js"},
		{"css", "minify", "style.css"},
		{"html-template", "minify", "page.html"},
		{"html-template-omit", "minify:omit-end-tags=true,omit-document-tags=true,omit-quotes=true", "page.html"},
		{"html-plain", "minify:template=none", "plain.html"},
		{"html-plain-keep-comments", "minify:template=none,keep-comments=true", "plain.html"},
		{"html-plain-omit", "minify:template=none,omit-end-tags=true,omit-document-tags=true,omit-quotes=true", "plain.html"},
		{"svg", "minify", "icon.svg"},
		{"svg-keep-comments", "minify:keep-comments=true", "icon.svg"},
		{"json", "minify", "data.json"},
		{"webmanifest", "minify", "site.webmanifest"},
		{"xml", "minify", "feed.xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := esLoad(t, minifyRoot, tc.file)
			orig := bytes.Clone(in.Data)
			out, _, err := esRun(t, minifyRoot, tc.step, in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 || out[0].Path != tc.file || out[0].Source != tc.file {
				t.Fatalf("got %s, want one asset %s", esPaths(out), tc.file)
			}
			if !bytes.Equal(in.Data, orig) {
				t.Error("the input asset's bytes were changed")
			}
			if len(out[0].Data) >= len(orig) {
				t.Errorf("output has %d bytes, input %d", len(out[0].Data), len(orig))
			}
			golden.Check(t, "minify/"+tc.name+".txt", esDump(out))
		})
	}
}

func TestMinifyPassThrough(t *testing.T) {
	for _, a := range []*transform.Asset{
		esLoad(t, minifyRoot, "notes.txt"),
		esLoad(t, esRoot, "img/logo.png"),
		{Path: "data.bin", Data: []byte{0, 1, 2}},
		{Path: "page.html", Type: "text/plain", Data: []byte("<p>  kept  </p>")},
	} {
		t.Run(a.Path, func(t *testing.T) {
			out, _, err := esRun(t, minifyRoot, "minify", a)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 || out[0] != a {
				t.Errorf("minify changed %s", a.Path)
			}
		})
	}
}

// TestMinifyMediaTypeWins checks that the step goes by Asset.Type, not by
// the extension, when the type is set.
func TestMinifyMediaTypeWins(t *testing.T) {
	a := &transform.Asset{Path: "data.txt", Type: "application/ld+json; charset=utf-8", Data: []byte(`{ "a" : [ 1 , 2 ] }`)}
	out, _, err := esRun(t, minifyRoot, "minify", a)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out[0].Data); got != `{"a":[1,2]}` {
		t.Errorf("got %s", got)
	}
}

func TestMinifyKind(t *testing.T) {
	for mt, want := range map[string]string{
		"text/javascript; charset=utf-8": minifyJS,
		"Application/JavaScript":         minifyJS,
		"text/css; charset=utf-8":        minifyCSS,
		"text/html; charset=utf-8":       minifyHTML,
		"image/svg+xml":                  minifySVG,
		"application/json":               minifyJSON,
		"application/manifest+json":      minifyJSON,
		"application/xml":                minifyXML,
		"application/atom+xml":           minifyXML,
		"text/xml":                       minifyXML,
		"text/plain; charset=utf-8":      "",
		"image/png":                      "",
		"application/octet-stream":       "",
	} {
		t.Run(mt, func(t *testing.T) {
			if got := minifyKind(mt); got != want {
				t.Errorf("minifyKind(%q) = %q, want %q", mt, got, want)
			}
		})
	}
}

// templateActions matches Go template actions.
var templateActions = regexp.MustCompile(`(?s)\{\{.*?\}\}`)

// TestMinifyKeepsTemplates checks that minifying an html/template file
// keeps every action byte for byte and in order, that the result still
// parses, and that it renders the same scripts, textarea, preformatted
// text and attribute values as the original.
func TestMinifyKeepsTemplates(t *testing.T) {
	for _, step := range []string{"minify", "minify:omit-end-tags=true,omit-document-tags=true,omit-quotes=true"} {
		t.Run(step, func(t *testing.T) {
			in := esLoad(t, minifyRoot, "page.html")
			out, _, err := esRun(t, minifyRoot, step, in)
			if err != nil {
				t.Fatal(err)
			}
			min := out[0].Data
			want := templateActions.FindAll(in.Data, -1)
			got := templateActions.FindAll(min, -1)
			if len(got) != len(want) {
				t.Fatalf("%d actions after minifying, %d before", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Errorf("action %d: %s, want %s", i, got[i], want[i])
				}
			}

			data := map[string]any{
				"Lang": "en", "Title": "Home", "CSS": "/app.css", "SRI": "sha256-abc", "Accent": "red",
				"Dark": true, "Name": "Gopher & co", "Items": []string{"a", "b <c>"}, "Checked": true,
				"Config": map[string]any{"debug": false, "n": 3}, "Year": 2025,
				"Links": []map[string]any{{"URL": "/a?x=1&y=2", "Name": "A", "Current": true}, {"URL": "/b", "Name": "B"}},
			}
			render := func(src []byte) string {
				tmpl, err := template.New("").Parse(string(src))
				if err != nil {
					t.Fatalf("parse: %v\n%s", err, src)
				}
				var b strings.Builder
				if err := tmpl.ExecuteTemplate(&b, "page", data); err != nil {
					t.Fatalf("execute: %v", err)
				}
				return b.String()
			}
			before, after := render(in.Data), render(min)
			for _, re := range []string{
				`(?s)<script>.*?</script>`, `(?s)<textarea.*?</textarea>`, `(?s)<pre>.*?</pre>`,
				`href="?[^" >]*`, `class="?[^" >]*`, `integrity="?[^" >]*`, `aria-current="?page`, `\bchecked\b`,
				`data-index="?[0-9]`, `(?s)<footer>.*?</footer>`,
			} {
				b, a := regexp.MustCompile(re).FindAllString(before, -1), regexp.MustCompile(re).FindAllString(after, -1)
				if len(a) != len(b) {
					t.Errorf("%s: %d matches after minifying, %d before", re, len(a), len(b))
					continue
				}
				for i := range b {
					got, want := a[i], b[i]
					switch {
					case strings.Contains(re, "script") && i == 0:
						continue // the script without actions is minified
					case strings.Contains(re, "footer"):
						continue // counted only: its white space is minified
					case strings.Contains(re, "textarea"):
						// Attribute quotes may go; the text must stay.
						got, want = got[strings.Index(got, ">"):], want[strings.Index(want, ">"):]
					case strings.Contains(re, "="):
						got, want = strings.Trim(got[strings.Index(got, "=")+1:], `"`), strings.Trim(want[strings.Index(want, "=")+1:], `"`)
					}
					if got != want {
						t.Errorf("%s: rendered\n%s\nwant\n%s", re, got, want)
					}
				}
			}
			if len(after) >= len(before) {
				t.Errorf("rendered minified page has %d bytes, original %d", len(after), len(before))
			}
		})
	}
}

// TestKeepTemplatedRawText checks the scanner that sets aside script, style
// and textarea texts holding template actions.
func TestKeepTemplatedRawText(t *testing.T) {
	delims := [2]string{"{{", "}}"}
	for _, tc := range []struct {
		name, in string
		kept     []string
	}{
		{"none", `<p>{{ .X }}</p><script>var a = 1;</script>`, nil},
		{"script", `<script>var a = {{ .A }};</script>`, []string{`var a = {{ .A }};`}},
		{"upper case and attributes", `<SCRIPT type="text/javascript" data-x='>'>f({{.A}})</Script >`, []string{`f({{.A}})`}},
		{"style and textarea", "<style>a{color:{{.C}}}</style><textarea>\n {{.T}} </textarea>", []string{"a{color:{{.C}}}", "\n {{.T}} "}},
		{"action in start tag", `<script {{ if .M }}type="module"{{ end }}>x({{.A}})</script>`, []string{`x({{.A}})`}},
		{"in a comment", `<!-- <script>{{.A}}</script> -->`, nil},
		{"in an action", `{{ "<script>" }}{{.A}}</script>`, nil},
		{"not a raw text tag", `<scripts>{{.A}}</scripts><stylex>{{.B}}</stylex>`, nil},
		{"unclosed", `<script>{{.A}}`, []string{`{{.A}}`}},
		{"marker taken", `{{/*bakefs-kept-0*/}}<script>{{.A}}</script>`, []string{`{{.A}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, k := keepTemplatedRawText([]byte(tc.in), delims)
			var kept []string
			if k != nil {
				for _, text := range k.texts {
					kept = append(kept, string(text))
				}
			}
			if strings.Join(kept, "|") != strings.Join(tc.kept, "|") {
				t.Fatalf("kept %q, want %q", kept, tc.kept)
			}
			if k == nil {
				if string(out) != tc.in {
					t.Errorf("changed the input to %q", out)
				}
				return
			}
			back, err := k.restore(bytes.Clone(out))
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != tc.in {
				t.Errorf("restore gave %q, want %q", back, tc.in)
			}
		})
	}
}

func TestByteColumn(t *testing.T) {
	data := []byte("ab\r\néé x\rz\u2028wq\n")
	for _, tc := range []struct{ line, runeCol, want int }{
		{1, 1, 1}, {1, 3, 3}, {2, 1, 1}, {2, 3, 5}, {2, 4, 6}, {3, 1, 1}, {4, 2, 2}, {9, 1, 0},
	} {
		if got := byteColumn(data, tc.line, tc.runeCol); got != tc.want {
			t.Errorf("byteColumn(line %d, col %d) = %d, want %d", tc.line, tc.runeCol, got, tc.want)
		}
	}
}

func TestMinifyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{
		{"json", "broken.json", `broken.json:3:19: error: invalid character ']' looking for beginning of value`},
		{"js", "broken.js", `broken.js:2:13: error: Unexpected ";"`},
		{"inline script", "broken-inline.html", `broken-inline.html:10:16: error: Unexpected ";"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transform.Chain{mustStep(t, "minify")}.Run(transform.NewContext(t.Context(), minifyRoot, transform.Release), []*transform.Asset{esLoad(t, minifyRoot, tc.file)})
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			var se *transform.SourceError
			if !errors.As(err, &se) {
				t.Errorf("error is %T, want *SourceError", err)
			}
		})
	}
}

// TestMinifyInlineErrorPositions checks line:col of errors in code inside
// HTML, counted in the file.
func TestMinifyInlineErrorPositions(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct{ name, html, want string }{
		{"first line", "<p>x</p><script>var y = (;</script>", "page.html:1:26: error: Unexpected \";\""},
		{"later line", "<p>x</p>\n<script>\n  var ok;\n  var y = (;\n</script>", "page.html:4:12: error: Unexpected \";\""},
		{"after multibyte", "<p>é</p><script>é = (;</script>", "page.html:1:24: error: Unexpected \";\""},
		{"after kept script", "<script>\n{{ .A }}\n\n</script>\n<script>y = (;</script>", "page.html:5:14: error: Unexpected \";\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(root, "page.html"), []byte(tc.html), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := esRun(t, root, "minify", esLoad(t, root, "page.html"))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
}

func TestMinifyBadOptions(t *testing.T) {
	for _, tc := range []struct{ name, step, want string }{
		{"unknown option", "minify:keep-end-tags=true", `option "keep-end-tags": unknown option`},
		{"bad target", "minify:target=es3", `"es3" is not one of es2015`},
		{"bad template", "minify:template=php", `"php" is not one of go, none`},
		{"bad bool", "minify:omit-quotes=maybe", `"maybe" is not true or false`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steptest.CheckBadOption(t, tc.step, tc.want)
		})
	}
}

func TestMinifyDeterministic(t *testing.T) {
	for _, file := range []string{"app.js", "style.css", "page.html", "icon.svg", "data.json", "feed.xml"} {
		t.Run(file, func(t *testing.T) {
			first, _, err := esRun(t, minifyRoot, "minify", esLoad(t, minifyRoot, file))
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := esRun(t, minifyRoot, "minify", esLoad(t, minifyRoot, file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first[0].Data, again[0].Data) {
				t.Error("two runs differ")
			}
			// Minifying twice changes nothing more, or little: never grows.
			twice, _, err := esRun(t, minifyRoot, "minify", &transform.Asset{Path: file, Data: first[0].Data})
			if err != nil {
				t.Fatalf("minifying the output again: %v", err)
			}
			if len(twice[0].Data) > len(first[0].Data) {
				t.Errorf("minifying again grew the output from %d to %d bytes", len(first[0].Data), len(twice[0].Data))
			}
		})
	}
}

// FuzzKeepTemplatedRawText checks that setting texts aside and putting
// them back gives the input again, whatever the input.
func FuzzKeepTemplatedRawText(f *testing.F) {
	for _, seed := range []string{
		"<script>var a = {{ .A }};</script>",
		"<style>a{color:{{.C}}}</style><textarea>{{.T}}</textarea>",
		"<SCRIPT a='>'>{{ if .X }}1{{ end }}</script ><!-- <style>{{.Y}}</style> -->",
		"{{/*bakefs-kept-0*/}}<script>{{</script",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, k := keepTemplatedRawText([]byte(in), [2]string{"{{", "}}"})
		if k == nil {
			if string(out) != in {
				t.Fatalf("nothing kept, but the input changed to %q", out)
			}
			return
		}
		back, err := k.restore(bytes.Clone(out))
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != in {
			t.Fatalf("restore gave %q, want %q", back, in)
		}
	})
}

// TestMinifyInlineLikeFiles: <script> and <style> elements are minified by
// the engine and options that minify .js and .css files, to the same bytes.
func TestMinifyInlineLikeFiles(t *testing.T) {
	js := "function add(first, second) {\n  return first + second\n}\nconsole.log(add(1, 2))\n"
	css := "body {\n  margin: 0px;\n  color: #ff0000;\n}\n"
	files, err := steptest.Run(t, "minify", &transform.Asset{Path: "a.js", Data: []byte(js)}, &transform.Asset{Path: "a.css", Data: []byte(css)})
	if err != nil {
		t.Fatal(err)
	}
	page := "<!doctype html><style>" + css + "</style><p style=\"margin: 0px\">x</p><script>" + js + "</script>"
	out, err := steptest.Run(t, "minify", &transform.Asset{Path: "a.html", Data: []byte(page)})
	if err != nil {
		t.Fatal(err)
	}
	html := string(out[0].Data)
	for _, f := range files {
		code := strings.TrimSuffix(string(f.Data), "\n")
		if !strings.Contains(html, code) {
			t.Errorf("%s minified as a file:\n%s\nis not in the page:\n%s", f.Path, code, html)
		}
	}
	if !strings.Contains(html, `style="margin:0"`) {
		t.Errorf("a style attribute is not minified as declarations: %s", html)
	}
}
