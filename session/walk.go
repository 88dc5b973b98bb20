package session

import (
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// Walk replays the first at answers of the log on a fresh game of the
// session's setup, as GameAt does, and calls fn at each step: once for
// the start of the game (entry -1, with the first turn's start), then
// once after each answer i (entry i), with the game as it stands after
// it and the events it set off, as the token's holder may see them.
// The game is the host's copy, with everything in it, and changes after
// fn returns: fn must not keep it.
func (s *Session) Walk(token string, at int, fn func(g *monopoly.Game, entry int, evs []monopoly.Event)) error {
	s.mu.Lock()
	v, err := s.viewer(token)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	r, log, err := s.replica(at)
	if err != nil {
		return err
	}
	hand := func(entry int, evs []event) {
		out := make([]monopoly.Event, len(evs))
		for i, e := range evs {
			out[i] = e.Event
			if !v.Research {
				out[i] = e.For(v.Seat, r.c.rules)
			}
		}
		fn(r.g, entry, out)
	}
	hand(-1, r.events)
	// Every answer replayed passes through the driver's hook, which logs
	// it with its events: fn is called there, while the game is still
	// where that answer left it.
	r.driver.Applied = func(g *monopoly.Game, seat int, ans agent.Answer) error {
		n := len(r.events)
		if err := r.applied(g, seat, ans); err != nil {
			return err
		}
		hand(len(r.log)-1, r.events[n:])
		return nil
	}
	return r.replay(log, at, false)
}
