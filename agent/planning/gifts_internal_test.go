package planning

import (
	"testing"

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
