package monopoly_test

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// TestAdjourn stops games at random points, whatever is pending, and
// checks that each ends as a timed game (7.10): over, capped, won by the
// solvent player with the highest net worth (no one on a tie), with the
// game-over event, a position that keeps every invariant and saves, and
// no further action accepted. Adjourning again, or a game that ended by
// bankruptcies, changes nothing. Every other game counts worth as
// Monopyly does (`net_worth: resale`).
func TestAdjourn(t *testing.T) {
	rules := [2]*monopoly.Rules{
		monopolytest.Rules(t, "max_rounds: 0"),
		monopolytest.Rules(t, "max_rounds: 0\nnet_worth: resale"),
	}
	kinds := map[monopoly.DecisionKind]int{}
	ties, differ := 0, 0
	for k := range 12 {
		seed := uint64(300 + k)
		players := 2 + k%4
		mix := seatMixes[k%len(seatMixes)]
		resale := k%2 == 1
		g := monopoly.New(rules[k%2], players, seed)
		as := seatAgents(mix, players, seed)
		rng := newRNG(seed)
		for n := 0; !g.Over() && n < 6000; n++ {
			if rng.IntN(80) == 0 {
				kinds[g.Pending().Kind]++
				h := g.Clone()
				h.Record(true)
				h.Adjourn()
				if !h.Over() || !h.Capped() || h.Pending().Kind != monopoly.DecisionNone {
					t.Fatalf("seed %d, step %d: adjourned: over %v, capped %v, pending %v", seed, n, h.Over(), h.Capped(), h.Pending().Kind)
				}
				winner, best := richest(h, resale)
				if other, _ := richest(h, !resale); other != winner {
					differ++
				}
				if winner < 0 {
					ties++
				}
				if h.Winner() != winner {
					t.Fatalf("seed %d, step %d: winner %d, want %d (net worth %d)", seed, n, h.Winner(), winner, best)
				}
				evs := h.TakeEvents()
				if len(evs) == 0 || evs[len(evs)-1].Kind != monopoly.EvGameOver || int(evs[len(evs)-1].Player) != winner {
					t.Fatalf("seed %d, step %d: events %v, want the game-over event", seed, n, evs)
				}
				if err := checkState(h); err != nil {
					t.Fatalf("seed %d, step %d: adjourned: %v", seed, n, err)
				}
				if err := checkSaved(h); err != nil {
					t.Fatalf("seed %d, step %d: adjourned: %v", seed, n, err)
				}
				if err := h.Apply(decide(g, as)); err == nil {
					t.Fatalf("seed %d, step %d: an action accepted after the game was adjourned", seed, n)
				}
				again := h.Clone()
				again.Adjourn()
				if !again.SameState(h) {
					t.Fatalf("seed %d, step %d: adjourning twice changed the game", seed, n)
				}
			}
			if err := g.Apply(decide(g, as)); err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, n, err)
			}
		}
		if g.Over() {
			h := g.Clone()
			h.Adjourn()
			if !h.SameState(g) || h.Capped() {
				t.Fatalf("seed %d: adjourning a finished game changed it", seed)
			}
		}
	}
	for _, k := range []monopoly.DecisionKind{monopoly.DecisionManage, monopoly.DecisionBid, monopoly.DecisionRaiseCash, monopoly.DecisionTradeResponse} {
		if kinds[k] == 0 {
			t.Errorf("never adjourned at a %v decision (%v)", k, kinds)
		}
	}
	if differ == 0 {
		t.Error("the two counts of worth never named different winners: the test cannot tell them apart")
	}
	t.Logf("adjourned at %v; %d ties; %d positions where the two counts of worth name different winners", kinds, ties, differ)
}

// richest is the solvent player with the highest worth in g, and that
// worth, counted as the rules reference does (7.10) or, when resale, as
// Monopyly does: cash, unmortgaged properties at their mortgage value,
// buildings at half their cost. A tie has no winner (-1).
func richest(g *monopoly.Game, resale bool) (winner, best int) {
	r := g.Rules()
	winner, best = -1, -1
	for p := range g.Players() {
		if g.Bankrupt(p) {
			continue
		}
		w := g.Cash(p)
		for sq := range r.Squares {
			if g.Owner(sq) != p {
				continue
			}
			s, building := r.Squares[sq], g.Houses(sq)*r.HouseCost(sq)
			switch {
			case resale && !g.Mortgaged(sq):
				w += s.Mortgage + building/2
			case resale:
				w += building / 2
			case g.Mortgaged(sq):
				w += s.Mortgage + building
			default:
				w += s.Price + building
			}
		}
		switch {
		case w > best:
			best, winner = w, p
		case w == best:
			winner = -1
		}
	}
	return winner, best
}
