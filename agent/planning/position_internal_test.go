package planning

import (
	"maps"
	"slices"
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// setup builds a four-player position: cash per seat, owners of named
// squares, where seat 0 stands, and who moves first.
func setup(t *testing.T, cash [4]int, owners map[string]int, pos0, first int) *monopoly.Game {
	t.Helper()
	return setupWith(t, monopoly.DefaultRules(), cash, owners, pos0, first)
}

// setupWith is setup under rules r.
func setupWith(t *testing.T, r *monopoly.Rules, cash [4]int, owners map[string]int, pos0, first int) *monopoly.Game {
	t.Helper()
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
		// With $300 it cannot outbid the others at the auction a
		// refusal starts.
		g := setup(t, [4]int{300, 1500, 1500, 1500}, map[string]int{
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
		p := PlanningParams()
		p.Rollouts = 256 // the difference is a few points of win rate
		pl := NewPlanner(p, 3)
		cs := []candidate{one(act(monopoly.ActAcceptTrade, 0, 0)), one(act(monopoly.ActRejectTrade, 0, 0))}
		if got := pl.evaluate(g.View(0), cs); got != 1 {
			t.Fatal("accepted a utility for the street that completes the proposer's oranges")
		}
		if a := pl.Decide(g.View(0), g.Pending()); a.Kind != monopoly.ActRejectTrade {
			t.Fatalf("answered %s", a.Kind)
		}
	})
}

// With $2,500 the planner buys the street that completes its oranges from
// the opponent holding it, at a price that opponent accepts (about $1,470:
// the street, the group it completes and the rent it no longer earns),
// and pays no more than it must. The
// rollouts play to the end: 20 rounds (the default horizon) show little
// of what a monopoly bought now is worth.
func TestPlannerBuysTheMissingStreet(t *testing.T) {
	g := setup(t, [4]int{2500, 300, 1500, 1500}, map[string]int{
		"St. James Place": 0, "Tennessee Avenue": 0, "New York Avenue": 1,
	}, 0, 0)
	p := PlanningParams()
	p.Rollouts, p.Horizon = 128, 0
	pl := NewPlanner(p, 5)
	a := pl.Decide(g.View(0), g.Pending())
	ny := uint64(1) << square(t, "New York Avenue")
	if a.Kind != monopoly.ActProposeTrade || a.Offer.GetSquares != ny || a.Offer.To != 1 {
		t.Fatalf("answered %s %+v, want a proposal for New York Avenue", a.Kind, a.Offer)
	}
	o := *a.Offer
	o.GiveCash--
	if pl.accepts(g.View(0), o) {
		t.Fatalf("offered %d where %d would have done", a.Offer.GiveCash, o.GiveCash)
	}
	if err := g.Apply(a); err != nil {
		t.Fatal(err)
	}
	if pl.sim.model.Decide(g.View(1), g.Pending()).Kind != monopoly.ActAcceptTrade {
		t.Fatal("the baseline refuses the offer")
	}
}

// landOn moves seat 0 (its turn, standing on from) to the named square
// with scripted dice, where it is offered the property.
func landOn(t *testing.T, g *monopoly.Game, from, to string) monopoly.Decision {
	t.Helper()
	steps := square(t, to) - square(t, from)
	g.ScriptDice([][2]int{{steps / 2, steps - steps/2}})
	if err := g.Apply(act(monopoly.ActContinue, 0, 0)); err != nil {
		t.Fatal(err)
	}
	d := g.Pending()
	if d.Kind != monopoly.DecisionBuy || d.Square != square(t, to) {
		t.Fatalf("pending %+v", d)
	}
	return d
}

// The adaptive player rolls out only what matters: a property that
// completes a group, not one that does not; and with little cash it
// answers the rest as the cautious player would.
func TestAdaptivePlansWhatMatters(t *testing.T) {
	cases := []struct {
		name      string
		cash      int
		owners    map[string]int
		tightCash int
		planned   bool
		want      monopoly.ActionKind
	}{
		{"a street nobody needs, with cash", 1500, nil, 200, false, monopoly.ActBuy},
		{"a street nobody needs, cash tight: cautious declines", 450, nil, 500, false, monopoly.ActDecline},
		{"the same, not tight: the baseline buys", 450, nil, 0, false, monopoly.ActBuy},
		// Rollouts decide this (buying or winning the auction that
		// follows are close): any answer.
		{"the last red of its group", 1500, map[string]int{"Kentucky Avenue": 0, "Indiana Avenue": 0}, 200, true, monopoly.ActNone},
		// No gambit on a rival's last street: nothing to weigh.
		{"the last red of an opponent's group", 1500, map[string]int{"Kentucky Avenue": 1, "Indiana Avenue": 1}, 200, false, monopoly.ActBuy},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := setup(t, [4]int{c.cash, 1500, 1500, 1500}, c.owners, square(t, "Free Parking"), 0)
			d := landOn(t, g, "Free Parking", "Illinois Avenue")
			p := AdaptiveParams()
			p.TightCash = c.tightCash
			pl := NewAdaptive(p, 1)
			a := pl.Decide(g.View(0), d)
			if planned := pl.Stats().Planned > 0; planned != c.planned {
				t.Errorf("planned: %v, want %v", planned, c.planned)
			}
			if c.want != monopoly.ActNone && a.Kind != c.want {
				t.Errorf("answered %s, want %s", a.Kind, c.want)
			}
		})
	}
}

// A manage decision with nothing to build, lift or trade costs no
// rollout.
func TestNothingToDoNoRollouts(t *testing.T) {
	g := setup(t, [4]int{1500, 1500, 1500, 1500}, map[string]int{"Baltic Avenue": 0, "Reading Railroad": 1}, 0, 0)
	for _, pl := range []*Planner{NewPlanner(PlanningParams(), 1), NewAdaptive(AdaptiveParams(), 1)} {
		if a := pl.Decide(g.View(0), g.Pending()); a.Kind != monopoly.ActContinue {
			t.Fatalf("answered %s", a.Kind)
		}
		if s := pl.Stats(); s.Rollouts != 0 || s.Planned != 0 {
			t.Fatalf("%+v for a position with nothing to do", s)
		}
	}
}

// Under sealed deals the planner's limit is the least that meets the
// baseline's own: the trade goes through, at that price, and a dollar
// less would fail.
func TestSealedProposal(t *testing.T) {
	r := monopolytest.Rules(t, "deal_protocol: sealed")
	g := setupWith(t, r, [4]int{2000, 300, 1500, 1500}, map[string]int{
		"St. James Place": 0, "Tennessee Avenue": 0, "New York Avenue": 1,
	}, 0, 0)
	pl := NewPlanner(PlanningParams(), 5)
	ny := uint64(1) << square(t, "New York Avenue")
	var a monopoly.Action
	for _, c := range pl.proposals(g.View(0), 0, nil) {
		if c.offer.GetSquares == ny && c.offer.GiveSquares == 0 {
			a = c.acts[0]
			a.Offer = &c.offer
		}
	}
	if a.Offer == nil || a.Offer.GetCash != 0 || a.Offer.GiveCash == 0 {
		t.Fatalf("no offer of cash for New York Avenue with a sealed limit: %+v", a.Offer)
	}
	o := *a.Offer
	o.GiveCash--
	if pl.accepts(g.View(0), o) {
		t.Fatalf("a limit of %d would have done", o.GiveCash)
	}
	if err := g.Apply(a); err != nil {
		t.Fatal(err)
	}
	if v := g.View(1); v.PendingOffer().GiveCash != 0 {
		t.Fatal("the target sees the limit")
	}
	if err := g.Apply(pl.sim.model.Decide(g.View(1), g.Pending())); err != nil {
		t.Fatal(err)
	}
	if g.OwnedMask(0)&ny == 0 {
		t.Fatal("the limits did not meet")
	}
	if paid := 2000 - g.Cash(0); paid != int(a.Offer.GiveCash) {
		t.Fatalf("paid %d with a limit of %d: the limit is above the seller's", paid, a.Offer.GiveCash)
	}
}

// noteAnswers tells pl how its proposals went: each asked seat 1 for
// Vermont Avenue, and seat 0 holding it in the game after is a yes.
func noteAnswers(t *testing.T, pl *Planner, answers ...*monopoly.Game) {
	t.Helper()
	for _, a := range answers {
		pl.offer = monopoly.TradeOffer{From: 0, To: 1, GetSquares: 1 << square(t, "Vermont Avenue")}
		pl.noteAnswer(a.View(0), 0)
	}
}

// The planner's own proposals count as the baseline's do: once NoSale of
// them are refused and none accepted, it values a group as one among
// players who do not sell, and bids more for the street that completes
// its browns.
func TestPlannerNoticesRefusals(t *testing.T) {
	cash := [4]int{1500, 1500, 1500, 1500}
	refused := setup(t, cash, map[string]int{"Mediterranean Avenue": 0, "Vermont Avenue": 1}, 0, 0)
	accepted := setup(t, cash, map[string]int{"Mediterranean Avenue": 0, "Vermont Avenue": 0}, 0, 0)
	v := refused.View(0)
	limit := func(answers ...*monopoly.Game) int {
		pl := NewPlanner(PlanningParams(), 1)
		noteAnswers(t, pl, answers...)
		return pl.base.BidLimit(v, 0, square(t, "Baltic Avenue"))
	}
	noes := slices.Repeat([]*monopoly.Game{refused}, bots.NoSale)
	fresh, spurned, traded := limit(), limit(noes...), limit(append(noes, accepted)...)
	if spurned <= fresh {
		t.Errorf("bids up to $%d for the last brown after %d refused proposals, $%d at first", spurned, bots.NoSale, fresh)
	}
	if traded != fresh {
		t.Errorf("bids up to $%d with a proposal accepted, want $%d as at first", traded, fresh)
	}
}

// The planner's gambits, declining a street its baseline would buy and
// bidding under the baseline's limit, end with the first of its
// proposals refused while none is taken (GambitRefusals), and come back
// once one is taken. With $1,500 at the start of a game it lets Park
// Place go to auction, its rollouts expecting to get it later, at the
// auction or from players who sell.
func TestPlannerDropsGambits(t *testing.T) {
	refused := setup(t, [4]int{1500, 1500, 1500, 1500}, map[string]int{"Vermont Avenue": 1}, square(t, "Pacific Avenue"), 0)
	accepted := setup(t, [4]int{1500, 1500, 1500, 1500}, map[string]int{"Vermont Avenue": 0}, square(t, "Pacific Avenue"), 0)
	planner := func(answers ...*monopoly.Game) *Planner {
		p := PlanningParams()
		p.Rollouts = 256 // declining is ahead by a few points
		pl := NewPlanner(p, 1)
		noteAnswers(t, pl, answers...)
		return pl
	}
	g := setup(t, [4]int{1500, 1500, 1500, 1500}, nil, square(t, "Pacific Avenue"), 0)
	g.ScriptDice([][2]int{{2, 4}}) // to Park Place, not doubles
	if err := g.Apply(act(monopoly.ActContinue, 0, 0)); err != nil {
		t.Fatal(err)
	}
	d := g.Pending()
	if d.Kind != monopoly.DecisionBuy || d.Square != square(t, "Park Place") {
		t.Fatalf("pending %+v", d)
	}
	cases := []struct {
		name    string
		answers []*monopoly.Game
		want    monopoly.ActionKind
		planned bool
	}{
		{"at first", nil, monopoly.ActDecline, true},
		{"after a refusal", []*monopoly.Game{refused}, monopoly.ActBuy, false},
		{"after a refusal and a trade", []*monopoly.Game{refused, accepted}, monopoly.ActDecline, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pl := planner(c.answers...)
			if a := pl.Decide(g.View(0), d); a.Kind != c.want {
				t.Errorf("answered %s, want %s", a.Kind, c.want)
			}
			if planned := pl.Stats().Planned > 0; planned != c.planned {
				t.Errorf("planned: %v, want %v", planned, c.planned)
			}
		})
	}
	if err := g.Apply(act(monopoly.ActDecline, 0, 0)); err != nil {
		t.Fatal(err)
	}
	for d := g.Pending(); d.Kind == monopoly.DecisionBid && d.Player != 0; d = g.Pending() {
		if err := g.Apply(monopoly.Action{Kind: monopoly.ActDropOut, Player: d.Player}); err != nil {
			t.Fatal(err)
		}
	}
	d = g.Pending()
	if d.Kind != monopoly.DecisionBid {
		t.Fatalf("pending %+v", d)
	}
	// At the auction the baseline's limit is above every multiple of the
	// price the planner weighs: without its gambits it weighs none.
	if limit, price := NewPlanner(PlanningParams(), 1).base.BidLimit(g.View(0), 0, d.Square), g.Rules().Squares[d.Square].Price; limit <= 2*price {
		t.Fatalf("the baseline bids up to $%d for a $%d street: the position no longer tests what it says", limit, price)
	}
	for _, c := range cases {
		pl := planner(c.answers...)
		pl.Decide(g.View(0), d)
		if planned := pl.Stats().Planned > 0; planned != c.planned {
			t.Errorf("%s: planned the auction: %v, want %v", c.name, planned, c.planned)
		}
		if limit := pl.base.BidLimit(g.View(0), 0, d.Square); !c.planned && pl.bidLimit != limit {
			t.Errorf("%s: bids up to $%d, want the baseline's $%d", c.name, pl.bidLimit, limit)
		}
	}
}

// No gambit on a street that would complete a rival's group: with
// Boardwalk's holder at the table the planner that lets an unclaimed Park
// Place go to auction (TestPlannerDropsGambits) buys it, and bids at
// least the baseline's limit for it. Under Monopyly's rules (the rival
// may mortgage to pay) and under the standard ones alike.
func TestPlannerNeverGambitsABlock(t *testing.T) {
	for _, doc := range []string{"", "raise_to_buy: true\nmax_rounds: 500\nnet_worth: resale"} {
		r := monopolytest.Rules(t, doc)
		g := setupWith(t, r, [4]int{1500, 1500, 1500, 1500}, map[string]int{"Boardwalk": 1}, square(t, "Pacific Avenue"), 0)
		g.ScriptDice([][2]int{{2, 4}})
		if err := g.Apply(act(monopoly.ActContinue, 0, 0)); err != nil {
			t.Fatal(err)
		}
		d := g.Pending()
		if d.Kind != monopoly.DecisionBuy || d.Square != square(t, "Park Place") {
			t.Fatalf("pending %+v", d)
		}
		p := PlanningParams()
		p.Rollouts = 256
		for _, pl := range []*Planner{NewPlanner(p, 1), NewAdaptive(AdaptiveParams(), 1)} {
			if !pl.gambits(g.View(0), 0, square(t, "Boardwalk")) {
				t.Fatal("the planner starts without its gambits: the position no longer tests what it says")
			}
			if a := pl.Decide(g.View(0), d); a.Kind != monopoly.ActBuy {
				t.Errorf("%q: answered %s to Park Place with Boardwalk held by a rival, want %s", doc, a.Kind, monopoly.ActBuy)
			}
		}
		a := g.Clone()
		if err := a.Apply(act(monopoly.ActDecline, 0, 0)); err != nil {
			t.Fatal(err)
		}
		for d := a.Pending(); d.Kind == monopoly.DecisionBid && d.Player != 0; d = a.Pending() {
			if err := a.Apply(monopoly.Action{Kind: monopoly.ActDropOut, Player: d.Player}); err != nil {
				t.Fatal(err)
			}
		}
		if d = a.Pending(); d.Kind != monopoly.DecisionBid {
			t.Fatalf("pending %+v", d)
		}
		pl := NewPlanner(p, 1)
		pl.Decide(a.View(0), d)
		if limit := pl.base.BidLimit(a.View(0), 0, d.Square); pl.bidLimit < limit {
			t.Errorf("%q: bids up to $%d for Park Place with Boardwalk held by a rival, under the baseline's $%d", doc, pl.bidLimit, limit)
		}
	}
}

// A player that refuses SwapRefusals swaps of a kind (giving it a
// colour group or not, paying cash on top or not) and takes none is
// offered no more of that kind: a swap it would have paid on top of is
// offered without the cash. Refusals of cash alone do not count, and one
// swap taken brings its kind back.
func TestPlannerStopsOfferingRefusedSwaps(t *testing.T) {
	cash := [4]int{2500, 300, 1500, 1500}
	held := func(ny, baltic int) map[string]int {
		return map[string]int{
			"St. James Place": 0, "Tennessee Avenue": 0, "Reading Railroad": 0,
			"New York Avenue": ny, "Baltic Avenue": baltic, "Mediterranean Avenue": 1,
		}
	}
	refused := setup(t, cash, held(1, 0), 0, 0)
	accepted := setup(t, cash, held(0, 1), 0, 0) // New York Avenue for the Baltic
	v := refused.View(0)
	ny := uint64(1) << square(t, "New York Avenue")
	med := uint64(1) << square(t, "Mediterranean Avenue")
	baltic := uint64(1) << square(t, "Baltic Avenue") // completes seat 1's browns
	reading := uint64(1) << square(t, "Reading Railroad")
	// offers lists the planner's candidates asking seat 1 for get, by
	// what they give: the cash seat 1 pays on top, or -1 for none.
	offers := func(pl *Planner, get uint64) map[uint64]int64 {
		n := map[uint64]int64{0: -1, baltic: -1, reading: -1}
		for _, c := range pl.proposals(v, 0, nil) {
			if c.offer.To == 1 && c.offer.GetSquares == get {
				n[c.offer.GiveSquares] = c.offer.GetCash
			}
		}
		return n
	}
	answer := func(pl *Planner, o monopoly.TradeOffer, after *monopoly.Game, times int) {
		for range times {
			pl.offer = o
			pl.noteAnswer(after.View(0), 0)
		}
		pl.refusedAt = [monopoly.MaxSquares]int{} // asked again at once
	}
	swap := func(give, get uint64, paid int64) monopoly.TradeOffer {
		return monopoly.TradeOffer{From: 0, To: 1, GiveSquares: give, GetSquares: get, GetCash: paid}
	}
	check := func(pl *Planner, when string, get uint64, want map[uint64]int64) {
		t.Helper()
		if got := offers(pl, get); !maps.Equal(got, want) {
			t.Errorf("%s: cash paid on top of each offer (by the square given, -1 none) %v, want %v", when, got, want)
		}
	}
	t.Run("whether it gives a group", func(t *testing.T) {
		pl := NewPlanner(PlanningParams(), 1)
		first := offers(pl, ny)
		if first[0] < 0 || first[baltic] < 0 || first[reading] < 0 {
			t.Fatalf("at first offers for New York Avenue %v, want cash alone and both swaps", first)
		}
		answer(pl, monopoly.TradeOffer{From: 0, To: 1, GetSquares: ny, GiveCash: 300}, refused, 2*SwapRefusals)
		check(pl, "cash alone refused", ny, first)
		answer(pl, swap(baltic, ny, 0), refused, SwapRefusals)
		check(pl, "swaps giving a group refused", ny, map[uint64]int64{0: first[0], baltic: -1, reading: first[reading]})
		answer(pl, swap(reading, ny, 0), refused, SwapRefusals)
		check(pl, "every swap refused", ny, map[uint64]int64{0: first[0], baltic: -1, reading: -1})
		answer(pl, swap(baltic, ny, 0), accepted, 1)
		check(pl, "a swap giving a group taken", ny, map[uint64]int64{0: first[0], baltic: first[baltic], reading: -1})
	})
	t.Run("whether it pays on top", func(t *testing.T) {
		pl := NewPlanner(PlanningParams(), 1)
		first := offers(pl, med)
		paid := first[reading]
		if paid <= 0 {
			t.Fatalf("at first offers for Mediterranean Avenue %v, want Reading Railroad and cash for it", first)
		}
		answer(pl, swap(reading, med, paid), refused, SwapRefusals)
		check(pl, "swaps paid on top refused", med, map[uint64]int64{0: first[0], baltic: -1, reading: 0})
		answer(pl, swap(reading, med, 0), refused, SwapRefusals)
		check(pl, "the swap without the cash refused", med, map[uint64]int64{0: first[0], baltic: -1, reading: -1})
	})
}
