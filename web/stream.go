package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gopoly/gopoly/session"
)

// keepAlive is how long a quiet stream waits before a comment line, so
// that proxies and browsers keep it open.
const keepAlive = 20 * time.Second

// streamEvent is one event as the stream sends it: the wire event, the
// log entry that set it off, and a sentence for the feed.
type streamEvent struct {
	session.Event
	Text string `json:"text"`
}

// A feed is the events of one game as one kind of viewer sees them (a
// seat, a spectator, the research view), read from the session once and
// encoded once as server-sent event frames, which every stream of that
// viewer copies: two hundred spectators cost one reader, not two hundred.
type feed struct {
	mu      sync.Mutex
	frames  [][]byte      // by sequence number
	grown   chan struct{} // closed when frames grow, then replaced
	streams int           // streams reading; the feed stops some time after the last leaves
	err     error         // the session failed to give its history: the streams end
}

// feedKey names a feed: the game and the token it is read with.
type feedKey struct{ id, token string }

// feedIdle is how long a feed outlives its last stream, for a browser
// that reconnects.
const feedIdle = 30 * time.Second

// feedFor returns the running feed of sess as tok's holder sees it,
// starting it if need be, with one more stream counted.
func (s *Server) feedFor(sess *session.Session, tok string) *feed {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := feedKey{sess.ID(), tok}
	if f, ok := s.feeds[k]; ok {
		f.mu.Lock()
		f.streams++
		f.mu.Unlock()
		return f
	}
	f := &feed{grown: make(chan struct{}), streams: 1}
	s.feeds[k] = f
	s.wg.Add(1)
	go s.read(sess, tok, k, f)
	return f
}

// leave counts a stream out of f.
func (f *feed) leave() {
	f.mu.Lock()
	f.streams--
	f.mu.Unlock()
}

// read keeps f up with the session: every change of the game appends the
// new events' frames and wakes the streams. It ends with the server, or
// once no stream has read f for feedIdle.
func (s *Server) read(sess *session.Session, tok string, k feedKey, f *feed) {
	defer s.wg.Done()
	changed := make(chan struct{}, 1)
	stop := s.watchers.Watch(sess, func() {
		select {
		case changed <- struct{}{}:
		default: // one change pending is enough: the feed reads all that is new
		}
	})
	defer stop()
	setup := sess.Setup()
	rules, names := sess.Rules(), setup.Names()
	idle := time.NewTicker(feedIdle)
	defer idle.Stop()
	lastSeen := time.Now()
	for {
		if sess.Err() != nil {
			// Another process played on and this one's copy fell stale:
			// the game as stored goes on with the same event numbers.
			if cur, err := sess.Reopen(s.ctx); err == nil {
				sess = cur
			}
		}
		f.mu.Lock()
		from := len(f.frames)
		f.mu.Unlock()
		evs, _, err := sess.History(tok, from, 0)
		var frames [][]byte
		for _, e := range evs {
			data, merr := json.Marshal(streamEvent{Event: e, Text: rules.Describe(e.Engine, names)})
			if merr != nil {
				err = merr
				break
			}
			frames = append(frames, fmt.Appendf(nil, "id: %d\nevent: game\ndata: %s\n\n", e.Event.Seq, data))
		}
		f.mu.Lock()
		if len(frames) > 0 || err != nil {
			f.frames = append(f.frames, frames...)
			f.err = err
			close(f.grown)
			f.grown = make(chan struct{})
		}
		f.mu.Unlock()
		if err != nil {
			s.dropFeed(k, f)
			return
		}
		select {
		case <-s.ctx.Done():
			s.dropFeed(k, f)
			return
		case <-changed:
		case <-idle.C:
			f.mu.Lock()
			streams := f.streams
			f.mu.Unlock()
			if streams > 0 {
				lastSeen = time.Now()
			} else if time.Since(lastSeen) >= feedIdle {
				if s.dropFeed(k, f) {
					return
				}
			}
		}
	}
}

// dropFeed removes f unless a stream has just joined it; it reports
// whether it did.
func (s *Server) dropFeed(k feedKey, f *feed) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.streams > 0 && s.ctx.Err() == nil && f.err == nil {
		return false
	}
	if s.feeds[k] == f {
		delete(s.feeds, k)
	}
	if f.err == nil {
		f.err = http.ErrServerClosed
	}
	close(f.grown)
	f.grown = make(chan struct{})
	return true
}

// events streams a game's events as server-sent events, each with its
// sequence number as id, from ?from= or after the Last-Event-ID a
// reconnecting browser sends, so that a dropped stream resumes without a
// gap. It waits on the game's changes: no polling.
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
	f := s.feedFor(sess, tok)
	defer f.leave()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	flush.Flush()
	quiet := time.NewTimer(keepAlive)
	defer quiet.Stop()
	for {
		f.mu.Lock()
		frames, grown, err := f.frames[min(from, len(f.frames)):], f.grown, f.err
		f.mu.Unlock()
		for _, fr := range frames {
			if _, werr := w.Write(fr); werr != nil {
				return
			}
		}
		from += len(frames)
		flush.Flush()
		if err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-grown:
		case <-quiet.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flush.Flush()
			quiet.Reset(keepAlive)
		}
	}
}
