package personality_test

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// No personality makes or accepts lopsided gifts. The judge is a neutral
// valuation written here, independent of the personalities' own: cash,
// printed prices, and the whole colour group's printed prices for a group
// completed or given up.

func paramSpec(t testing.TB, doc string) agent.ParamSpec {
	t.Helper()
	p, err := agent.ParseSeatParams("test", []byte("all:\n  "+strings.ReplaceAll(doc, "\n", "\n  ")))
	if err != nil {
		t.Fatal(err)
	}
	return p.All
}

// neutralGain is what offer o is worth to seat me (either side of it) at
// printed prices, and the value of the larger side (for scale). A sealed
// offer's cash is taken at the proposer's limit.
func neutralGain(g *monopoly.Game, me int, o monopoly.TradeOffer) (gain, scale int) {
	gain, received := neutralSides(g, me, o)
	return gain, max(received, received-gain)
}

func neutralSides(g *monopoly.Game, me int, o monopoly.TradeOffer) (gain, received int) {
	r := g.Rules()
	in, out, cashIn, cashOut := o.GetSquares, o.GiveSquares, o.GetCash, o.GiveCash
	other := int(o.To)
	if me == int(o.To) {
		in, out, cashIn, cashOut, other = out, in, cashOut, cashIn, int(o.From)
	}
	price := func(m uint64) int {
		total := 0
		for ; m != 0; m &= m - 1 {
			total += r.Squares[bits.TrailingZeros64(m)].Price
		}
		return total
	}
	// A mortgaged property is worth what is left once the mortgage is
	// lifted.
	worth := func(m uint64) int {
		total := price(m)
		for m &= g.MortgagedMask(); m != 0; m &= m - 1 {
			total -= r.UnmortgageCost(bits.TrailingZeros64(m))
		}
		return total
	}
	gain = int(cashIn-cashOut) + worth(in) - worth(out)
	received = int(cashIn) + worth(in)
	mine, theirs := g.OwnedMask(me), g.OwnedMask(other)
	mineAfter, theirsAfter := mine&^out|in, theirs&^in|out
	for _, gr := range r.Groups {
		gm, bonus := gr.Mask, price(gr.Mask)
		if mine&gm != gm && mineAfter&gm == gm {
			gain += bonus
			received += bonus
		}
		if mine&gm == gm && mineAfter&gm != gm {
			gain -= bonus
		}
		if theirs&gm != gm && theirsAfter&gm == gm {
			gain -= bonus
		}
	}
	// Railroads and utilities: each one held with others of its kind
	// earns a share of the set's printed prices, since their rent grows
	// with every one held.
	for _, kind := range []monopoly.SquareKind{monopoly.KindRailroad, monopoly.KindUtility} {
		var set uint64
		for _, sq := range r.OwnableSquares() {
			if r.Squares[sq].Kind == kind {
				set |= 1 << sq
			}
		}
		n := bits.OnesCount64(set)
		share := func(owned uint64) int {
			if k := bits.OnesCount64(owned & set); k > 1 && n > 1 {
				return price(set) * (k - 1) / (n - 1)
			}
			return 0
		}
		if d := share(mineAfter) - share(mine); d > 0 {
			gain += d
			received += d
		} else {
			gain += d
		}
	}
	return gain, received
}

// mild is the most a personality may lose on a trade by the neutral
// valuation: half the value of the larger side (at least of $150). A
// lopsided gift (a completed colour group for a utility: $150 for $760)
// is far beyond it; a Shark stretching to complete a group, a Hustler
// overpaying a little, a player short of cash selling cheap, are within.
func mild(scale int) int { return int(0.5 * math.Max(float64(scale), 150)) }

// giftPosition: seat 0 (the personality) owns New York Avenue, two light
// blues and Mediterranean Avenue; seat 1 owns the other two oranges,
// Connecticut Avenue (the light blue seat 0 lacks), Electric Company,
// Water Works, Reading Railroad and Baltic Avenue (seat 0's missing
// brown); seat 2 owns Boardwalk. Seat first is to move.
func giftPosition(t *testing.T, r *monopoly.Rules, first int) *monopoly.Game {
	t.Helper()
	setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1, First: first}
	for range 3 {
		setup.Players = append(setup.Players, monopoly.PlayerSetup{Cash: 1500})
	}
	for _, p := range []struct {
		name  string
		owner int
	}{
		{"New York Avenue", 0}, {"Oriental Avenue", 0}, {"Vermont Avenue", 0}, {"Mediterranean Avenue", 0},
		{"St. James Place", 1}, {"Tennessee Avenue", 1}, {"Connecticut Avenue", 1}, {"Electric Company", 1},
		{"Water Works", 1}, {"Reading Railroad", 1}, {"Baltic Avenue", 1},
		{"Boardwalk", 2},
	} {
		sq, ok := r.SquareIndex(p.name)
		if !ok {
			t.Fatal(p.name)
		}
		setup.Properties = append(setup.Properties, monopoly.PropertySetup{Square: sq, Owner: p.owner})
	}
	g, err := monopoly.NewFromSetup(r, setup)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func square(t *testing.T, r *monopoly.Rules, name string) uint64 {
	t.Helper()
	sq, ok := r.SquareIndex(name)
	if !ok {
		t.Fatal(name)
	}
	return 1 << sq
}

// Accept side: offers that would have a personality hand over the last
// orange (completing its partner's group) for a utility, its price, or
// both, are refused by all four, under both protocols; a price that pays
// for the group is accepted, so the refusals are judgement, not habit.
func TestNoLopsidedGiftsAccepted(t *testing.T) {
	open, sealed, counters := monopolytest.Rules(t, "max_rounds: 500"), monopolytest.Rules(t, "max_rounds: 500\ndeal_protocol: sealed"), monopolytest.Rules(t, "max_rounds: 500\ncounter_offers: 5")
	ny, elec := square(t, open, "New York Avenue"), square(t, open, "Electric Company")
	cases := []struct {
		name   string
		o      monopoly.TradeOffer
		accept bool
	}{
		{"the last orange for a utility", monopoly.TradeOffer{To: 0, GiveSquares: elec, GetSquares: ny}, false},
		{"the last orange for its price", monopoly.TradeOffer{To: 0, GiveCash: 200, GetSquares: ny}, false},
		{"the last orange for a utility and its price", monopoly.TradeOffer{To: 0, GiveSquares: elec, GiveCash: 200, GetSquares: ny}, false},
		{"the last orange for twice its group", monopoly.TradeOffer{To: 0, GiveCash: 1400, GetSquares: ny}, true},
	}
	for _, bot := range []string{"shark", "professor", "hustler", "turtle"} {
		for _, c := range cases {
			for _, r := range []*monopoly.Rules{open, sealed, counters} {
				g := giftPosition(t, r, 1)
				o := c.o
				if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &o}); err != nil {
					t.Fatal(err)
				}
				d := g.Pending()
				if d.Kind != monopoly.DecisionTradeResponse || d.Player != 0 {
					t.Fatalf("pending %+v", d)
				}
				a, _ := agent.New(bot, 0, 5)
				act := a.Decide(g.View(0), d)
				switch {
				case r == sealed:
					// It names its price without seeing the offer's cash:
					// for the orange, at least the group's worth beyond
					// what it is offered in kind.
					if act.Kind == monopoly.ActAcceptTrade && act.Arg < 560 {
						t.Errorf("%s, sealed, %s: asks only $%d", bot, c.name, act.Arg)
					}
				case act.Kind == monopoly.ActCounterTrade:
					if gain, recv := neutralGain(g, 0, *act.Offer); gain < -mild(recv) || c.accept {
						t.Errorf("%s, %s: counters with %+v (neutral gain %d)", bot, c.name, *act.Offer, gain)
					}
				case (act.Kind == monopoly.ActAcceptTrade) != c.accept:
					t.Errorf("%s, %s: %s", bot, c.name, act.Kind)
				}
			}
		}
	}
}

// Propose side: in the gift position, whatever each personality proposes
// (trading forced on, many seeds, both protocols) never gives its partner
// the last orange short of the group's worth, nor loses more than mildly
// by the neutral valuation.
func TestNoLopsidedGiftsProposed(t *testing.T) {
	spec := paramSpec(t, "trade_chance: 1")
	proposals := 0
	for _, doc := range []string{"max_rounds: 500", "max_rounds: 500\ndeal_protocol: sealed"} {
		r := monopolytest.Rules(t, doc)
		ny := square(t, r, "New York Avenue")
		for _, bot := range []string{"shark", "professor", "hustler", "turtle"} {
			for seed := range uint64(40) {
				g := giftPosition(t, r, 0)
				a, _ := agent.NewWith(bot, spec, 0, seed)
				act := a.Decide(g.View(0), g.Pending())
				if act.Kind != monopoly.ActProposeTrade {
					continue
				}
				proposals++
				o := *act.Offer
				o.From = 0
				gain, recv := neutralGain(g, 0, o)
				if gain < -mild(recv) {
					t.Errorf("%s (%q): proposes %s, neutral gain %d", bot, doc, r.DescribeOffer(o, nil), gain)
				}
				if o.GiveSquares&ny != 0 && int(o.GetCash) < 560 {
					t.Errorf("%s (%s): gives New York Avenue away: %s", bot, doc, r.DescribeOffer(o, nil))
				}
			}
		}
	}
	if proposals < 100 {
		t.Fatalf("only %d proposals in the gift position: the test would not see a gift", proposals)
	}
}

// The same holds in real games: every proposal and every acceptance by a
// personality, in 60 games of the four under each protocol, loses at most
// mildly by the neutral valuation.
func TestNoLopsidedGiftsInPlay(t *testing.T) {
	var proposed, accepted int
	for _, doc := range []string{"max_rounds: 500", "max_rounds: 500\ndeal_protocol: sealed", "max_rounds: 500\ncounter_offers: 5"} {
		r := monopolytest.Rules(t, doc)
		sealed := r.DealProtocol == monopoly.DealsSealed
		for i := range 60 {
			seed := arena.GameSeed(31, i)
			bots := []string{"shark", "professor", "hustler", "turtle"}
			g := monopoly.New(r, 4, seed)
			agents := make([]agent.Agent, 4)
			for s := range 4 {
				agents[s], _ = agent.New(bots[(s+i)%4], s, arena.SeatSeed(seed, s))
			}
			for !g.Over() {
				d := g.Pending()
				act := agents[d.Player].Decide(g.View(d.Player), d)
				bot := bots[(d.Player+i)%4]
				switch {
				case act.Kind == monopoly.ActProposeTrade || act.Kind == monopoly.ActCounterTrade:
					proposed++
					o := *act.Offer
					o.From = int8(d.Player)
					if gain, recv := neutralGain(g, d.Player, o); gain < -mild(recv) {
						t.Errorf("%s (%q): proposes %s, neutral gain %d", bot, doc, r.DescribeOffer(o, nil), gain)
					}
				case act.Kind == monopoly.ActAcceptTrade && !sealed:
					accepted++
					o := g.PendingOffer()
					if gain, recv := neutralGain(g, d.Player, o); gain < -mild(recv) {
						t.Errorf("%s (%q): accepts %s, neutral gain %d", bot, doc, r.DescribeOffer(o, nil), gain)
					}
				}
				if err := g.Apply(act); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if proposed < 1000 || accepted < 100 {
		t.Fatalf("%d proposals, %d acceptances: too few to judge", proposed, accepted)
	}
}
