package table

import (
	"container/list"
	"context"
	"sync"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/session"
)

// Odds computes the chances to win of games' positions (arena.WinOdds)
// once per position and options, for every viewer who asks: those who
// ask while it is computed wait for the same result. It keeps each game's
// latest estimate only, for at most max games, the least recently asked
// dropped first, so that its memory does not grow with the games served
// nor with their length.
type Odds struct {
	mu    sync.Mutex
	max   int
	games map[string]*list.Element // of *oddsEntry
	lru   list.List                // most recently asked first
	runs  int                      // estimates computed, for the tests
	// players finds the playouts' bot: the host's registry.
	players arena.Registry
}

// oddsEntry is one game's latest estimate, or the one being computed.
type oddsEntry struct {
	id   string
	key  oddsKey
	done chan struct{} // closed when odds and err are set
	odds arena.Odds
	err  error
}

// oddsKey is what an estimate depends on: the position (the log's
// length) and the options.
type oddsKey struct {
	entries int
	opt     oddsOpt
}

// oddsOpt is what of arena.OddsOptions an estimate depends on: all of
// it but the registry, the cache's own, which is not comparable.
type oddsOpt struct {
	samples, horizon, workers int
	seed                      uint64
	bot                       string
}

// NewOdds returns a cache of the latest estimate of at most max games.
func NewOdds(max int, players arena.Registry) *Odds {
	return &Odds{max: max, players: players, games: map[string]*list.Element{}}
}

// Of returns the chances to win of sess's position now, with opt and
// the playouts' seed (nil: the log's length plus one, so that a position
// always gets the same estimate).
func (o *Odds) Of(ctx context.Context, sess *session.Session, opt arena.OddsOptions, seed *uint64) (arena.Odds, error) {
	g, entries := sess.Now()
	opt.Seed = uint64(entries) + 1
	if seed != nil {
		opt.Seed = *seed
	}
	k := oddsKey{entries, oddsOpt{opt.Samples, opt.Horizon, opt.Workers, opt.Seed, opt.Bot}}
	o.mu.Lock()
	el, ok := o.games[sess.ID()]
	if ok && el.Value.(*oddsEntry).key == k {
		o.lru.MoveToFront(el)
		e := el.Value.(*oddsEntry)
		o.mu.Unlock()
		select {
		case <-e.done:
			return e.odds, e.err
		case <-ctx.Done():
			return arena.Odds{}, ctx.Err()
		}
	}
	e := &oddsEntry{id: sess.ID(), key: k, done: make(chan struct{})}
	if ok {
		o.lru.Remove(el)
	}
	o.games[e.id] = o.lru.PushFront(e)
	o.runs++
	for o.lru.Len() > o.max {
		old := o.lru.Remove(o.lru.Back()).(*oddsEntry)
		delete(o.games, old.id)
	}
	o.mu.Unlock()
	// Computed apart from the asker's context: others may wait for it.
	opt.Registry = o.players
	e.odds, e.err = arena.WinOdds(context.WithoutCancel(ctx), g, -1, opt)
	close(e.done)
	if e.err != nil { // not kept: the next asker tries again
		o.mu.Lock()
		if el, ok := o.games[e.id]; ok && el.Value == e {
			o.lru.Remove(el)
			delete(o.games, e.id)
		}
		o.mu.Unlock()
	}
	return e.odds, e.err
}

// Forget drops a game's estimate (a deleted game).
func (o *Odds) Forget(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if el, ok := o.games[id]; ok {
		o.lru.Remove(el)
		delete(o.games, id)
	}
}

// Len is how many games' estimates are kept.
func (o *Odds) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lru.Len()
}
