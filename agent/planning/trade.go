package planning

import (
	"math/bits"

	"os"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

var expSell = os.Getenv("EXP_SELL") != ""
var expRaise = os.Getenv("EXP_RAISE") != ""

// proposals adds to cs the trades worth trying: for every colour group it
// could complete by one trade, the cheapest offers the target would
// accept, paid in cash, in properties it has no use for, or by a swap that
// completes one of the target's groups. The target's answers are those of
// the baseline, the planner's model of its opponents.
func (pl *Planner) proposals(v monopoly.View, me int, cs []candidate) []candidate {
	r := v.Rules()
	owned := v.OwnedMask(me)
	probed := false
	probe := func() {
		if !probed {
			// The hidden parts of a fork do not matter to an answer.
			pl.sim.probe.CopyFrom(v.Fork(0))
			probed = true
		}
	}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		missing := g.Mask &^ owned
		if missing == 0 || built(v, g.Mask) {
			continue
		}
		// Owners of the streets it lacks.
		var owners [monopoly.MaxPlayers]uint64
		unowned := false
		for m := missing; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			if o := v.Owner(sq); o >= 0 {
				owners[o] |= 1 << sq
			} else {
				unowned = true
			}
		}
		for target, get := range owners[:v.Players()] {
			if get == 0 || v.Bankrupt(target) || pl.refused(v, get) {
				continue
			}
			completes := get == missing
			blocks := false
			if !completes {
				// A street another opponent needs to complete the group.
				for q := range v.Players() {
					if q != me && q != target && !v.Bankrupt(q) && (v.OwnedMask(q)|get)&g.Mask == g.Mask {
						blocks = true
					}
				}
				// Or a step towards a group split between two owners.
				if !blocks && (unowned || missing == g.Mask || bits.OnesCount64(owned&g.Mask) == 0) {
					continue
				}
			}
			probe()
			base := monopoly.TradeOffer{To: int8(target), GetSquares: get}
			if o, ok := pl.cheapest(v, me, base); ok {
				cs = pl.addOffer(cs, me, o)
			}
			if !completes {
				continue
			}
			// A property it has no use for, or one that completes a
			// group of the target's, and cash.
			for m := owned &^ g.Mask; m != 0; m &= m - 1 {
				sq := bits.TrailingZeros64(m)
				if !pl.payable(v, me, sq) {
					continue
				}
				o := base
				o.GiveSquares = 1 << sq
				if o, ok := pl.cheapest(v, me, o); ok {
					cs = pl.addOffer(cs, me, o)
				}
			}
		}
	}
	if !expSell {
		return cs
	}
	// Selling a street that completes an opponent's group, for the most
	// cash it would pay.
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if r.Squares[sq].Kind != monopoly.KindStreet || !pl.payable(v, me, sq) {
			continue
		}
		for q := range v.Players() {
			if q == me || v.Bankrupt(q) || !bots.Completes(v, q, sq) {
				continue
			}
			probe()
			if o, ok := pl.cheapest(v, me, monopoly.TradeOffer{To: int8(q), GiveSquares: 1 << sq}); ok && o.GetCash > 0 {
				cs = pl.addOffer(cs, me, o)
			}
		}
	}
	return cs
}

// sales adds to cs the sales of its properties that raise the most cash:
// for each property it may give away, the opponent that would pay most
// for it, if more than the mortgage raises.
func (pl *Planner) sales(v monopoly.View, me int, cs []candidate) []candidate {
	r := v.Rules()
	probed := false
	for m := v.OwnedMask(me); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if !pl.payable(v, me, sq) {
			continue
		}
		var best monopoly.TradeOffer
		for q := range v.Players() {
			if q == me || v.Bankrupt(q) {
				continue
			}
			if !probed {
				pl.sim.probe.CopyFrom(v.Fork(0))
				probed = true
			}
			if o, ok := pl.cheapest(v, me, monopoly.TradeOffer{To: int8(q), GiveSquares: 1 << sq}); ok && o.GetCash > best.GetCash {
				best = o
			}
		}
		if int(best.GetCash) > r.Squares[sq].Mortgage {
			cs = pl.addOffer(cs, me, best)
		}
	}
	return cs
}

// built reports whether any street of mask has buildings (which must be
// sold before any of them is traded).
func built(v monopoly.View, mask uint64) bool {
	for m := mask; m != 0; m &= m - 1 {
		if v.Houses(bits.TrailingZeros64(m)) > 0 {
			return true
		}
	}
	return false
}

// payable reports whether sq may be given away in a trade: it has no
// buildings, is not mortgaged, and is not part of a group the player
// holds two streets or more of.
func (pl *Planner) payable(v monopoly.View, me, sq int) bool {
	r := v.Rules()
	s := &r.Squares[sq]
	if v.Houses(sq) > 0 || v.Mortgaged(sq) {
		return false
	}
	if s.Kind != monopoly.KindStreet {
		return true
	}
	gm := r.GroupMask(sq)
	return bits.OnesCount64(v.OwnedMask(me)&gm) < 2 && !built(v, gm)
}

func (pl *Planner) addOffer(cs []candidate, me int, o monopoly.TradeOffer) []candidate {
	if len(cs) >= cap(pl.cands) {
		return cs
	}
	c := candidate{offer: o}
	c.add(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me})
	return append(cs, c)
}

// cheapest finds the least cash added to o that the target accepts, by
// bisection on the target's answer in a copy of the game; when it accepts
// o with no cash, the most cash it would pay on top. False when no
// affordable amount is accepted.
func (pl *Planner) cheapest(v monopoly.View, me int, o monopoly.TradeOffer) (monopoly.TradeOffer, bool) {
	if o.GiveSquares != 0 && pl.accepts(v, o) {
		lo, hi := 0, v.Cash(int(o.To))+1 // accepted, refused
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			o.GetCash = int64(mid)
			if pl.accepts(v, o) {
				lo = mid
			} else {
				hi = mid
			}
		}
		o.GetCash = int64(lo)
		return o, true
	}
	hi := v.Cash(me) - pl.P.TradeReserve
	if hi < 0 {
		return o, false
	}
	o.GiveCash = int64(hi)
	if !pl.accepts(v, o) {
		return o, false
	}
	lo := -1 // an amount refused (or below zero)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		o.GiveCash = int64(mid)
		if pl.accepts(v, o) {
			hi = mid
		} else {
			lo = mid
		}
	}
	o.GiveCash = int64(hi)
	return o, o.GiveSquares|o.GetSquares != 0 || o.GiveCash != 0
}

// accepts asks the opponent model whether o's target accepts it.
func (pl *Planner) accepts(v monopoly.View, o monopoly.TradeOffer) bool {
	h := &pl.sim.scratch
	h.CopyFrom(&pl.sim.probe)
	me := v.Me()
	if h.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &o}) != nil {
		return false
	}
	d := h.Pending()
	if d.Kind != monopoly.DecisionTradeResponse {
		return false
	}
	m := &pl.sim.model
	m.Reset(d.Player, 0)
	return m.Decide(h.View(d.Player), d).Kind == monopoly.ActAcceptTrade
}

// refused reports whether an offer for one of the squares of get was
// refused in the last RetryTurns turns.
func (pl *Planner) refused(v monopoly.View, get uint64) bool {
	for m := get; m != 0; m &= m - 1 {
		if t := pl.refusedAt[bits.TrailingZeros64(m)]; t > 0 && v.Turn()-t < pl.P.RetryTurns {
			return true
		}
	}
	return false
}

// noteAnswer learns at its next decision how its last proposal went: an
// offer refused is not made again for RetryTurns turns.
func (pl *Planner) noteAnswer(v monopoly.View, me int) {
	pl.proposed = false
	if get := pl.offer.GetSquares; get != 0 && v.OwnedMask(me)&get != get {
		for m := get; m != 0; m &= m - 1 {
			pl.refusedAt[bits.TrailingZeros64(m)] = max(1, v.Turn())
		}
	}
}
