package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gopoly/gopoly/session"
)

// streamBatch bounds the events one read of the history sends.
const streamBatch = 500

// keepAlive is how long a quiet stream waits before a comment line, so
// that proxies and browsers keep it open.
const keepAlive = 20 * time.Second

// streamEvent is one event as the stream sends it: the wire event, the
// log entry that set it off, and a sentence for the feed.
type streamEvent struct {
	session.Event
	Text string `json:"text"`
}

// events streams a game's events as server-sent events, each with its
// sequence number as id, from ?from= or after the Last-Event-ID a
// reconnecting browser sends, so that a dropped stream resumes without a
// gap. It waits on the session's changes: no polling.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	from := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			s.fail(w, r, http.StatusBadRequest, "bad_request", "Last-Event-ID: want an event number")
			return
		}
		from = n + 1
	} else if v := r.URL.Query().Get("from"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			s.fail(w, r, http.StatusBadRequest, "bad_request", "from: want an event number, a whole number from 0")
			return
		}
		from = n
	}
	tok := viewToken(r, sess)
	if _, _, err := sess.History(tok, from, 1); err != nil {
		s.sessionError(w, r, err) // a bad token, before the stream starts
		return
	}
	flush, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, "internal", "streaming unsupported")
		return
	}
	changed, stop := sess.Subscribe()
	defer stop()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	flush.Flush()
	rules := sess.Rules()
	setup := sess.Setup()
	names := setup.Names()
	describe := func(e session.Event) string { return rules.Describe(e.Engine, names) }
	quiet := time.NewTimer(keepAlive)
	defer quiet.Stop()
	for {
		for {
			evs, next, err := sess.History(tok, from, streamBatch)
			if err != nil {
				return
			}
			for _, e := range evs {
				data, err := json.Marshal(streamEvent{Event: e, Text: describe(e)})
				if err != nil {
					return
				}
				fmt.Fprintf(w, "id: %d\nevent: game\ndata: %s\n\n", e.Event.Seq, data)
			}
			from = next
			if len(evs) < streamBatch {
				break
			}
		}
		flush.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-changed:
		case <-quiet.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flush.Flush()
			quiet.Reset(keepAlive)
		}
	}
}
