package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// An exchange is one request of the page as the browser saw it.
type exchange struct {
	URL             string
	Type            network.ResourceType
	RequestHeaders  map[string]string // lower-case names, as sent on the wire
	Status          int64
	Headers         map[string]string // lower-case names
	Protocol        string
	FromDiskCache   bool
	ServedFromCache bool // from the memory cache
	Failed          string
	Responded       bool
	// EncodedLength is the bytes received for the request, headers and
	// body as sent (DevTools' encodedDataLength), once it finished.
	EncodedLength float64
}

// cached reports whether the browser answered the request from its cache.
func (e *exchange) cached() bool { return e.FromDiskCache || e.ServedFromCache }

// A recorder collects the requests and the console errors of a tab.
type recorder struct {
	mu       sync.Mutex
	byID     map[network.RequestID]*exchange
	order    []network.RequestID
	problems []string
}

// record starts recording the events of the tab of ctx.
func record(t *testing.T, ctx context.Context) *recorder {
	t.Helper()
	r := &recorder{byID: make(map[network.RequestID]*exchange)}
	if err := chromedp.Listen(ctx, r.event); err != nil {
		t.Fatal(err)
	}
	return r
}

func lowerHeaders(h network.Headers) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[strings.ToLower(k)] = fmt.Sprint(v)
	}
	return out
}

// get returns the exchange of id, made on first sight: the extra-info
// events may come before the request's own.
func (r *recorder) get(id network.RequestID) *exchange {
	e, ok := r.byID[id]
	if !ok {
		e = &exchange{}
		r.byID[id] = e
		r.order = append(r.order, id)
	}
	return e
}

func (r *recorder) event(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		e := r.get(ev.RequestID)
		e.URL, e.Type = ev.Request.URL, ev.Type
	case *network.EventRequestWillBeSentExtraInfo:
		r.get(ev.RequestID).RequestHeaders = lowerHeaders(ev.Headers)
	case *network.EventRequestServedFromCache:
		r.get(ev.RequestID).ServedFromCache = true
	case *network.EventResponseReceived:
		e := r.get(ev.RequestID)
		resp := ev.Response
		e.URL, e.Type, e.Responded = resp.URL, ev.Type, true
		e.Status, e.Protocol, e.FromDiskCache = resp.Status, resp.Protocol, resp.FromDiskCache
		e.Headers = lowerHeaders(resp.Headers)
		if e.RequestHeaders == nil && resp.RequestHeaders != nil {
			e.RequestHeaders = lowerHeaders(resp.RequestHeaders)
		}
	case *network.EventLoadingFinished:
		r.get(ev.RequestID).EncodedLength = ev.EncodedDataLength
	case *network.EventLoadingFailed:
		e := r.get(ev.RequestID)
		e.Failed = ev.ErrorText
		if ev.BlockedReason != "" {
			e.Failed += " (blocked: " + string(ev.BlockedReason) + ")"
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				if a.Description != "" {
					args = append(args, a.Description)
				} else {
					args = append(args, string(a.Value))
				}
			}
			r.problems = append(r.problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		r.problems = append(r.problems, fmt.Sprintf("exception at %s:%d:%d: %s", d.URL, d.LineNumber+1, d.ColumnNumber+1, text))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			r.problems = append(r.problems, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	}
}

// exchanges returns a copy of what was recorded, in request order.
func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]exchange, 0, len(r.order))
	for _, id := range r.order {
		out = append(out, *r.byID[id])
	}
	return out
}

// errors returns the console errors, exceptions and error log entries.
func (r *recorder) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.problems...)
}

// reset forgets everything recorded so far.
func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byID = make(map[network.RequestID]*exchange)
	r.order, r.problems = nil, nil
}

// waitFor evaluates the JavaScript expression until it is true. Errors of
// evaluation (a page that is reloading) are retried. The bound is there to
// end a hang; the test measures no time.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waiting for %s: gave up (last error: %v)", what, lastErr)
}

// screenshot saves a full-page PNG in the artifacts directory.
func screenshot(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	file := filepath.Join(artifacts(t), name)
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
	return file
}
