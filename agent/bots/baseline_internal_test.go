package bots

import (
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// The baseline's memos only save work: at every decision of many games,
// a copy of the player with its memos forgotten answers exactly as the
// player itself does; with its defaults, and with the valuation knobs
// moved.
func TestBaselineMemosChangeNoAnswer(t *testing.T) {
	knobs := BaselineParams()
	knobs.ValuationBias, knobs.StretchBudget, knobs.PropertyWeight, knobs.FirstGroupRounds = 0.3, 1.5, 0.8, 100
	for _, p := range []agent.Params{BaselineParams(), knobs} {
		checkMemos(t, p, "max_rounds: 500") // some games between baselines with the knobs moved never end
	}
	// Near the round limit a property's rent to come shrinks every round
	// (worth.IncomeTurns), and with it what the player asks and offers.
	checkMemos(t, BaselineParams(), "max_rounds: 60")
}

func checkMemos(t *testing.T, params agent.Params, doc string) {
	t.Helper()
	r := monopolytest.Rules(t, doc)
	decisions := 0
	for seed := range uint64(300) {
		g := monopoly.New(r, 4, seed)
		var players [4]*Baseline
		for i := range players {
			players[i] = NewBaseline(params)
		}
		for !g.Over() {
			p := g.Decider()
			v, d := g.View(p), g.Pending()
			fresh := *players[p]
			fresh.forget(r)
			want := fresh.Decide(v, d)
			got := players[p].Decide(v, d)
			if got.Kind != want.Kind || got.Arg != want.Arg || (got.Offer == nil) != (want.Offer == nil) ||
				got.Offer != nil && *got.Offer != *want.Offer {
				t.Fatalf("%+v: game %d, turn %d, %s for player %d: answered %s %d, without memos %s %d",
					params, seed, g.Turn(), d.Kind, p, got.Kind, got.Arg, want.Kind, want.Arg)
			}
			if err := g.Apply(got); err != nil {
				t.Fatal(err)
			}
			decisions++
		}
	}
	if decisions < 100_000 {
		t.Fatalf("only %d decisions checked", decisions)
	}
}

// A baseline whose proposals have all been refused (NoSale of them) takes
// the game for one among players who do not sell: like group_rounds, it
// asks several times more for the last brown of a rival's group. One
// proposal accepted, and it values as before.
func TestBaselineNoSale(t *testing.T) {
	r := monopolytest.Rules(t, "")
	g := monopolytest.Position(t, r, 0, []int{1500, 1500, 1500},
		monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 0}, monopolytest.Owned{Name: "Baltic Avenue", Owner: 1})
	o := monopoly.TradeOffer{From: 1, To: 0, GetSquares: 1 << monopolytest.Square(t, r, "Mediterranean Avenue")}
	asks := func(refused, accepted int) int {
		b := NewBaseline(BaselineParams())
		b.refused, b.accepted = refused, accepted
		return b.leastCash(g.View(0), 0, o)
	}
	fresh, spurned, traded := asks(0, 0), asks(NoSale, 0), asks(NoSale, 1)
	if spurned < 3*fresh {
		t.Errorf("asks $%d for the last brown after %d refusals, $%d at first", spurned, NoSale, fresh)
	}
	if traded != fresh || asks(NoSale-1, 0) != fresh {
		t.Errorf("asks $%d with a proposal accepted, $%d after %d refusals, want $%d as at first", traded, asks(NoSale-1, 0), NoSale-1, fresh)
	}
}

// With first_group_rounds, the first group of a game is not sold for a
// utility: with no group of its own, the player asks cash to swap its
// last brown for the utility that completes its pair (by default it pays
// $450 for the swap: it counts the browns over the Horizon, where they
// earn less than their houses cost, and the utilities' rent over a
// hundred rounds), and several times more for the brown alone than with
// the oranges of its own, where it asks what it did by default.
func TestBaselineFirstGroupRounds(t *testing.T) {
	r := monopolytest.Rules(t, "")
	owned := []monopolytest.Owned{
		{Name: "Mediterranean Avenue", Owner: 0}, {Name: "Electric Company", Owner: 0},
		{Name: "Baltic Avenue", Owner: 1}, {Name: "Water Works", Owner: 1},
	}
	oranges := append(owned[:len(owned):len(owned)], monopolytest.Owned{Name: "St. James Place", Owner: 0},
		monopolytest.Owned{Name: "Tennessee Avenue", Owner: 0}, monopolytest.Owned{Name: "New York Avenue", Owner: 0})
	cash := []int{1500, 1500, 1500, 1500}
	bare, grouped := monopolytest.Position(t, r, 0, cash, owned...), monopolytest.Position(t, r, 0, cash, oranges...)
	sq := func(name string) uint64 { return 1 << monopolytest.Square(t, r, name) }
	swap := monopoly.TradeOffer{From: 1, To: 0, GetSquares: sq("Mediterranean Avenue"), GiveSquares: sq("Water Works")}
	sale := monopoly.TradeOffer{From: 1, To: 0, GetSquares: sq("Mediterranean Avenue")}
	asks := func(rounds int, g *monopoly.Game, o monopoly.TradeOffer) int {
		p := BaselineParams()
		p.FirstGroupRounds = rounds
		return NewBaseline(p).leastCash(g.View(0), 0, o)
	}
	if got := asks(100, bare, swap); got <= 0 {
		t.Errorf("takes $%d for its last brown and the utility that completes its pair: it gives the only group away", got)
	}
	if first, second := asks(100, bare, sale), asks(100, grouped, sale); first < 3*second {
		t.Errorf("asks $%d for the last brown with no group of its own, $%d holding the oranges: want at least 3 times as much", first, second)
	}
	if got, want := asks(100, grouped, sale), asks(0, grouped, sale); got != want {
		t.Errorf("asks $%d for the last brown holding the oranges, $%d by default: want the same", got, want)
	}
}

// A baseline to which NoSaleOffers proposals were made, none of its own
// taken, counts a rival's group over the long game: it asks several
// times more for the last brown of a rival's group, as after NoSale
// refusals, while what it bids for the street that completes its own
// group stays as it was. With one of its proposals accepted, or an offer
// fewer, it values as at first, until TraderOffers proposals were made to
// it.
func TestBaselineOffered(t *testing.T) {
	r := monopolytest.Rules(t, "")
	g := monopolytest.Position(t, r, 0, []int{1500, 1500, 1500},
		monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 0}, monopolytest.Owned{Name: "Baltic Avenue", Owner: 1},
		monopolytest.Owned{Name: "Oriental Avenue", Owner: 0}, monopolytest.Owned{Name: "Vermont Avenue", Owner: 0})
	o := monopoly.TradeOffer{From: 1, To: 0, GetSquares: 1 << monopolytest.Square(t, r, "Mediterranean Avenue")}
	last := monopolytest.Square(t, r, "Connecticut Avenue")
	with := func(offered, accepted int) *Baseline {
		b := NewBaseline(BaselineParams())
		b.offered, b.accepted = offered, accepted
		return b
	}
	fresh, fished, traded := with(0, 0), with(NoSaleOffers, 0), with(NoSaleOffers, 1)
	v := g.View(0)
	if asks, first := fished.leastCash(v, 0, o), fresh.leastCash(v, 0, o); asks < 3*first {
		t.Errorf("asks $%d for the last brown after %d offers, $%d at first", asks, NoSaleOffers, first)
	}
	if asks, first := traded.leastCash(v, 0, o), fresh.leastCash(v, 0, o); asks != first {
		t.Errorf("asks $%d for the last brown with a proposal accepted, want $%d as at first", asks, first)
	}
	if asks, first := with(NoSaleOffers-1, 0).leastCash(v, 0, o), fresh.leastCash(v, 0, o); asks != first {
		t.Errorf("asks $%d for the last brown after %d offers, want $%d as at first", asks, NoSaleOffers-1, first)
	}
	if asks, first := with(TraderOffers-1, 1).leastCash(v, 0, o), fresh.leastCash(v, 0, o); asks != first {
		t.Errorf("asks $%d for the last brown after %d offers with a proposal accepted, want $%d as at first", asks, TraderOffers-1, first)
	}
	if asks, none := with(TraderOffers, 1).leastCash(v, 0, o), fished.leastCash(v, 0, o); asks != none {
		t.Errorf("asks $%d for the last brown after %d offers with a proposal accepted, want $%d as with none accepted", asks, TraderOffers, none)
	}
	if bid, first := fished.BidLimit(v, 0, last), fresh.BidLimit(v, 0, last); bid != first {
		t.Errorf("bids up to $%d for the street that completes its light blues after %d offers, $%d at first", bid, NoSaleOffers, first)
	}
}

// The baseline counts every proposal and counter-offer made to it once,
// however often it is asked about it (a replay asks again, and a planner
// tells both of its baselines): against three exploiters, which propose
// often, its count equals the proposals to it in the game's events.
func TestBaselineCountsOffers(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 200")
	total := 0
	for seed := range uint64(40) {
		g := monopoly.New(r, 4, seed)
		g.Record(true)
		me := NewBaseline(BaselineParams())
		players := []agent.Agent{me, NewExploiter(BaselineParams(), false), NewExploiter(BaselineParams(), false), NewExploiter(BaselineParams(), false)}
		made := 0
		for !g.Over() {
			p := g.Decider()
			v, d := g.View(p), g.Pending()
			if p == 0 && d.Kind == monopoly.DecisionTradeResponse {
				me.Decide(v, d) // asked twice
			}
			if err := g.Apply(players[p].Decide(v, d)); err != nil {
				t.Fatal(err)
			}
			for _, e := range g.TakeEvents() {
				if e.Kind == monopoly.EvTradeProposed && e.Other == 0 {
					made++
				}
			}
		}
		if me.offered != made {
			t.Errorf("game %d: counted %d proposals made to it, the events show %d", seed, me.offered, made)
		}
		total += made
	}
	if total < 100 {
		t.Fatalf("only %d proposals made to the baseline in 40 games", total)
	}
}

// In a swap that completes a colour group for each side, the side with the
// cash to build first gains most: a player with $100 asks a rich partner
// far more for giving it the oranges against the reds than a player with
// $1,500 asks a poor one, who is paid for the same swap. (What it asks
// is cash the partner no longer builds with: over $500, not the $1,000
// that pricing the swap with no cash paid asked.)
func TestBaselineSwapBuildFirst(t *testing.T) {
	r := monopolytest.Rules(t, "")
	ask := func(mine, theirs int) int {
		g := monopolytest.Position(t, r, 0, []int{mine, theirs, 1500},
			monopolytest.Owned{Name: "Kentucky Avenue", Owner: 0}, monopolytest.Owned{Name: "Indiana Avenue", Owner: 0},
			monopolytest.Owned{Name: "St. James Place", Owner: 0},
			monopolytest.Owned{Name: "Tennessee Avenue", Owner: 1}, monopolytest.Owned{Name: "New York Avenue", Owner: 1},
			monopolytest.Owned{Name: "Illinois Avenue", Owner: 1})
		o := monopoly.TradeOffer{From: 1, To: 0, GiveSquares: 1 << monopolytest.Square(t, r, "Illinois Avenue"),
			GetSquares: 1 << monopolytest.Square(t, r, "St. James Place")}
		return NewBaseline(BaselineParams()).leastCash(g.View(0), 0, o)
	}
	poor, rich := ask(100, 1500), ask(1500, 100)
	if poor < 500 || poor-rich < 1000 {
		t.Errorf("asks $%d for the swap with $100 against $1,500, $%d with $1,500 against $100: want over $500, and $1,000 more than with the cash", poor, rich)
	}
	if rich > 0 {
		t.Errorf("asks $%d for the swap with $1,500 against $100: want to pay for it", rich)
	}
}

// A sealed limit is a price the seat would take: in a swap that completes
// a colour group for each side, what it pays is cash it no longer has for
// houses and cash the partner builds with, so the limit priced with no
// cash paid was more than the swap is worth once paid: contest AIs that
// proposed such swaps were paid the houses they won with.
func TestBaselineSealedSwapLimitIsTaken(t *testing.T) {
	r := monopolytest.Rules(t, "")
	for _, cash := range [][2]int{{1000, 300}, {1500, 100}, {600, 600}, {300, 1000}} {
		g := monopolytest.Position(t, r, 0, []int{cash[0], cash[1], 1500},
			monopolytest.Owned{Name: "Park Place", Owner: 0}, monopolytest.Owned{Name: "New York Avenue", Owner: 0},
			monopolytest.Owned{Name: "Boardwalk", Owner: 1}, monopolytest.Owned{Name: "St. James Place", Owner: 1},
			monopolytest.Owned{Name: "Tennessee Avenue", Owner: 1})
		o := monopoly.TradeOffer{From: 1, To: 0, GiveSquares: 1 << monopolytest.Square(t, r, "Boardwalk"),
			GetSquares: 1 << monopolytest.Square(t, r, "New York Avenue")}
		b := NewBaseline(BaselineParams())
		v := g.View(0)
		least := b.leastCash(v, 0, o)
		if at := withNet(o, 0, least); b.tradeGain(v, 0, at) < -roundingSlack {
			t.Errorf("cash $%d against $%d: its limit, %+d, makes a swap worth %.0f to it", cash[0], cash[1], least, b.tradeGain(v, 0, at))
		}
		if at := withNet(o, 0, least-1); float64(least-1) >= trade.FairFloor(v, 0, o) && b.tradeGain(v, 0, at) >= 0 {
			t.Errorf("cash $%d against $%d: its limit, %+d, is not the least it takes: %+d is worth %.0f to it", cash[0], cash[1], least, least-1, b.tradeGain(v, 0, at))
		}
	}
}
