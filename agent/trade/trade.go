// Package trade values trade offers and holds the one judgement every bot
// applies before it proposes, counters or accepts a trade: Fair, which
// bounds what a side may lose by a neutral valuation (cash, printed
// prices, and for a colour group completed or given up what it earns
// developed, worth.Monopoly, never less than its printed prices). Each bot trades by its own taste; Fair is what stops any of
// them, whatever its taste, noise or shortage of cash, making a lopsided
// gift such as a completed colour group for a utility.
package trade

import (
	"math/bits"

	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
)

// Valuer prices the properties of a trade.
type Valuer struct {
	Worth   *[monopoly.MaxSquares]float64 // nil: printed prices
	Stretch float64                       // the weight of completing one's own colour group
	Weight  float64                       // property against cash
	// Cash is what a dollar is worth (0 counts as 1): a player short of
	// cash may value it above its face, one whose cash lies idle below.
	Cash float64
	// Fear, when set, may price a rival completing a colour group above
	// its printed prices (never below them).
	Fear Fear
}

// Fear prices a rival's colour group.
type Fear interface {
	// Threat is what a rival completing the street group mask would cost,
	// the rival holding budget in cash once the trade is done (what its
	// houses are built with).
	Threat(r *monopoly.Rules, mask uint64, budget float64) float64
}

// Neutral is the valuation a player should expect of any partner, and
// the one Fair judges by.
var Neutral = Valuer{Stretch: 1, Weight: 1, Cash: 1}

// Of is what val makes sq worth on its own.
func (val Valuer) Of(r *monopoly.Rules, sq int) float64 {
	if val.Worth == nil {
		return float64(r.Squares[sq].Price)
	}
	return val.Worth[sq]
}

// groupValue is what owning all of a group adds: its members' worth, and
// for a colour group no less than what it earns developed.
func (val Valuer) groupValue(t *worth.Table, mask uint64) float64 {
	r := t.Rules()
	total := 0.0
	for m := mask; m != 0; m &= m - 1 {
		total += val.Of(r, bits.TrailingZeros64(m))
	}
	if s := &r.Squares[bits.TrailingZeros64(mask)]; s.Kind == monopoly.KindStreet {
		total = max(total, t.Monopoly(s.Group))
	}
	return total
}

// setShare is how much of a set's premium holding the squares of owned
// in set mask earns: railroads and utilities, whose rent grows with every
// one held, earn it a step at a time, from nothing for one to all of it
// for the whole set.
func setShare(owned, mask uint64) float64 {
	k, n := bits.OnesCount64(owned&mask), bits.OnesCount64(mask)
	if k <= 1 || n <= 1 {
		return 0
	}
	return float64(k-1) / float64(n-1)
}

// threat is what a rival completing group mask costs: never less than its
// neutral worth or val's worth of the group, more if val fears it more.
func (val Valuer) threat(tb *worth.Table, mask uint64, budget float64) float64 {
	r := tb.Rules()
	t := max(val.groupValue(tb, mask), Neutral.groupValue(tb, mask))
	if val.Fear != nil && r.Squares[bits.TrailingZeros64(mask)].Kind == monopoly.KindStreet {
		t = max(t, val.Fear.Threat(r, mask, budget))
	}
	return t
}

// JailCardValue is what a Get Out of Jail Free card is worth in a trade.
const JailCardValue = 50

// Value is what offer o is worth under val to seat me, its proposer or
// its target: the gain, and the value of everything it gives up (against
// which margins are measured).
func (val Valuer) Value(v monopoly.View, me int, o monopoly.TradeOffer) (gain, given float64) {
	r := v.Rules()
	from, to := int(o.From), int(o.To)
	in, out := o.GetSquares, o.GiveSquares
	cashIn, cashOut := o.GetCash, o.GiveCash
	cardsIn, cardsOut := o.GetCards, o.GiveCards
	other := to
	if me == to {
		in, out, cashIn, cashOut, cardsIn, cardsOut = out, in, cashOut, cashIn, cardsOut, cardsIn
		other = from
	}
	cw := val.Cash
	if cw == 0 {
		cw = 1
	}
	gain = cw * float64(cashIn-cashOut)
	given = cw * float64(cashOut)
	for m := in; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		w := val.Of(r, sq)
		if v.Mortgaged(sq) {
			w -= float64(r.UnmortgageCost(sq) + r.TransferFee(sq))
		}
		gain += val.Weight * w
	}
	for m := out; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		w := val.Of(r, sq)
		if v.Mortgaged(sq) {
			w -= float64(r.UnmortgageCost(sq))
		}
		gain -= val.Weight * w
		given += val.Weight * w
	}
	cards := float64(JailCardValue * (bits.OnesCount8(cardsIn) - bits.OnesCount8(cardsOut)))
	gain += cards
	given += float64(JailCardValue * bits.OnesCount8(cardsOut))

	mine, theirs := v.OwnedMask(me), v.OwnedMask(other)
	mineAfter, theirsAfter := mine&^out|in, theirs&^in|out
	tb := worth.Of(r)
	var seen uint64
	for m := in | out; m != 0; m &= m - 1 {
		gm := r.GroupMask(bits.TrailingZeros64(m))
		if gm == 0 || seen&gm != 0 {
			continue
		}
		seen |= gm
		bonus := val.groupValue(tb, gm)
		if r.Squares[bits.TrailingZeros64(gm)].Kind != monopoly.KindStreet {
			bonus = Neutral.groupValue(tb, gm) // a taste for railroads is in their worth, not twice
			if d := setShare(mineAfter, gm) - setShare(mine, gm); d > 0 {
				gain += val.Stretch * d * bonus
			} else {
				gain += d * bonus
				given -= d * bonus
			}
			// A rival's growing set is not charged to the seller: its
			// rent rises gradually, and charging both shares would price
			// every railroad twice.
			continue
		}
		switch {
		case mine&gm != gm && mineAfter&gm == gm:
			gain += val.Stretch * bonus
		case mine&gm == gm && mineAfter&gm != gm:
			gain -= bonus
			given += bonus
		}
		if theirs&gm != gm && theirsAfter&gm == gm {
			t := val.threat(tb, gm, float64(v.Cash(other)-int(cashIn)+int(cashOut)))
			gain -= t
			given += t
		}
	}
	return gain, given
}

// MaxLoss bounds every trade a bot makes or accepts, whatever its taste:
// by the neutral valuation it never loses more than this share of the
// larger side (or of $150). Taste, a stretch for a group, generosity,
// rollout noise and a shortage of cash all move prices, but a lopsided
// gift is never made: a completed colour group for a utility loses $610
// of $760.
const MaxLoss = 0.4

// minScale is the least side MaxLoss is measured against, so that small
// trades may still be struck at a few dollars either way.
const minScale = 150

// Fair reports whether o is within MaxLoss for seat me, either side of
// it, by the neutral valuation.
func Fair(v monopoly.View, me int, o monopoly.TradeOffer) bool {
	gain, given := Neutral.Value(v, me, o)
	return gain >= -MaxLoss*max(given, gain+given, minScale)
}

// CompletionFloor is the least cash for which Fair lets a player sell,
// on its own, a street that completes the buyer's colour group: what
// MaxLoss leaves of the street's price and the group's neutral worth.
// On the standard board that is from 1.8 times the price (a brown) to
// 4.8 times it (an orange): a group is never given away at face value.
func CompletionFloor(r *monopoly.Rules, sq int) float64 {
	s := &r.Squares[sq]
	return (1 - MaxLoss) * (float64(s.Price) + Neutral.groupValue(worth.Of(r), r.GroupMask(sq)))
}

// FairFloor is the least net cash seat me must receive (negative: the
// most it may pay) for the properties and cards of o to stay within
// MaxLoss.
func FairFloor(v monopoly.View, me int, o monopoly.TradeOffer) float64 {
	o.GiveCash, o.GetCash = 0, 0
	gain, given := Neutral.Value(v, me, o)
	return -MaxLoss*max(given, gain+given, minScale) - gain
}
