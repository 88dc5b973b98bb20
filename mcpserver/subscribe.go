package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
)

// Subscriptions: the SDK keeps who subscribed to which URI and sends
// notifications/resources/updated to them; the server says when a
// resource changed. A game changes when an answer is committed, by this
// server's tools or by anything else in this process holding the same
// session (another connection), and the session's own Subscribe says
// so: each game this server opened is watched, and each change notifies
// the subscribed resources of the game and the lists. Creating or
// deleting a game or a config adds or removes resources, which sends
// list-changed.
//
// The server counts the subscriptions itself, so that a change nobody
// listens to costs nothing. The SDK forgets a subscriber that
// disconnects without telling, so a count may stay up after its
// subscriber has gone: that only sends a notification to nobody. The
// URIs counted are bounded instead.

// maxSubscribed bounds the URIs the server counts subscriptions to.
const maxSubscribed = 10_000

// globalLists are the shared resources that change with any game.
var globalLists = []string{"game://sessions", "game://active-decisions", "game://monitoring"}

// watcher follows the games this server opened, through the process's
// table.Watchers, and counts the subscriptions.
type watcher struct {
	s      *Server
	tw     *table.Watchers
	mu     sync.Mutex
	games  map[string]func()         // game id -> stops following it
	subs   map[string]map[string]int // game id ("" for the rest) -> subscribed URI -> subscriptions
	nsubs  int                       // URIs in subs
	closed bool
}

func (w *watcher) init(s *Server) {
	w.s, w.tw, w.games, w.subs = s, table.NewWatchers(), map[string]func(){}, map[string]map[string]int{}
}

// game follows g, unless it is followed already; table.Watchers follows
// a session the manager reopened in the old one's place.
func (w *watcher) game(g *session.Session) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := g.ID()
	if _, ok := w.games[id]; w.closed || ok {
		return
	}
	w.games[id] = w.tw.Watch(g, func() { w.s.publishGame(id) })
}

// forget stops following a deleted game.
func (w *watcher) forget(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if stop := w.games[id]; stop != nil {
		stop()
		delete(w.games, id)
	}
	w.nsubs -= len(w.subs[id])
	delete(w.subs, id)
}

// close stops following every game.
func (w *watcher) close() {
	w.mu.Lock()
	w.closed = true
	w.games = map[string]func(){}
	w.mu.Unlock()
	w.tw.Close()
}

// count is how many games are followed.
func (w *watcher) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.games)
}

// subscribed returns the URIs subscribed of game id ("": the rest).
func (w *watcher) subscribed(id string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.subs[id]))
}

// add counts a subscription to uri of game id.
func (w *watcher) add(id, uri string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.subs[id]
	if m == nil {
		m = map[string]int{}
		w.subs[id] = m
	}
	if m[uri] == 0 {
		if w.nsubs >= maxSubscribed {
			return fmt.Errorf("the server follows %d subscribed resources already: subscribe to game://{id}/state or game://sessions instead", maxSubscribed)
		}
		w.nsubs++
	}
	m[uri]++
	return nil
}

// drop uncounts a subscription to uri of game id.
func (w *watcher) drop(id, uri string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch m := w.subs[id]; {
	case m[uri] > 1:
		m[uri]--
	case m[uri] == 1:
		delete(m, uri)
		w.nsubs--
	}
}

// gameOf returns the game id of a per-game route ("" for the others).
func gameOf(r *route, vars map[string]string) string {
	if strings.HasPrefix(r.pattern, "game://{id}/") {
		return vars["id"]
	}
	return ""
}

// subscribe accepts a subscription to a resource this server has; a
// game's is watched from then on.
func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	r, vars := s.match(uri)
	if r == nil {
		return fmt.Errorf("mcpserver: subscribe: %w %q", errUnknownResource, uri)
	}
	id := gameOf(r, vars)
	if id != "" {
		if _, err := s.open(ctx, id); err != nil {
			return fmt.Errorf("mcpserver: subscribe: %s: %w", uri, err)
		}
	}
	if err := s.watch.add(id, uri); err != nil {
		return fmt.Errorf("mcpserver: subscribe: %w", err)
	}
	s.stats.add(&s.stats.subscribes)
	return nil
}

// unsubscribe uncounts a subscription.
func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if r, vars := s.match(req.Params.URI); r != nil {
		s.watch.drop(gameOf(r, vars), req.Params.URI)
	}
	return nil
}

// publishGame tells the subscribers of game id's resources, and of the
// lists, that they changed.
func (s *Server) publishGame(id string) {
	uris := s.watch.subscribed(id)
	for _, u := range s.watch.subscribed("") {
		if slices.Contains(globalLists, u) {
			uris = append(uris, u)
		}
	}
	s.publish(uris...)
}

// publishLists tells the subscribers of the lists that they changed.
func (s *Server) publishLists() { s.publish(globalLists...) }

// publish notifies the subscribers of uris. The SDK sends to each
// subscribed connection and ignores URIs nobody subscribed to.
func (s *Server) publish(uris ...string) {
	if len(uris) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, uri := range uris {
		// An error is a subscriber gone meanwhile, which the SDK logs;
		// the others are still told.
		_ = s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
	s.stats.add(&s.stats.notifications)
}
