package browser

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	bakefs "github.com/bakefs/bakefs/fs"
	"github.com/bakefs/bakefs/internal/nginxtest"
	_ "github.com/bakefs/bakefs/pipeline/refs/scan"
	"github.com/bakefs/bakefs/project"
	_ "github.com/bakefs/bakefs/transform/steps"
)

// TestRealApp builds tests/realapp (classic scripts joined in order with a
// footer, three theme sheets from one shared base, public/ served at the
// root, hashed names) and loads each theme's page from the generated
// handler and from nginx serving the tree on disk. In both, the scripts
// run (app.js uses the class gestures.js declares), the theme applies, no
// request fails, nothing is logged as an error, the page names only
// hashed scripts and sheets, which come immutable, and the two servers'
// pages are pixel-identical.
func TestRealApp(t *testing.T) {
	out := buildTestApp(t, "realapp", t.TempDir())
	fsys, err := bakefs.Load(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	handler := httptest.NewServer(fsys.Handler())
	t.Cleanup(handler.Close)
	nginx := nginxtest.StartStatic(t, out)

	ctx := newBrowser(t, "")
	rec := record(t, ctx)
	themes := map[string]string{"dark": "rgb(17, 17, 17)", "light": "rgb(250, 250, 250)", "contrast": "rgb(0, 0, 0)"}
	for theme, background := range themes {
		var shots [][]byte
		for _, srv := range []struct{ name, url string }{{"handler", handler.URL}, {"nginx", nginx.URL}} {
			rec.reset()
			page := srv.url + "/" + theme + "/index.html"
			if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
				t.Fatalf("%s: %v", page, err)
			}
			waitFor(t, ctx, page, `document.readyState === "complete"`)
			js := `[document.body.dataset.app, document.body.dataset.gestures, getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector(".dot")).backgroundImage.includes(".svg")].join(" ")`
			state, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
			if err != nil {
				t.Fatal(err)
			}
			if want := "ran on " + background + " true"; state != want {
				t.Errorf("%s: %s: page state %q, want %q (scripts ran, theme applied, image named)", srv.name, theme, state, want)
			}
			checkRealAppRequests(t, srv.name+" "+theme, rec, srv.url)
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			shots = append(shots, shot)
			os.WriteFile(filepath.Join(artifacts(t), "realapp-"+theme+"-"+srv.name+".png"), shot, 0o644)
		}
		if err := samePixels(shots[0], shots[1]); err != nil {
			t.Errorf("%s: nginx's page differs from the handler's: %v", theme, err)
		}
	}
}

// buildTestApp copies the test application tests/<name> into dir, builds
// it with its project file, and returns the directory of its output tree.
func buildTestApp(t *testing.T, name, dir string) string {
	t.Helper()
	if err := copyExample(filepath.Join("..", name), dir); err != nil {
		t.Fatal(err)
	}
	return buildProject(t, dir)
}

// buildProject builds the project file dir/bakefs.toml and returns the
// directory of its output tree.
func buildProject(t *testing.T, dir string) string {
	t.Helper()
	p, err := project.Load(filepath.Join(dir, "bakefs.toml"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Pipeline().Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.WriteTree(p.Out); err != nil {
		t.Fatal(err)
	}
	return p.Out
}

// checkRealAppRequests checks what one page load asked of a server.
func checkRealAppRequests(t *testing.T, what string, rec *recorder, base string) {
	t.Helper()
	assets := 0
	for _, e := range rec.exchanges() {
		if !strings.HasPrefix(e.URL, base+"/") || strings.HasSuffix(e.URL, "/favicon.ico") {
			continue
		}
		name := strings.TrimPrefix(e.URL, base+"/")
		if e.Failed != "" || e.Status >= 400 {
			t.Errorf("%s: %s failed: %d %s", what, name, e.Status, e.Failed)
			continue
		}
		if strings.HasSuffix(name, ".html") {
			if cc := e.Headers["cache-control"]; !strings.Contains(cc, "no-cache") {
				t.Errorf("%s: page %s sent Cache-Control %q, want no-cache", what, name, cc)
			}
			continue
		}
		assets++
		if cc := e.Headers["cache-control"]; !strings.Contains(cc, "immutable") {
			t.Errorf("%s: %s sent Cache-Control %q, want immutable (a hashed name)", what, name, cc)
		}
	}
	if assets != 3 {
		t.Errorf("%s: %d script, sheet and image requests, want 3", what, assets)
	}
	for _, msg := range rec.errors() {
		if !strings.Contains(msg, "/favicon.ico") {
			t.Errorf("%s: %s", what, msg)
		}
	}
}
