// Package browser holds the end-to-end test of the example web application
// in a real browser: it builds examples/webapp (production and dev), runs
// it on a loopback port, over HTTP/1.1 and over TLS with HTTP/2, and drives
// Debian's headless Chromium through the DevTools protocol (chromedp).
//
// It lives in its own package so that chromedp never enters the module's
// binaries. Run it with
//
//	tools/chromium-setup.sh && go test ./tests/browser/
//
// Screenshots go to $BAKEFS_ARTIFACTS, or tests/browser/artifacts/. Without
// Chromium the test fails when CI=true and is skipped otherwise.
package browser
