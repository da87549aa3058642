package fs

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"strings"
)

// moduleScript is the module template function: see FuncMap.
func (f *FS) moduleScript(prefix, name string) (template.HTML, error) {
	m, err := f.module("module", name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, e := range m.css {
		f.element(&b, prefix, `<link rel="stylesheet" href="`, e)
	}
	for _, e := range m.chunks {
		f.element(&b, prefix, `<link rel="modulepreload" href="`, e)
	}
	f.element(&b, prefix, `<script type="module" src="`, m.entry)
	b.WriteString("</script>")
	return template.HTML(b.String()), nil
}

// modulePreload is the modulepreload template function: see FuncMap.
func (f *FS) modulePreload(prefix, name string) (template.HTML, error) {
	e, err := f.jsEntry("modulepreload", name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	f.element(&b, prefix, `<link rel="modulepreload" href="`, e)
	return template.HTML(b.String()), nil
}

// element writes start (an element's opening up to the quote of its URL
// attribute), the hashed URL of e, its integrity attribute and ">".
func (f *FS) element(b *strings.Builder, prefix, start string, e *Entry) {
	rel, _ := f.rel(e.Path)
	b.WriteString(start)
	b.WriteString(template.HTMLEscapeString(f.url(prefix, rel)))
	b.WriteString(`" integrity="`)
	b.WriteString(template.HTMLEscapeString(e.Integrity))
	b.WriteString(`">`)
}

// importMap is the importmap template function: see FuncMap.
func (f *FS) importMap(prefix string, names []string) (template.HTML, error) {
	text, err := f.importMapText(prefix, names)
	if err != nil {
		return "", err
	}
	return template.HTML(`<script type="importmap">` + text + `</script>`), nil
}

// ImportMapHash returns the Content-Security-Policy source of the import
// map that FuncMap's importmap writes for names under prefix,
// "'sha256-<base64>'": an import map is an inline script, which a policy
// without 'unsafe-inline' runs only when its script-src lists this hash
// (or a nonce). Errors are those of importmap.
func (f *FS) ImportMapHash(prefix string, names ...string) (string, error) {
	text, err := f.importMapText(prefix, names)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'", nil
}

// importMapText returns the JSON text of the import map of names.
func (f *FS) importMapText(prefix string, names []string) (string, error) {
	integrity := make(map[string]string)
	for _, name := range names {
		root, chunks, err := f.graph("importmap", name, true)
		if err != nil {
			return "", err
		}
		for _, e := range append(chunks, root) {
			rel, _ := f.rel(e.Path)
			integrity[f.url(prefix, rel)] = e.Integrity
		}
	}
	// encoding/json sorts the keys, and escapes <, > and & so that no
	// text of the map can end the script element.
	text, err := json.Marshal(struct {
		Integrity map[string]string `json:"integrity"`
	}{integrity})
	return string(text), err
}
