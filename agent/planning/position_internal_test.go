package planning

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// setup builds a four-player position: cash per seat, owners of named
// squares, where seat 0 stands, and who moves first.
func setup(t *testing.T, cash [4]int, owners map[string]int, pos0, first int) *monopoly.Game {
	t.Helper()
	r := monopoly.DefaultRules()
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1, First: first}
	for i, c := range cash {
		ps := monopoly.PlayerSetup{Cash: c}
		if i == 0 {
			ps.Position = pos0
		}
		s.Players = append(s.Players, ps)
	}
	for name, o := range owners {
		sq, ok := r.SquareIndex(name)
		if !ok {
			t.Fatalf("no square %q", name)
		}
		s.Properties = append(s.Properties, monopoly.PropertySetup{Square: sq, Owner: o})
	}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func square(t *testing.T, name string) int {
	t.Helper()
	sq, ok := monopoly.DefaultRules().SquareIndex(name)
	if !ok {
		t.Fatalf("no square %q", name)
	}
	return sq
}

// one makes a one-action candidate.
func one(a monopoly.Action) candidate {
	var c candidate
	c.add(a)
	return c
}

// The rollouts, not the default, decide: each case puts the worse action
// first (the default, which wins ties and noise) and the rollouts must
// find the better one.
func TestRolloutsFindTheBetterAction(t *testing.T) {
	t.Run("buying the last street of its group", func(t *testing.T) {
		g := setup(t, [4]int{1200, 1500, 1500, 1500}, map[string]int{
			"St. James Place": 0, "Tennessee Avenue": 0, "Reading Railroad": 1, "Baltic Avenue": 2,
		}, square(t, "St. James Place"), 0)
		g.ScriptDice([][2]int{{1, 2}}) // to New York Avenue
		if err := g.Apply(act(monopoly.ActContinue, 0, 0)); err != nil {
			t.Fatal(err)
		}
		if d := g.Pending(); d.Kind != monopoly.DecisionBuy || d.Square != square(t, "New York Avenue") {
			t.Fatalf("pending %+v", d)
		}
		pl := NewPlanner(PlanningParams(), 3)
		cs := []candidate{one(act(monopoly.ActDecline, 0, 0)), one(act(monopoly.ActBuy, 0, 0))}
		if got := pl.evaluate(g.View(0), cs); got != 1 {
			t.Fatal("declined the street that completes its group")
		}
	})
	t.Run("not handing an opponent a monopoly for a utility", func(t *testing.T) {
		g := setup(t, [4]int{1500, 1500, 1500, 1500}, map[string]int{
			"New York Avenue": 0, "St. James Place": 1, "Tennessee Avenue": 1, "Electric Company": 1,
		}, 0, 1)
		o := monopoly.TradeOffer{To: 0, GiveSquares: 1 << square(t, "Electric Company"), GetSquares: 1 << square(t, "New York Avenue")}
		if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &o}); err != nil {
			t.Fatal(err)
		}
		pl := NewPlanner(PlanningParams(), 3)
		cs := []candidate{one(act(monopoly.ActAcceptTrade, 0, 0)), one(act(monopoly.ActRejectTrade, 0, 0))}
		if got := pl.evaluate(g.View(0), cs); got != 1 {
			t.Fatal("accepted a utility for the street that completes the proposer's oranges")
		}
		if a := pl.Decide(g.View(0), g.Pending()); a.Kind != monopoly.ActRejectTrade {
			t.Fatalf("answered %s", a.Kind)
		}
	})
}

// With the cash to build on it, the planner buys the street that
// completes its oranges from the opponent holding it, at a price that
// opponent (a baseline) accepts, and pays no more than it must.
func TestPlannerBuysTheMissingStreet(t *testing.T) {
	g := setup(t, [4]int{1500, 300, 1500, 1500}, map[string]int{
		"St. James Place": 0, "Tennessee Avenue": 0, "New York Avenue": 1,
	}, 0, 0)
	pl := NewPlanner(PlanningParams(), 5)
	a := pl.Decide(g.View(0), g.Pending())
	ny := uint64(1) << square(t, "New York Avenue")
	if a.Kind != monopoly.ActProposeTrade || a.Offer.GetSquares != ny || a.Offer.To != 1 {
		t.Fatalf("answered %s %+v, want a proposal for New York Avenue", a.Kind, a.Offer)
	}
	if err := g.Apply(a); err != nil {
		t.Fatal(err)
	}
	paid := 1500 - g.Cash(0)
	o := *a.Offer
	o.GiveCash--
	if pl.accepts(g.View(0), o) {
		t.Fatalf("paid %d where %d would have done", paid, o.GiveCash)
	}
	m := pl.sim.model
	if m.Decide(g.View(1), g.Pending()).Kind != monopoly.ActAcceptTrade {
		t.Fatal("the baseline refuses the offer")
	}
}
