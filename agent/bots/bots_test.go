package bots_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// Every answer of both bots is legal (arena.Play fails on an illegal one)
// and their games end: baseline games by bankruptcy, random ones at worst
// at the round limit.
func TestBotsPlayLegalGamesThatEnd(t *testing.T) {
	for _, c := range []struct {
		bots        []string
		deals       string
		minFinished float64
	}{
		{[]string{"baseline"}, "", 0.98},
		{[]string{"random"}, "", 0},
		{[]string{"baseline", "random", "baseline", "random"}, "", 0.9},
		{[]string{"baseline"}, "deal_protocol: sealed", 0.98},
		{[]string{"baseline", "random"}, "counter_offers: 5", 0.9},
		{[]string{"baseline"}, "trades_per_phase: 0", 0}, // no trades: few groups complete
		{[]string{"baseline"}, "trades_per_turn: 1", 0.98},
	} {
		cfg := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 500\n"+c.deals), Players: 4, Bots: c.bots, Seed: 11, Games: 200}
		res, err := arena.Simulate(context.Background(), cfg, nil)
		if err != nil {
			t.Fatalf("%v: %v", c.bots, err)
		}
		s := arena.Summarize(cfg, res)
		if got := float64(s.Finished) / float64(s.Games); got < c.minFinished {
			t.Errorf("%v: %.2f of games finished before the limit, want at least %.2f", c.bots, got, c.minFinished)
		}
	}
}

// Baseline beats random decisively: a bot that buys, builds and trades
// must win far more than its 25% share against players that do not.
func TestBaselineBeatsRandom(t *testing.T) {
	cfg := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 300"), Players: 4, Bots: []string{"baseline", "random", "random", "random"}, Seed: 5, Games: 300}
	res, err := arena.Simulate(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := arena.Summarize(cfg, res)
	if rate := s.ByBot["baseline"].Rate; rate < 0.6 {
		t.Fatalf("baseline won %.2f of its games against three random bots, want ≥ 0.6", rate)
	}
}

func TestSameSeedSameGame(t *testing.T) {
	cfg := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 500"), Players: 4, Bots: []string{"baseline", "random"}, Seed: 3, Games: 1}
	a, err := cfg.RunGame(7, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cfg.RunGame(7, nil)
	if a != b {
		t.Fatalf("same seed, different games: %+v vs %+v", a, b)
	}
	// A table reused after other games (as simulation workers do) plays
	// the same game: its game and players are reset, not carried over.
	var tb arena.Table
	for _, i := range []int{3, 11} {
		if _, err := cfg.RunGame(i, &tb); err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := cfg.RunGame(7, &tb); c != a {
		t.Fatalf("a reused table played another game: %+v vs %+v", c, a)
	}
}

// tradePosition is a 3-player game where seat 1 owns two of the three
// oranges and seat 0 the third, and seat 0 owns two light blues whose
// third is seat 1's.
func tradePosition(t *testing.T, doc string) *monopoly.Game {
	t.Helper()
	r := monopolytest.Rules(t, doc)
	sq := func(n string) int { i, _ := r.SquareIndex(n); return i }
	setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1}
	for range 3 {
		setup.Players = append(setup.Players, monopoly.PlayerSetup{Cash: 1500})
	}
	for _, p := range []struct {
		name  string
		owner int
	}{
		{"St. James Place", 1}, {"Tennessee Avenue", 1}, {"New York Avenue", 0},
		{"Oriental Avenue", 0}, {"Vermont Avenue", 0}, {"Connecticut Avenue", 1},
		{"Electric Company", 1},
	} {
		setup.Properties = append(setup.Properties, monopoly.PropertySetup{Square: sq(p.name), Owner: p.owner})
	}
	g, err := monopoly.NewFromSetup(r, setup)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// answer has seat 0's baseline answer an offer from seat 1, in a copy of
// g that it returns with the offer pending.
func answer(t *testing.T, g *monopoly.Game, o monopoly.TradeOffer) (monopoly.Action, *monopoly.Game) {
	t.Helper()
	return answerWith(t, g, o, bots.BaselineParams())
}

// answerWith is answer by a baseline with parameters p.
func answerWith(t *testing.T, g *monopoly.Game, o monopoly.TradeOffer, p agent.Params) (monopoly.Action, *monopoly.Game) {
	t.Helper()
	g = g.Clone()
	// Seat 0 is to move: pass to seat 1 so that it can propose.
	if err := g.Apply(monopoly.Action{Kind: monopoly.ActContinue, Player: 0}); err != nil {
		t.Fatal(err)
	}
	g.ScriptDice([][2]int{{1, 2}})
	for g.Pending().Player != 1 || g.Pending().Kind != monopoly.DecisionManage {
		d := g.Pending()
		a := monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}
		if d.Kind == monopoly.DecisionBuy {
			a.Kind = monopoly.ActDecline
		} else if d.Kind == monopoly.DecisionBid {
			a.Kind = monopoly.ActDropOut
		}
		if err := g.Apply(a); err != nil {
			t.Fatalf("%+v: %v", d, err)
		}
	}
	if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &o}); err != nil {
		t.Fatal(err)
	}
	d := g.Pending()
	if d.Kind != monopoly.DecisionTradeResponse || d.Player != 0 {
		t.Fatalf("pending %+v", d)
	}
	return bots.NewBaseline(p).Decide(g.View(0), d), g
}

// completing is what handing over the street that completes a rival's
// group costs a baseline at least, in a 3-player game with no round
// limit: the street's price, the rise of the rival's stake from a street
// short (held by another, worth.Share 0.2) to the whole group, and the
// street's rent for IncomeRounds rounds of two opponents, lost to it and
// half counted again as the rival's gain.
func completing(r *monopoly.Rules, sq int) int {
	rent := 1.5 * float64(2*worth.IncomeRounds) * worth.Of(r).Income(1<<sq)
	return r.Squares[sq].Price + int(math.Ceil(0.8*worth.Monopoly(r, r.Squares[sq].Group)+rent))
}

// The baseline refuses to hand over the last orange for a utility or its
// price, takes a price that pays for the rival's monopoly, and swaps it
// for the light blue completing its own group only with cash making up
// the difference between the two groups.
func TestBaselineRefusesLopsidedTrades(t *testing.T) {
	g := tradePosition(t, "")
	r := g.Rules()
	sq := func(n string) uint64 { i, _ := r.SquareIndex(n); return 1 << i }
	nyIdx, _ := r.SquareIndex("New York Avenue")
	ctIdx, _ := r.SquareIndex("Connecticut Avenue")
	ny := completing(r, nyIdx)
	// The swap: it gains Connecticut and its own light blues' rise from a
	// street short to whole (0.8 of their worth), and gives New York.
	swap := int64(ny - completing(r, ctIdx) + 1)
	if swap <= 0 || ny <= 200+560 {
		t.Fatalf("the oranges are worth no more than the light blues or their prices: %d, %d", ny, swap)
	}
	cases := []struct {
		name string
		o    monopoly.TradeOffer
		want monopoly.ActionKind
	}{
		{"completing their oranges for a utility", monopoly.TradeOffer{To: 0, GiveSquares: sq("Electric Company"), GetSquares: sq("New York Avenue")}, monopoly.ActRejectTrade},
		{"completing their oranges for its price", monopoly.TradeOffer{To: 0, GiveCash: 200, GetSquares: sq("New York Avenue")}, monopoly.ActRejectTrade},
		{"completing their oranges for the printed prices", monopoly.TradeOffer{To: 0, GiveCash: 200 + 560, GetSquares: sq("New York Avenue")}, monopoly.ActRejectTrade},
		{"completing their oranges for a compensating price", monopoly.TradeOffer{To: 0, GiveCash: int64(ny) + 100, GetSquares: sq("New York Avenue")}, monopoly.ActAcceptTrade},
		{"a swap completing both groups, balanced with cash", monopoly.TradeOffer{To: 0, GiveSquares: sq("Connecticut Avenue"), GiveCash: swap + 100, GetSquares: sq("New York Avenue")}, monopoly.ActAcceptTrade},
		{"a swap completing both groups, short of the balance", monopoly.TradeOffer{To: 0, GiveSquares: sq("Connecticut Avenue"), GiveCash: swap / 2, GetSquares: sq("New York Avenue")}, monopoly.ActRejectTrade},
		{"a swap completing both groups, unbalanced", monopoly.TradeOffer{To: 0, GiveSquares: sq("Connecticut Avenue"), GetSquares: sq("New York Avenue")}, monopoly.ActRejectTrade},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := answer(t, g, c.o); got.Kind != c.want {
				t.Fatalf("got %s, want %s", got.Kind, c.want)
			}
		})
	}
}

// Under sealed deals the baseline cannot see the cash, so it answers with
// a limit: for handing over the street that completes a rival's group it
// asks at least what it would take in the open (the street's price and
// the group's, less what it receives), whatever the proposer offered.
func TestBaselineSealedLimits(t *testing.T) {
	g := tradePosition(t, "deal_protocol: sealed")
	r := g.Rules()
	sq := func(n string) uint64 { i, _ := r.SquareIndex(n); return 1 << i }
	price := func(n string) int { i, _ := r.SquareIndex(n); return r.Squares[i].Price }
	orangeGroup := price("St. James Place") + price("Tennessee Avenue") + price("New York Avenue")
	cases := []struct {
		name  string
		o     monopoly.TradeOffer
		least int
	}{
		{"completing their oranges for a utility", monopoly.TradeOffer{To: 0, GiveSquares: sq("Electric Company"), GetSquares: sq("New York Avenue"), GiveCash: 1},
			price("New York Avenue") + orangeGroup - price("Electric Company")},
		{"completing their oranges for cash", monopoly.TradeOffer{To: 0, GetSquares: sq("New York Avenue"), GiveCash: 1400},
			price("New York Avenue") + orangeGroup},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, _ := answer(t, g, c.o)
			if a.Kind != monopoly.ActAcceptTrade || a.Arg < c.least {
				t.Fatalf("answered %s with limit %d, want acceptance asking at least %d", a.Kind, a.Arg, c.least)
			}
		})
	}
}

// When the rules allow counter-offers, the baseline answers an offer it
// would refuse with the same exchange at the price fair to itself, which
// a baseline proposer valuing the group alike accepts; an offer it would
// accept it accepts.
func TestBaselineCounterOffers(t *testing.T) {
	g := tradePosition(t, "counter_offers: 1")
	r := g.Rules()
	ny, _ := r.SquareIndex("New York Avenue")
	a, h := answer(t, g, monopoly.TradeOffer{To: 0, GiveCash: 200, GetSquares: 1 << ny})
	if a.Kind != monopoly.ActCounterTrade || a.Offer.GiveSquares != 1<<ny || a.Offer.GetSquares != 0 || a.Offer.GiveCash != 0 ||
		int(a.Offer.GetCash) < completing(r, ny) || float64(a.Offer.GetCash) < trade.CompletionFloor(r, ny) {
		t.Fatalf("answered %s %+v, want a counter-offer of New York Avenue for at least $%d", a.Kind, a.Offer, completing(r, ny))
	}
	price := a.Offer.GetCash
	if err := h.Apply(a); err != nil {
		t.Fatal(err)
	}
	d := h.Pending()
	if back := bots.NewBaseline(bots.BaselineParams()).Decide(h.View(1), d); d.Player != 1 || back.Kind != monopoly.ActAcceptTrade {
		t.Fatalf("the proposer answered the counter with %s", back.Kind)
	}
	if a, _ := answer(t, g, monopoly.TradeOffer{To: 0, GiveCash: price, GetSquares: 1 << ny}); a.Kind != monopoly.ActAcceptTrade {
		t.Fatalf("its own price offered, answered with %s", a.Kind)
	}
}

// railPosition is a 3-player game where seat 0 holds the four railroads.
func railPosition(t *testing.T, doc string) *monopoly.Game {
	t.Helper()
	var props []monopolytest.Owned
	for _, n := range []string{"Reading Railroad", "Pennsylvania Railroad", "B&O Railroad", "Short Line Railroad"} {
		props = append(props, monopolytest.Owned{Name: n, Owner: 0})
	}
	return monopolytest.Position(t, monopolytest.Rules(t, doc), 0, []int{1500, 6000, 1500}, props...)
}

// Selling one of its four railroads for a little more than its price
// would lose a third of the set's worth (trade.Fair, the judge, refuses
// it too), and for the price and a half it would still lose the rent the
// set earns: $200 a landing for four, $100 for three, over IncomeRounds
// rounds of two opponents. A price that pays for that rent is taken.
// Sealed, it names at least such a price; offered too little where
// counter-offers are allowed, it counters with one.
func TestBaselineNoRailroadGift(t *testing.T) {
	r := railPosition(t, "").Rules()
	reading := uint64(1) << monopolytest.Square(t, r, "Reading Railroad")
	judge := func(g *monopoly.Game, o monopoly.TradeOffer) bool {
		o.From = 1
		_, bad := monopolytest.Lopsided(g, 0, o)
		return bad
	}
	rails := railPosition(t, "").OwnedMask(0)
	tw := worth.Of(r)
	rent := float64(2*worth.IncomeRounds) * (tw.Income(rails) - tw.Income(rails&^reading))
	if rent < 1000 {
		t.Fatalf("the fourth railroad earns its set $%.0f over %d rounds", rent, worth.IncomeRounds)
	}
	for _, c := range []struct {
		cash     int64
		want     monopoly.ActionKind
		lopsided bool // to the judge
	}{{210, monopoly.ActRejectTrade, true}, {300, monopoly.ActRejectTrade, false}, {int64(200 + 1.5*rent), monopoly.ActAcceptTrade, false}} {
		o := monopoly.TradeOffer{To: 0, GiveCash: c.cash, GetSquares: reading}
		a, g := answer(t, railPosition(t, ""), o)
		if a.Kind != c.want {
			t.Errorf("$%d for Reading Railroad: %s, want %s", c.cash, a.Kind, c.want)
		}
		if lopsided := judge(g, o); lopsided != c.lopsided {
			t.Errorf("$%d for Reading Railroad: the judge finds it lopsided: %v; the test position is wrong", c.cash, lopsided)
		}
	}

	a, g := answer(t, railPosition(t, "deal_protocol: sealed"), monopoly.TradeOffer{To: 0, GiveCash: 1, GetSquares: reading})
	if o := (monopoly.TradeOffer{To: 0, GiveCash: int64(a.Arg), GetSquares: reading}); a.Kind != monopoly.ActAcceptTrade || judge(g, o) {
		t.Errorf("sealed: answered %s with limit $%d", a.Kind, a.Arg)
	}

	a, g = answer(t, railPosition(t, "counter_offers: 1"), monopoly.TradeOffer{To: 0, GiveCash: 100, GetSquares: reading})
	if a.Kind != monopoly.ActCounterTrade {
		t.Fatalf("$100 with counter-offers: answered %s", a.Kind)
	}
	if c := *a.Offer; c.GiveSquares != reading || c.GetCash <= 210 || judge(g, monopoly.TradeOffer{To: 0, GiveCash: c.GetCash, GetSquares: reading}) {
		t.Errorf("counters with %s", r.DescribeOffer(c, nil))
	}
}

// The baseline offers swaps that complete a group on each side, balanced
// with cash when what it gets is worth more; when what it gives is worth
// far more (Boardwalk, completing its partner's dark blues, for
// Mediterranean Avenue, completing its own browns) it offers cash for
// the street instead.
func TestBaselineNoLopsidedSwap(t *testing.T) {
	r := monopolytest.Rules(t, "")
	g := monopolytest.Position(t, r, 0, []int{1500, 1500, 1500},
		monopolytest.Owned{Name: "Baltic Avenue", Owner: 0}, monopolytest.Owned{Name: "Boardwalk", Owner: 0},
		monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 1}, monopolytest.Owned{Name: "Park Place", Owner: 1})
	a := bots.NewBaseline(bots.BaselineParams()).Decide(g.View(0), g.Pending())
	if a.Kind != monopoly.ActProposeTrade {
		t.Fatalf("answered %s, want a proposal", a.Kind)
	}
	var j monopolytest.Judge
	j.Check(t, g, a, "baseline")
	if boardwalk := uint64(1) << monopolytest.Square(t, r, "Boardwalk"); a.Offer.GiveSquares&boardwalk != 0 {
		t.Errorf("proposes %s", r.DescribeOffer(*a.Offer, nil))
	}
}

// Every trade the baseline and the cautious player propose, counter or
// accept in games among themselves, under each protocol, loses at most
// mildly by the neutral valuation.
func TestBaselineNoLopsidedGiftsInPlay(t *testing.T) {
	var j monopolytest.Judge
	for _, doc := range []string{"max_rounds: 500", "max_rounds: 500\ndeal_protocol: sealed", "max_rounds: 500\ncounter_offers: 5"} {
		r := monopolytest.Rules(t, doc)
		for i := range 150 {
			seed := arena.GameSeed(17, i)
			names := []string{"baseline", "cautious", "baseline", "cautious"}
			g := monopoly.New(r, 4, seed)
			agents := make([]agent.Agent, 4)
			for s := range 4 {
				agents[s], _ = agent.New(names[(s+i)%4], s, arena.SeatSeed(seed, s))
			}
			for !g.Over() {
				d := g.Pending()
				a := agents[d.Player].Decide(g.View(d.Player), d)
				j.Check(t, g, a, fmt.Sprintf("%s (%q), game %d", names[(d.Player+i)%4], doc, i))
				if err := g.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if j.Proposed < 1000 || j.Accepted < 500 {
		t.Fatalf("%d proposals, %d acceptances: too few to judge", j.Proposed, j.Accepted)
	}
}

// redPosition is a 3-player game, seat 0 with cash and the given streets,
// the other seats with $1,500, seat 0 to move.
func redPosition(t *testing.T, cash int, props ...monopolytest.Owned) *monopoly.Game {
	t.Helper()
	return monopolytest.Position(t, monopolytest.Rules(t, ""), 0, []int{cash, 1500, 1500}, props...)
}

// with returns the baseline's parameters changed by set.
func with(set func(*agent.Params)) agent.Params {
	p := bots.BaselineParams()
	set(&p)
	return p
}

// decide has a baseline with parameters p answer decision d of seat 0.
func decide(g *monopoly.Game, p agent.Params, d monopoly.Decision) monopoly.ActionKind {
	return bots.NewBaseline(p).Decide(g.View(0), d).Kind
}

// Knob tests: each knob moves the baseline's answer in the direction
// its documentation gives, from the default's answer on the same
// position.

// leastTaken is the least cash, up to seat 1's $1,500, that a baseline
// with parameters p takes from seat 1 for the squares sell of seat 0 (the
// answers are monotone in the cash); 1501 when it takes none.
func leastTaken(t *testing.T, g *monopoly.Game, sell uint64, p agent.Params) int64 {
	t.Helper()
	return 1 + int64(sort.Search(1500, func(i int) bool {
		a, _ := answerWith(t, g, monopoly.TradeOffer{To: 0, GiveCash: int64(i + 1), GetSquares: sell}, p)
		return a.Kind == monopoly.ActAcceptTrade
	}))
}

// mostPaid is the most cash, up to $1,499, that a baseline with
// parameters p pays seat 1 for the squares buy of seat 1; 0 when it pays
// nothing.
func mostPaid(t *testing.T, g *monopoly.Game, buy uint64, p agent.Params) int64 {
	t.Helper()
	return int64(sort.Search(g.Cash(0)-1, func(i int) bool {
		a, _ := answerWith(t, g, monopoly.TradeOffer{To: 0, GetCash: int64(i + 1), GiveSquares: buy}, p)
		return a.Kind != monopoly.ActAcceptTrade
	}))
}

// valuation_bias: valued above its price, a street is worth more at
// auction, in a trade, and when buying (down to less reserve); below its
// price, less.
func TestBaselineValuationBias(t *testing.T) {
	bias := func(x float64) agent.Params { return with(func(p *agent.Params) { p.ValuationBias = x }) }
	g := redPosition(t, 1500, monopolytest.Owned{Name: "Illinois Avenue", Owner: 0})
	r := g.Rules()
	atlantic := monopolytest.Square(t, r, "Atlantic Avenue") // $260, nobody's group
	limit := bots.NewBaseline(bias(0)).BidLimit(g.View(0), 0, atlantic)
	if limit < 260 {
		t.Fatalf("unbiased, bids only up to $%d for a $260 street", limit)
	}
	bid := monopoly.Decision{Kind: monopoly.DecisionBid, Player: 0, Square: atlantic, Amount: limit}
	if got := decide(g, bias(0), bid); got != monopoly.ActDropOut {
		t.Errorf("unbiased, at its limit of $%d for a $260 street: %s", limit, got)
	}
	if got := decide(g, bias(0.2), bid); got != monopoly.ActBid {
		t.Errorf("biased +0.2, at $%d for a $260 street: %s", limit, got)
	}

	for _, c := range []struct {
		cash int
		bias float64
		want monopoly.ActionKind
	}{
		{310, 0, monopoly.ActDecline}, // $50 left, under the $60 reserve
		{310, 0.2, monopoly.ActBuy},   // a street worth $312
		{400, 0, monopoly.ActBuy},     // $140 left
		{400, -0.5, monopoly.ActDecline},
		{250, 2, monopoly.ActDecline}, // worth $780, but it cannot pay
	} {
		g := redPosition(t, c.cash)
		buy := monopoly.Decision{Kind: monopoly.DecisionBuy, Player: 0, Square: atlantic, Amount: 260}
		if got := decide(g, bias(c.bias), buy); got != c.want {
			t.Errorf("bias %v, buying a $260 street with $%d: %s, want %s", c.bias, c.cash, got, c.want)
		}
	}

	illinois := uint64(1) << monopolytest.Square(t, r, "Illinois Avenue")
	least := leastTaken(t, g, illinois, bias(0))
	if least <= 240 || least > 1000 {
		t.Fatalf("unbiased, sells its $240 street for $%d", least)
	}
	if biased := leastTaken(t, g, illinois, bias(0.2)); biased <= least {
		t.Errorf("biased +0.2, sells its $240 street for $%d, unbiased for $%d", biased, least)
	}
}

// stretch_budget: a larger one pays more to complete a group, at auction
// and in a trade.
func TestBaselineStretchBudget(t *testing.T) {
	stretch := func(x float64) agent.Params { return with(func(p *agent.Params) { p.StretchBudget = x }) }
	g := redPosition(t, 3000, monopolytest.Owned{Name: "Indiana Avenue", Owner: 0}, monopolytest.Owned{Name: "Kentucky Avenue", Owner: 0},
		monopolytest.Owned{Name: "Illinois Avenue", Owner: 1})
	r := g.Rules()
	illinois := monopolytest.Square(t, r, "Illinois Avenue")
	// An auction for the last red ($240).
	g2 := redPosition(t, 1500, monopolytest.Owned{Name: "Indiana Avenue", Owner: 0}, monopolytest.Owned{Name: "Kentucky Avenue", Owner: 0})
	limit := bots.NewBaseline(stretch(1)).BidLimit(g2.View(0), 0, illinois)
	if limit < 2*240 {
		t.Fatalf("stretch 1, bids only up to $%d for the last red", limit)
	}
	bid := monopoly.Decision{Kind: monopoly.DecisionBid, Player: 0, Square: illinois, Amount: limit}
	if got := decide(g2, stretch(1), bid); got != monopoly.ActDropOut {
		t.Errorf("stretch 1, at its limit of $%d for the last red: %s", limit, got)
	}
	if got := decide(g2, stretch(1.5), bid); got != monopoly.ActBid {
		t.Errorf("stretch 1.5, at $%d for the last red: %s", limit, got)
	}
	// Bought in a trade: the street and the rise of its stake to the whole
	// group.
	most := mostPaid(t, g, 1<<illinois, stretch(1))
	if most < int64(completing(r, illinois))-1 {
		t.Fatalf("stretch 1 pays at most $%d for the last red, want at least $%d", most, completing(r, illinois)-1)
	}
	if more := mostPaid(t, g, 1<<illinois, stretch(1.5)); more <= most {
		t.Errorf("stretch 1.5 pays at most $%d for the last red, stretch 1 $%d", more, most)
	}
}

// property_weight: weighed against cash, property counts for more with a
// larger weight (it sells dearer) and for less with a smaller one (it
// buys cheaper). The yellow bought is no step to a group (a third player
// holds the others), so that its price and rent alone are at stake.
func TestBaselinePropertyWeight(t *testing.T) {
	weight := func(x float64) agent.Params { return with(func(p *agent.Params) { p.PropertyWeight = x }) }
	g := redPosition(t, 1500, monopolytest.Owned{Name: "Illinois Avenue", Owner: 0}, monopolytest.Owned{Name: "Atlantic Avenue", Owner: 1},
		monopolytest.Owned{Name: "Ventnor Avenue", Owner: 2}, monopolytest.Owned{Name: "Marvin Gardens", Owner: 2})
	r := g.Rules()
	illinois := uint64(1) << monopolytest.Square(t, r, "Illinois Avenue")
	atlantic := uint64(1) << monopolytest.Square(t, r, "Atlantic Avenue")
	least := leastTaken(t, g, illinois, weight(1))
	if dearer := leastTaken(t, g, illinois, weight(1.5)); dearer <= least {
		t.Errorf("weight 1.5 sells its $240 street for $%d, weight 1 for $%d", dearer, least)
	}
	most := mostPaid(t, g, atlantic, weight(1))
	if most < 260 {
		t.Fatalf("weight 1 pays at most $%d for a $260 street", most)
	}
	if cheaper := mostPaid(t, g, atlantic, weight(0.5)); cheaper >= most {
		t.Errorf("weight 0.5 pays at most $%d for a $260 street, weight 1 $%d", cheaper, most)
	}
}

// The registry makes every bot it lists.
func TestRegistry(t *testing.T) {
	for _, n := range agent.Names() {
		if _, err := agent.New(n, 0, 1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := agent.New("no-such-bot", 0, 1); err == nil {
		t.Fatal("unknown bot accepted")
	}
}

// group_rounds: counting a group's rent over the game still to play, the
// baseline asks far more for the street that completes a rival's group
// (here the browns, whose three houses do not repay themselves in 36
// opponent turns but do over a long game), and pays more for its own last
// street, unless paying would leave it too little cash to build on it.
func TestBaselineGroupRounds(t *testing.T) {
	long := with(func(p *agent.Params) { p.GroupRounds = 100 })
	g := redPosition(t, 1500, monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 0}, monopolytest.Owned{Name: "Baltic Avenue", Owner: 1})
	med := uint64(1) << monopolytest.Square(t, g.Rules(), "Mediterranean Avenue")
	short, longer := leastTaken(t, g, med, bots.BaselineParams()), leastTaken(t, g, med, long)
	if longer < 3*short {
		t.Errorf("sells the last brown for $%d counting 100 rounds, for $%d by default", longer, short)
	}

	r := g.Rules()
	illinois := uint64(1) << monopolytest.Square(t, r, "Illinois Avenue")
	reds := []monopolytest.Owned{{Name: "Indiana Avenue", Owner: 0}, {Name: "Kentucky Avenue", Owner: 0}, {Name: "Illinois Avenue", Owner: 1}}
	rich, poor := redPosition(t, 3000, reds...), redPosition(t, 1400, reds...)
	if a, b := mostPaid(t, rich, illinois, long), mostPaid(t, rich, illinois, bots.BaselineParams()); a <= b {
		t.Errorf("with $3,000, pays $%d for the last red counting 100 rounds, $%d by default", a, b)
	}
	if a, b := mostPaid(t, poor, illinois, long), mostPaid(t, poor, illinois, bots.BaselineParams()); a >= b {
		t.Errorf("with $1,400, pays $%d for the last red counting 100 rounds, $%d by default", a, b)
	}
}

// The baseline keeps the cash to buy the last street of a group when it
// lands there (bots.Pending): holding Park Place with Boardwalk still
// with the bank, it passes over a street that neither completes nor
// blocks a group rather than fall under $400, bids for one only down to
// that, and buys Boardwalk with its last dollar. Once Boardwalk is
// another's, or it holds no street of the group, it buys as before.
func TestBaselinePendingStreet(t *testing.T) {
	p := bots.BaselineParams()
	park := monopolytest.Owned{Name: "Park Place", Owner: 0}
	r := redPosition(t, 0).Rules()
	atlantic := monopolytest.Square(t, r, "Atlantic Avenue") // $260, nobody's group
	boardwalk := monopolytest.Square(t, r, "Boardwalk")
	buy := func(sq, price int) monopoly.Decision {
		return monopoly.Decision{Kind: monopoly.DecisionBuy, Player: 0, Square: sq, Amount: price}
	}
	for _, c := range []struct {
		name string
		g    *monopoly.Game
		d    monopoly.Decision
		want monopoly.ActionKind
	}{
		{"Atlantic, $600, Boardwalk with the bank", redPosition(t, 600, park), buy(atlantic, 260), monopoly.ActDecline},
		{"Atlantic, $660, Boardwalk with the bank", redPosition(t, 660, park), buy(atlantic, 260), monopoly.ActBuy},
		{"Atlantic, $600, Boardwalk seat 1's", redPosition(t, 600, park, monopolytest.Owned{Name: "Boardwalk", Owner: 1}), buy(atlantic, 260), monopoly.ActBuy},
		{"Atlantic, $600, no dark blue", redPosition(t, 600), buy(atlantic, 260), monopoly.ActBuy},
		{"Boardwalk, $400", redPosition(t, 400, park), buy(boardwalk, 400), monopoly.ActBuy},
	} {
		if got := decide(c.g, p, c.d); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := bots.Pending(redPosition(t, 600, park).View(0), 0); got != 400 {
		t.Errorf("Pending with Park Place and Boardwalk with the bank: $%d, want $400", got)
	}
	g := redPosition(t, 600, park)
	if limit := bots.NewBaseline(p).BidLimit(g.View(0), 0, atlantic); limit > 600-400 {
		t.Errorf("bids up to $%d for Atlantic Avenue with $600, keeping less than Boardwalk's $400", limit)
	}
	free := redPosition(t, 600)
	if limit := bots.NewBaseline(p).BidLimit(free.View(0), 0, atlantic); limit <= 600-400 {
		t.Errorf("with no street pending, bids only up to $%d for Atlantic Avenue with $600", limit)
	}
}

// Under raise_to_buy the baseline counts what it could raise as its
// budget: it mortgages to buy a street, keeping the streets of the
// bought one's group unmortgaged, and buys any street that leaves its
// reserve on that count; its bids reach what it could raise.
func TestBaselineRaiseToBuy(t *testing.T) {
	r := monopolytest.Rules(t, "raise_to_buy: true")
	sq := func(name string) int { return monopolytest.Square(t, r, name) }
	connecticut, oriental, vermont, reading := sq("Connecticut Avenue"), sq("Oriental Avenue"), sq("Vermont Avenue"), sq("Reading Railroad")
	own := func(name string, p int) monopolytest.Owned { return monopolytest.Owned{Name: name, Owner: p} }
	for _, c := range []struct {
		name      string
		props     []monopolytest.Owned
		buys      bool  // Connecticut Avenue, on landing or at auction
		mortgaged []int // after the turn
	}{
		{"completes its light blues", []monopolytest.Owned{own("Oriental Avenue", 0), own("Vermont Avenue", 0), own("Reading Railroad", 0)}, true, []int{reading}},
		{"blocks seat 1's light blues", []monopolytest.Owned{own("Oriental Avenue", 1), own("Vermont Avenue", 1), own("Reading Railroad", 0), own("Boardwalk", 0)}, true, []int{reading}},
		{"neither", []monopolytest.Owned{own("Oriental Avenue", 0), own("Reading Railroad", 0)}, true, []int{reading}},
		{"neither, leaving less than its reserve", []monopolytest.Owned{own("Oriental Avenue", 0), own("Mediterranean Avenue", 0), own("Vermont Avenue", 1)}, false, nil},
	} {
		g := monopolytest.Position(t, r, 0, []int{50, 100}, c.props...)
		g.ScriptDice([][2]int{{4, 5}}) // to Connecticut Avenue, $120
		b := []*bots.Baseline{bots.NewBaseline(bots.BaselineParams()), bots.NewBaseline(bots.BaselineParams())}
		for g.Current() == 0 && !(g.Pending().Kind == monopoly.DecisionManage && g.Phase() == monopoly.PhaseAfterRoll) {
			d := g.Pending()
			if err := g.Apply(b[d.Player].Decide(g.View(d.Player), d)); err != nil {
				t.Fatalf("%s: %s: %v", c.name, d.Kind, err)
			}
		}
		if got := g.Owner(connecticut); (got == 0) != c.buys {
			t.Errorf("%s: Connecticut Avenue's owner is %d; seat 0 buys it: %v", c.name, got, c.buys)
		}
		for _, s := range []int{reading, oriental, vermont} {
			if want := slices.Contains(c.mortgaged, s); g.Mortgaged(s) != want {
				t.Errorf("%s: %s mortgaged %v, want %v", c.name, r.Squares[s].Name, g.Mortgaged(s), want)
			}
		}
	}
	// At auction: a street that completes its group, with $50 and $150 of
	// mortgages to raise, it bids beyond its cash.
	g := monopolytest.Position(t, r, 0, []int{50, 100}, own("Oriental Avenue", 0), own("Vermont Avenue", 0), own("Reading Railroad", 0))
	if limit := bots.NewBaseline(bots.BaselineParams()).BidLimit(g.View(0), 0, connecticut); limit <= 50 {
		t.Errorf("bids only up to $%d for the street completing its group, with $250 it could raise", limit)
	}
}

// Near the round limit a property is worth what the limit's count makes
// of it: under Monopyly's count (resale) a street counts half its price,
// and the baseline sells a lone street for less than its price that it
// would not sell in a game without a limit, nor under the printed count
// (which counts it at its price).
func TestBaselineSellsToTheCount(t *testing.T) {
	for _, c := range []struct {
		rules string
		sells bool
	}{
		{"deal_protocol: sealed\nnet_worth: resale", false},
		{"deal_protocol: sealed\nnet_worth: resale\nmax_rounds: 500", false},
		{"deal_protocol: sealed\nnet_worth: resale\nmax_rounds: 3", true},
		{"deal_protocol: sealed\nmax_rounds: 3", false},
	} {
		r := monopolytest.Rules(t, c.rules)
		kentucky := monopolytest.Square(t, r, "Kentucky Avenue")
		price := r.Squares[kentucky].Price
		g := monopolytest.Position(t, r, 0, []int{1500, 1500, 1500},
			monopolytest.Owned{Name: "Kentucky Avenue", Owner: 0}, monopolytest.Owned{Name: "Baltic Avenue", Owner: 1})
		offer := price * 3 / 4
		a, _ := answer(t, g, monopoly.TradeOffer{To: 0, GetSquares: 1 << kentucky, GiveCash: 1})
		sells := a.Kind == monopoly.ActAcceptTrade && a.Arg <= offer
		if sells != c.sells {
			t.Errorf("%q: answered %s with limit $%d to an offer of $%d for Kentucky Avenue ($%d); sells: %v, want %v",
				c.rules, a.Kind, a.Arg, offer, price, sells, c.sells)
		}
	}
}
