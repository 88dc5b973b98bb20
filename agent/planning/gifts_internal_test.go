package planning

import (
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// The trade candidates a planner plays out are never lopsided gifts: a
// street that completes an opponent's colour group is offered to it, and
// sold to raise cash, only at a price near the group's worth, never for
// what an opponent short of cash can pay (in play, rollouts took such
// sales now and then: Connecticut Avenue for $4, Illinois Avenue for
// $138). With the buyer rich, the same sale is a candidate, so the test
// sees the candidates it judges.
func TestTradeCandidatesNoGifts(t *testing.T) {
	for _, c := range []struct {
		name   string
		street string
		buyer  map[string]int // seat 1's streets of the group
		poor   int            // seat 1's cash when poor: the most a baseline pays is what it has above its $50 reserve
		sales  bool           // raising cash (sales) rather than before its roll (proposals)
	}{
		{"light blue before its roll", "Connecticut Avenue", map[string]int{"Oriental Avenue": 1, "Vermont Avenue": 1}, 54, false},
		{"red raising cash", "Illinois Avenue", map[string]int{"Indiana Avenue": 1, "Kentucky Avenue": 1}, 188, true},
	} {
		for _, rich := range []bool{false, true} {
			owners := map[string]int{c.street: 0}
			for name, o := range c.buyer {
				owners[name] = o
			}
			cash := [4]int{1500, c.poor, 100, 100} // the others too poor to outbid seat 1
			if rich {
				cash[1] = 1500
			}
			g := setup(t, cash, owners, 0, 0)
			for _, pl := range []*Planner{NewPlanner(PlanningParams(), 1), NewAdaptive(AdaptiveParams(), 1)} {
				v := g.View(0)
				var cs []candidate
				if c.sales {
					cs = pl.sales(v, 0, nil)
				} else {
					cs = pl.proposals(v, 0, nil)
				}
				var j monopolytest.Judge
				sold := false
				for _, cand := range cs {
					a := cand.acts[0]
					a.Offer = &cand.offer
					j.Check(t, g, a, c.name)
					sold = sold || cand.offer.To == 1 && cand.offer.GiveSquares == 1<<square(t, c.street)
				}
				if rich && !sold {
					t.Errorf("%s, the buyer rich: no candidate sells %s to seat 1 (%d candidates)", c.name, c.street, len(cs))
				}
				if !rich && sold {
					t.Errorf("%s, the buyer poor: a candidate sells %s to seat 1", c.name, c.street)
				}
			}
		}
	}
}

// The planner never accepts a lopsided gift, whatever its rollouts say:
// $4 for the street that completes the light blues of a proposer short of
// cash, to whom rollouts over a short horizon give little weight.
func TestPlannerRefusesGifts(t *testing.T) {
	g := setup(t, [4]int{1500, 60, 1500, 1500}, map[string]int{
		"Connecticut Avenue": 0, "Oriental Avenue": 1, "Vermont Avenue": 1,
	}, 0, 1)
	o := monopoly.TradeOffer{To: 0, GiveCash: 4, GetSquares: 1 << square(t, "Connecticut Avenue")}
	if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &o}); err != nil {
		t.Fatal(err)
	}
	d := g.Pending()
	if d.Kind != monopoly.DecisionTradeResponse || d.Player != 0 {
		t.Fatalf("pending %+v", d)
	}
	p := PlanningParams()
	p.Rollouts = 4
	for seed := range uint64(40) {
		for _, pl := range []*Planner{NewPlanner(p, seed), NewAdaptive(p, seed)} {
			if a := pl.Decide(g.View(0), d); a.Kind == monopoly.ActAcceptTrade {
				t.Fatalf("seed %d: accepts %s", seed, g.Rules().DescribeOffer(o, nil))
			}
		}
	}
}

// The planner offers a street that completes an opponent's group only at
// a price its own valuation takes. A fresh planner sells Connecticut
// Avenue to the holder of the other light blues; once NoSaleOffers
// proposals have been made to it and none of its own taken, its
// valuation counts a rival's group over the long game and asks more than
// the buyer pays, and the sale is no longer a candidate, though its
// rollouts, which see the cash at once and a few rounds of the group's
// rent, might take it (against the contest AIs they did, and lost the
// games).
func TestPlannerSellsOnlyAtItsPrice(t *testing.T) {
	owners := map[string]int{"Connecticut Avenue": 0, "Oriental Avenue": 1, "Vermont Avenue": 1}
	cash := [4]int{1500, 1500, 100, 100}
	conn := uint64(1) << square(t, "Connecticut Avenue")
	r := monopolytest.Rules(t, "trades_per_phase: 5") // room for seat 2's proposals in one turn
	sale := func(pl *Planner) (monopoly.TradeOffer, bool) {
		g := setupWith(t, r, cash, owners, 0, 0)
		for _, c := range pl.proposals(g.View(0), 0, nil) {
			if c.offer.To == 1 && c.offer.GiveSquares == conn {
				return c.offer, true
			}
		}
		return monopoly.TradeOffer{}, false
	}
	for _, mk := range []func() *Planner{
		func() *Planner { return NewPlanner(PlanningParams(), 1) },
		func() *Planner { return NewAdaptive(AdaptiveParams(), 1) },
	} {
		o, ok := sale(mk())
		if !ok {
			t.Fatal("a fresh planner does not offer Connecticut Avenue to seat 1")
		}
		pl := mk()
		// Seat 2 asks it NoSaleOffers times for Connecticut Avenue at $1.
		h := setupWith(t, r, cash, owners, 0, 2)
		for i := range bots.NoSaleOffers {
			ask := monopoly.TradeOffer{To: 0, GiveCash: 1, GetSquares: conn}
			if err := h.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 2, Offer: &ask}); err != nil {
				t.Fatalf("proposal %d: %v", i, err)
			}
			a := pl.Decide(h.View(0), h.Pending())
			if a.Kind != monopoly.ActRejectTrade {
				t.Fatalf("proposal %d: answers %s to $1 for Connecticut Avenue", i, a.Kind)
			}
			if err := h.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		g := setupWith(t, r, cash, owners, 0, 0)
		if pl.base.Takes(g.View(0), 0, o) {
			t.Fatalf("asked %d times, it still takes $%d for Connecticut Avenue: the test proves nothing", bots.NoSaleOffers, o.GetCash)
		}
		if o, ok := sale(pl); ok {
			t.Errorf("asked %d times, it offers Connecticut Avenue to seat 1 for $%d, under its own price", bots.NoSaleOffers, o.GetCash)
		}
	}
}
