package session_test

import (
	"errors"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
)

// Walk hands out, step by step, the events the live play recorded for
// the same viewer, and ends on the game GameAt gives; a seat sees its own
// thoughts only, the research view every one.
func TestWalk(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{Research: true})
	s, err := m.Create(ctx, setup(8, "human,shark,hustler"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Advance(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	tok := s.Tokens()
	g := s.Game()
	a := stand(t, "baseline", 8, 0).Decide(g.View(p.Waiting), g.Pending())
	if _, err := s.Submit(ctx, tok.Seats[p.Waiting], agent.Answer{Action: a, Thought: "my secret plan"}); err != nil {
		t.Fatal(err)
	}
	playThrough(t, s, map[int]agent.Agent{0: stand(t, "baseline", 8, 0)}, 40)
	entries := s.Status().Entries

	viewers := []struct {
		name, token string
		seat        int // whose thoughts it may see; -2: everyone's
	}{{"spectator", "", -1}, {"seat 0", tok.Seats[0], 0}, {"research", tok.Research, -2}}
	for _, v := range viewers {
		history, _, err := s.History(v.token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []int{0, 1, entries / 2, entries} {
			var got []monopoly.Event
			var last *monopoly.Game
			next := -1
			err := s.Walk(v.token, at, func(g *monopoly.Game, entry int, evs []monopoly.Event) {
				if entry != next {
					t.Fatalf("%s to %d: entry %d after %d", v.name, at, entry, next-1)
				}
				next++
				for _, e := range evs {
					if e.Kind == monopoly.EvSpeech && e.Thought != "" && v.seat != -2 && int(e.Player) != v.seat {
						t.Errorf("%s sees seat %d's thought %q", v.name, e.Player, e.Thought)
					}
					got = append(got, e)
				}
				last = g.Clone()
			})
			if err != nil {
				t.Fatalf("%s to %d: %v", v.name, at, err)
			}
			if next != at {
				t.Errorf("%s to %d: fn called for %d answers", v.name, at, next)
			}
			var want []monopoly.Event
			for _, e := range history {
				if e.Entry < at {
					want = append(want, e.Engine)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s to %d: %d events, history has %d", v.name, at, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s to %d: event %d is %+v, history has %+v", v.name, at, i, got[i], want[i])
				}
			}
			g, err := s.GameAt(at)
			if err != nil || !last.SameState(g) {
				t.Errorf("%s to %d: the last game differs from GameAt (%v)", v.name, at, err)
			}
		}
	}
	// The thoughts to hide are there: the walk above could have shown them.
	thoughts := map[int]int{}
	s.Walk(tok.Research, entries, func(_ *monopoly.Game, _ int, evs []monopoly.Event) {
		for _, e := range evs {
			if e.Thought != "" {
				thoughts[int(e.Player)]++
			}
		}
	})
	if thoughts[0] != 1 || thoughts[1]+thoughts[2] == 0 {
		t.Errorf("the research view walks past thoughts %v", thoughts)
	}
}

// Walk refuses what GameAt and History refuse, and calls fn for none of it.
func TestWalkRefusals(t *testing.T) {
	s := botSession(t, session.NewManager(openStore(t), session.Options{}), 3, "baseline,shark")
	entries := s.Status().Entries
	cases := []struct {
		name, token string
		at          int
		code        string
	}{
		{"before the start", "", -1, "bad_request"},
		{"past the log", "", entries + 1, "bad_request"},
		{"bad token", "0123456789abcdef", 0, session.CodeBadToken},
		{"research off", s.Tokens().Research, entries, session.CodeBadToken},
	}
	for _, c := range cases {
		calls := 0
		err := s.Walk(c.token, c.at, func(*monopoly.Game, int, []monopoly.Event) { calls++ })
		var r *session.Refused
		if !errors.As(err, &r) || r.Code != c.code || calls != 0 {
			t.Errorf("%s: %v after %d calls, want refusal %s", c.name, err, calls, c.code)
		}
	}
}
