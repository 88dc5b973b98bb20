package monopolytest

import (
	"math"
	"math/bits"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// The judge of the tests that no bot makes lopsided gifts: a neutral
// valuation written here, independent of the bots' own, so that a bug
// in theirs cannot hide in the judge.

// NeutralGain is what offer o is worth to seat me (either side of it) at
// printed prices, a colour group completed or broken at GroupWorth, and
// the value of the larger side (for scale). A sealed offer's cash is taken
// at the proposer's limit.
func NeutralGain(g *monopoly.Game, me int, o monopoly.TradeOffer) (gain, scale int) {
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
	for gi, gr := range r.Groups {
		gm, bonus := gr.Mask, GroupWorth(r, gi)
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

// GroupWorth is what owning colour group gi whole is worth to the judge:
// its printed prices, or if more what its streets earn at three houses
// over 36 opponent turns less the houses, every square taken to be
// landed on equally often (1/40 of the rolls, 1.19 rolls a turn). The
// bots measure landing frequencies instead (package worth); the judge's
// cruder estimate keeps it independent of theirs.
func GroupWorth(r *monopoly.Rules, gi int) int {
	g := &r.Groups[gi]
	prices, rent := 0, 0
	for _, sq := range g.Squares {
		prices += r.Squares[sq].Price
		if rt := r.Squares[sq].Rent; len(rt) > 3 {
			rent += rt[3]
		}
	}
	earned := float64(rent)/float64(len(r.Squares))*1.19*36 - float64(3*len(g.Squares)*g.HouseCost)
	return max(prices, int(earned))
}

// MildLoss is the most a bot may lose on a trade by the neutral
// valuation: half the value of the larger side (at least of $150). A
// lopsided gift (a completed colour group for a utility: $150 for $760)
// is far beyond it; a Shark stretching to complete a group, a Hustler
// overpaying a little, a player short of cash selling cheap, are within.
func MildLoss(scale int) int { return int(0.5 * math.Max(float64(scale), 150)) }

// Lopsided reports whether offer o loses seat me more than MildLoss by
// NeutralGain, and what it gains.
func Lopsided(g *monopoly.Game, me int, o monopoly.TradeOffer) (gain int, lopsided bool) {
	gain, scale := NeutralGain(g, me, o)
	return gain, gain < -MildLoss(scale)
}

// Judge checks the trades players make as they make them.
type Judge struct {
	Proposed, Accepted int // trades judged: proposals and counter-offers, acceptances
}

// Check judges action a, about to be applied to g by its player: a trade
// proposed, countered or accepted must not be Lopsided for that player,
// or tb fails naming who. A sealed acceptance is judged at the limit it
// names, the worst price at which the deal can settle for it.
func (j *Judge) Check(tb testing.TB, g *monopoly.Game, a monopoly.Action, who string) {
	tb.Helper()
	var o monopoly.TradeOffer
	switch a.Kind {
	case monopoly.ActProposeTrade, monopoly.ActCounterTrade:
		j.Proposed++
		o = *a.Offer
		o.From = int8(a.Player)
	case monopoly.ActAcceptTrade:
		j.Accepted++
		o = g.PendingOffer()
		if g.Rules().DealProtocol == monopoly.DealsSealed {
			o.GiveCash, o.GetCash = int64(max(a.Arg, 0)), int64(max(-a.Arg, 0))
		}
	default:
		return
	}
	if gain, bad := Lopsided(g, a.Player, o); bad {
		tb.Errorf("%s: %s %s, neutral gain %d", who, a.Kind, g.Rules().DescribeOffer(o, nil), gain)
	}
}
