package table

import (
	"context"
	"sync"

	"github.com/gopoly/gopoly/session"
)

// Watchers watch the games of one process for its front ends: one
// subscription to each game's session, however many viewers follow it
// (the browser's event feeds, MCP's subscribed resources), each told of
// every change by a function of its own. A front end only formats what
// it sends.
type Watchers struct {
	mu     sync.Mutex
	games  map[string]*watch
	closed bool
	next   int // the last listener's key, unique in the process
	wg     sync.WaitGroup
}

// watch is one game's subscription and its listeners.
type watch struct {
	sess      *session.Session
	unsub     func()
	quit      chan struct{}
	listeners map[int]func()
}

// NewWatchers returns the watchers of a process.
func NewWatchers() *Watchers { return &Watchers{games: map[string]*watch{}} }

// Watch calls f after each change of sess's game (each answer
// committed), from the game's one goroutine, until the returned stop is
// called or the watchers close. f must not block: it delays the game's
// other listeners. A session the manager reopened (a new *Session of the
// same game) is watched in the old one's place, for every listener.
func (w *Watchers) Watch(sess *session.Session, f func()) (stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return func() {}
	}
	id := sess.ID()
	gw := w.games[id]
	if gw == nil || gw.sess != sess {
		listeners := map[int]func(){}
		if gw != nil {
			listeners = gw.listeners
			gw.stop()
		}
		gw = w.start(sess, listeners)
		w.games[id] = gw
	}
	w.next++
	k := w.next // the closure keeps this listener's key, not the counter
	gw.listeners[k] = f
	return func() { w.unwatch(id, k) }
}

// unwatch removes listener k of game id, and the game's watch with its
// last listener.
func (w *Watchers) unwatch(id string, k int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if gw := w.games[id]; gw != nil {
		delete(gw.listeners, k)
		if len(gw.listeners) == 0 {
			gw.stop()
			delete(w.games, id)
		}
	}
}

// start subscribes to sess and calls the listeners at each change.
// Called with w.mu held.
func (w *Watchers) start(sess *session.Session, listeners map[int]func()) *watch {
	ch, unsub := sess.Subscribe()
	gw := &watch{sess: sess, unsub: unsub, quit: make(chan struct{}), listeners: listeners}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			select {
			case <-ch:
			case <-gw.quit:
				return
			}
			if sess.Err() != nil && w.reopen(gw) {
				return // the game reopened is watched, and the listeners told, in its place
			}
			w.mu.Lock()
			fs := gw.all()
			w.mu.Unlock()
			for _, f := range fs {
				f()
			}
		}
	}()
	return gw
}

// reopen watches, in gw's place, the game of gw's session, which fell
// behind its store (another process played on): opened again from the
// store, for the same listeners, who are told. It reports whether it
// did; a game that cannot be opened (deleted) stays as it is.
func (w *Watchers) reopen(gw *watch) bool {
	sess, err := gw.sess.Reopen(context.Background())
	if err != nil {
		return false
	}
	w.mu.Lock()
	if w.closed || w.games[sess.ID()] != gw {
		w.mu.Unlock()
		return false
	}
	gw.stop()
	ngw := w.start(sess, gw.listeners)
	w.games[sess.ID()] = ngw
	fs := ngw.all()
	w.mu.Unlock()
	for _, f := range fs {
		f()
	}
	return true
}

// all are gw's listeners, to call once the watchers' lock, held, is let
// go.
func (gw *watch) all() []func() {
	fs := make([]func(), 0, len(gw.listeners))
	for _, f := range gw.listeners {
		fs = append(fs, f)
	}
	return fs
}

// stop ends the subscription. Called with the watchers' lock held.
func (gw *watch) stop() {
	gw.unsub()
	close(gw.quit)
}

// Forget stops watching game id (a deleted game), for every listener.
func (w *Watchers) Forget(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if gw := w.games[id]; gw != nil {
		gw.stop()
		delete(w.games, id)
	}
}

// Games is how many games are watched.
func (w *Watchers) Games() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.games)
}

// Close stops every watch and waits for their goroutines.
func (w *Watchers) Close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		for id, gw := range w.games {
			gw.stop()
			delete(w.games, id)
		}
	}
	w.mu.Unlock()
	w.wg.Wait()
}
