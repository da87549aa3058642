package browser

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDevReload runs the example in dev mode on a copy of its sources and
// edits a TypeScript module while the page is open: the page must reload
// by itself and show the change, show a build error over the page (and as
// file:line:col in the terminal), and recover when the error is fixed.
func TestDevReload(t *testing.T) {
	f := setup(t, "dev")
	dir := t.TempDir()
	if err := copyExample(filepath.Join(f.root, "examples", "webapp"), dir); err != nil {
		t.Fatal(err)
	}
	greetingTS := filepath.Join(dir, "web", "static", "js", "greeting.ts")
	original := sourceGreeting(t, greetingTS)
	srv := startServer(t, dir, f.devBin, "-project", "bakefs.toml")
	ctx := newBrowser(t, "")
	rec := record(t, ctx)
	defer func() {
		if t.Failed() {
			t.Logf("dev server stderr:\n%s", srv.stderr)
		}
	}()

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the dev page to render", pageReady+` && document.querySelector("[data-greeting]").textContent === `+jsString(original))
	for _, p := range rec.errors() {
		t.Errorf("dev page: %s", p)
	}
	injected, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('script[src="/_bakefs/dev/client.js"]')`))
	if err != nil || !injected {
		t.Fatalf("the live-reload script is not on the page (%v)", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch("/static/js/app.js.map").then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 200 {
		t.Errorf("source map in dev: status %d (%v), want 200", status, err)
	}

	// edit writes greeting.ts and marks the page, so that a reload shows.
	edit := func(t *testing.T, text string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.bakefsTestMark = true`)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(greetingTS, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("edit", func(t *testing.T) {
		const edited = "Edited while the page was open"
		start := time.Now()
		edit(t, "export const greeting = "+jsString(edited)+";\n")
		waitFor(t, ctx, "the edited greeting", `!window.bakefsTestMark && document.querySelector("[data-greeting]").textContent === `+jsString(edited))
		t.Logf("save to reloaded page: %s", time.Since(start).Round(time.Millisecond))
		screenshot(t, ctx, "dev-edited.png")
	})
	t.Run("error overlay", func(t *testing.T) {
		edit(t, "export const greeting = \"unterminated;\n")
		waitFor(t, ctx, "the error overlay", `(document.getElementById("bakefs-dev-overlay") || {textContent: ""}).textContent.includes("greeting.ts:")`)
		screenshot(t, ctx, "dev-error-overlay.png")
		line := regexp.MustCompile(`(?m)^\S*web/static/js/greeting\.ts:\d+:\d+: error: .+$`)
		if m := line.FindString(srv.stderr.String()); m == "" {
			t.Errorf("the terminal shows no file:line:col line for the error:\n%s", srv.stderr)
		} else {
			t.Logf("terminal: %s", m)
		}
		marked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!window.bakefsTestMark`))
		if err != nil || !marked {
			t.Errorf("a failed build reloaded the page (%v)", err)
		}
	})
	t.Run("fix", func(t *testing.T) {
		const fixed = "Fixed, and reloaded"
		edit(t, "export const greeting = "+jsString(fixed)+";\n")
		waitFor(t, ctx, "the fixed page", `!window.bakefsTestMark && !document.getElementById("bakefs-dev-overlay") && document.querySelector("[data-greeting]").textContent === `+jsString(fixed))
	})
}

// jsString quotes s as a JavaScript string literal (s holds no quote or
// backslash).
func jsString(s string) string { return `"` + s + `"` }
