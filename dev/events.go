package dev

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// A state is what browsers are told: the build being served and the error
// of the last build, if it failed.
type state struct {
	Generation uint64 `json:"generation"`
	Error      string `json:"error,omitempty"`
}

// A broker hands the latest state to every subscriber. A slow subscriber
// misses intermediate states, never the latest.
type broker struct {
	mu     sync.Mutex
	last   state
	subs   map[chan state]bool
	closed bool
}

func newBroker() *broker { return &broker{subs: make(map[chan state]bool)} }

// subscribe returns a channel that receives each new state (the current
// one first) and a function that ends the subscription. The channel is
// closed when the broker is.
func (b *broker) subscribe() (<-chan state, func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan state, 1)
	if b.closed {
		close(ch)
		return ch, func() {}
	}
	ch <- b.last
	b.subs[ch] = true
	return ch, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.subs[ch] {
			delete(b.subs, ch)
			close(ch)
		}
	}
}

// publish makes st the current state and offers it to every subscriber,
// replacing a state it has not read yet.
func (b *broker) publish(st state) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last = st
	for ch := range b.subs {
		select {
		case <-ch:
		default:
		}
		ch <- st
	}
}

// close ends every subscription.
func (b *broker) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for ch := range b.subs {
		delete(b.subs, ch)
		close(ch)
	}
}

// keepAlive is how often an idle event stream sends a comment, so that
// proxies and the browser keep the connection open.
const keepAlive = 25 * time.Second

// serveEvents streams states as Server-Sent Events named "state", each a
// JSON object {"generation":N,"error":"…"}, until the client goes away or
// the server closes.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ch, cancel := s.events.subscribe()
	defer cancel()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case st, ok := <-ch:
			if !ok {
				return
			}
			data, _ := json.Marshal(st)
			if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", data); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
