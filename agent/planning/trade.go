package planning

import (
	"math/bits"
	"sort"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/monopoly"
)

// The trades a planner considers are priced against its model of the
// opponents, the baseline: for each offer it finds by bisection the least
// cash the target accepts (or the most it pays), asking a baseline in a
// copy of the position. Under sealed deals the same search finds the
// limit that meets the target's own: the cash then settles at the
// target's limit. Offers that trade.Fair refuses are dropped; rollouts
// then decide whether the deal is worth making.

// proposals adds to cs the trades worth trying:
//   - for each colour group, the streets it lacks from one opponent, when
//     they complete the group for it, stop another opponent completing it,
//     or are a step towards a group split between two owners; paid in
//     cash, or with a property it has no use for and cash (a swap, of
//     the kinds the target has not refused: SwapRefusals);
//   - selling a street that completes an opponent's group, for the most
//     that opponent pays, if that is no less than its own valuation
//     takes (bots.Baseline.Takes): a rollout of a few rounds sees the
//     cash at once and little of the rent the group will earn, so
//     rollouts alone sold the contest AIs the groups they won with.
func (pl *Planner) proposals(v monopoly.View, me int, cs []candidate) []candidate {
	r := v.Rules()
	owned := v.OwnedMask(me)
	probed := false
	probe := func() {
		if !probed {
			pl.startProbe(v)
			probed = true
		}
	}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		missing := g.Mask &^ owned
		if missing == 0 || bots.Built(v, g.Mask) {
			continue
		}
		var owners [monopoly.MaxPlayers]uint64 // of the streets it lacks
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
			if !completes && !blocks(v, me, target, get, g.Mask) &&
				(unowned || owned&g.Mask == 0) {
				continue // not a step towards the group either
			}
			probe()
			o := monopoly.TradeOffer{To: int8(target), GetSquares: get}
			if o, ok := pl.cheapest(v, me, o); ok {
				cs = pl.addOffer(v, cs, me, o)
			}
			if !completes {
				continue
			}
			for m := owned &^ g.Mask; m != 0; m &= m - 1 {
				sq := bits.TrailingZeros64(m)
				completing := bots.Completes(v, target, sq)
				noPlain, noPaying := pl.noSwaps(target, completing, false), pl.noSwaps(target, completing, true)
				if !payable(v, me, sq) || noPlain && noPaying {
					continue // not priced: the opponent model's probes cost
				}
				o.GiveSquares = 1 << sq
				swap, ok := pl.cheapest(v, me, o)
				if ok && noPaying {
					swap.GetCash = 0 // it pays nothing on top of a swap
				}
				if ok && (swap.GetCash > 0 || !noPlain) {
					cs = pl.addOffer(v, cs, me, swap)
				}
			}
		}
	}
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if r.Squares[sq].Kind != monopoly.KindStreet || !payable(v, me, sq) || pl.refused(v, 1<<sq) {
			continue
		}
		for q := range v.Players() {
			if q == me || v.Bankrupt(q) || !bots.Completes(v, q, sq) {
				continue
			}
			probe()
			if o, ok := pl.cheapest(v, me, monopoly.TradeOffer{To: int8(q), GiveSquares: 1 << sq}); ok && o.GetCash > 0 && pl.base.Takes(v, me, o) {
				cs = pl.addOffer(v, cs, me, o)
			}
		}
	}
	return cs
}

// blocks reports whether target's streets get, of the group mask, are
// all another opponent lacks to complete it.
func blocks(v monopoly.View, me, target int, get, mask uint64) bool {
	for q := range v.Players() {
		if q != me && q != target && !v.Bankrupt(q) && (v.OwnedMask(q)|get)&mask == mask {
			return true
		}
	}
	return false
}

// sales adds to cs the sales that raise the most cash: for each property
// it may give away, the opponent that pays most for it, if that is more
// than mortgaging it raises and trade.Fair allows it. Short of cash it
// may sell below a property's worth, but within trade.MaxLoss: a street
// that completes the buyer's group is not sold for a pittance.
func (pl *Planner) sales(v monopoly.View, me int, cs []candidate) []candidate {
	r := v.Rules()
	probed := false
	for m := v.OwnedMask(me); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if !payable(v, me, sq) {
			continue
		}
		var best monopoly.TradeOffer
		for q := range v.Players() {
			if q == me || v.Bankrupt(q) {
				continue
			}
			if !probed {
				pl.startProbe(v)
				probed = true
			}
			if o, ok := pl.cheapest(v, me, monopoly.TradeOffer{To: int8(q), GiveSquares: 1 << sq}); ok && o.GetCash > best.GetCash && trade.Fair(v, me, o) {
				best = o
			}
		}
		if int(best.GetCash) > r.Squares[sq].Mortgage {
			cs = pl.addOffer(v, cs, me, best)
		}
	}
	return cs
}

// payable reports whether sq may be given away in a trade: it is not
// mortgaged, its group has no buildings, and the player holds fewer than
// two streets of it.
func payable(v monopoly.View, me, sq int) bool {
	r := v.Rules()
	if v.Mortgaged(sq) {
		return false
	}
	if r.Squares[sq].Kind != monopoly.KindStreet {
		return true
	}
	gm := r.GroupMask(sq)
	return bits.OnesCount64(v.OwnedMask(me)&gm) < 2 && !bots.Built(v, gm)
}

// addOffer adds the proposal of o to cs, unless trade.Fair refuses it.
// Every trade candidate passes here: rollouts of a few dozen forks over a
// short horizon cannot tell a gift whose cost comes later (a street that
// completes an opponent's group, sold for what an opponent short of cash
// can pay) from noise, and a candidate re-tried turn after turn clears
// the Confidence bar now and then by chance.
func (pl *Planner) addOffer(v monopoly.View, cs []candidate, me int, o monopoly.TradeOffer) []candidate {
	if len(cs) == maxCandidates || !trade.Fair(v, me, o) {
		return cs
	}
	c := candidate{offer: o}
	c.add(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me})
	return append(cs, c)
}

// cheapest prices o: the least cash added to it that the target accepts,
// or, when the target takes o with no cash, the most it pays on top.
// False when no affordable amount is accepted.
func (pl *Planner) cheapest(v monopoly.View, me int, o monopoly.TradeOffer) (monopoly.TradeOffer, bool) {
	// The target's answer is monotone in the cash: it takes more from
	// the proposer, and pays less, as long as it accepts at all.
	if o.GiveSquares != 0 && pl.accepts(v, o) {
		// The first amount it refuses to pay, past the 0 it accepts.
		refused := 1 + sort.Search(v.Cash(int(o.To)), func(i int) bool {
			o.GetCash = int64(i + 1)
			return !pl.accepts(v, o)
		})
		o.GetCash = int64(refused - 1)
		return o, true
	}
	most := v.Cash(me) - pl.P.TradeReserve
	if most <= 0 {
		return o, false
	}
	if o.GiveCash = int64(most); !pl.accepts(v, o) {
		return o, false
	}
	// The least amount it accepts, up to the most, which it does.
	o.GiveCash = int64(1 + sort.Search(most-1, func(i int) bool {
		o.GiveCash = int64(i + 1)
		return pl.accepts(v, o)
	}))
	return o, true
}

// startProbe copies the position for asking the opponent model about
// offers. The fork's hidden parts do not matter to an answer.
func (pl *Planner) startProbe(v monopoly.View) { v.ForkInto(&pl.sim.probe, 0) }

// accepts reports whether the trade o goes through when proposed now and
// its target answers as the baseline: accepted, or under sealed deals
// answered with a limit that meets o's.
func (pl *Planner) accepts(v monopoly.View, o monopoly.TradeOffer) bool {
	s := pl.sim
	h := &s.scratch
	h.CopyFrom(&s.probe)
	me := v.Me()
	if h.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &o}) != nil {
		return false
	}
	d := h.Pending()
	if d.Kind != monopoly.DecisionTradeResponse || d.Player != int(o.To) {
		return false
	}
	s.model.Reset(d.Player, 0)
	if h.Apply(s.model.Decide(h.View(d.Player), d)) != nil {
		return false
	}
	mine := h.OwnedMask(me)
	return mine&o.GetSquares == o.GetSquares && mine&o.GiveSquares == 0
}

// refused reports whether an offer for one of the squares of m was
// refused in the last RetryTurns turns.
func (pl *Planner) refused(v monopoly.View, m uint64) bool {
	for ; m != 0; m &= m - 1 {
		if t := pl.refusedAt[bits.TrailingZeros64(m)]; t > 0 && v.Turn()-t < pl.P.RetryTurns {
			return true
		}
	}
	return false
}

// noteAnswer learns how its last proposal went, at its next decision
// once the negotiation is over: the squares of an offer refused are not
// asked for (or offered) again for RetryTurns turns.
func (pl *Planner) noteAnswer(v monopoly.View, me int) {
	pl.proposed = false
	o := &pl.offer
	mine := v.OwnedMask(me)
	accepted := mine&o.GetSquares == o.GetSquares && mine&o.GiveSquares == 0
	if o.GetSquares != 0 && o.GiveSquares != 0 {
		// Whether it gave the target a colour group, as proposals
		// tells: the target's streets with those given, taken or not,
		// cover one.
		completing := false
		for m := o.GiveSquares; m != 0 && !completing; m &= m - 1 {
			completing = bots.Completes(v, int(o.To), bits.TrailingZeros64(m))
		}
		k := swapKind(completing, o.GetCash > 0)
		if accepted {
			pl.swapsTaken[o.To][k]++
		} else {
			pl.swapsRefused[o.To][k]++
		}
	}
	if !accepted {
		for m := o.GetSquares | o.GiveSquares; m != 0; m &= m - 1 {
			pl.refusedAt[bits.TrailingZeros64(m)] = max(1, v.Turn())
		}
	}
	pl.base.Answered(accepted)
	if pl.careful != nil {
		pl.careful.Answered(accepted)
	}
}

// SwapRefusals is how many swaps (properties each way) of a kind an
// opponent refuses, taking none, before the planner offers it no more of
// that kind. A kind is whether the swap gives the opponent a colour group
// and whether it asks the opponent for cash on top; a swap of a kind
// refused that asked for cash is offered without it. Its opponent model,
// the baseline, weighs a swap like any trade, and its rollouts found
// swaps worth proposing turn after turn to players who take none:
// BrettAI's kin sell and buy for cash alone and reject any deal with
// properties on both sides; James Tyas's AIs take only a deal that gives
// them a group, and pay little on top; QueenieAI refuses every proposal.
// Each refused swap used up the planner's one proposal of the turn.
// Offers for cash alone are not counted: they fail on the price, which
// changes as the game goes on.
const SwapRefusals = 3

// noSwaps reports whether opponent q has refused SwapRefusals swaps of a
// kind (completing: giving it a group; paying: it pays cash on top) and
// taken none.
func (pl *Planner) noSwaps(q int, completing, paying bool) bool {
	k := swapKind(completing, paying)
	return pl.swapsTaken[q][k] == 0 && pl.swapsRefused[q][k] >= SwapRefusals
}

// swapKind indexes the counts of answers to swaps by kind.
func swapKind(completing, paying bool) int {
	k := 0
	if completing {
		k = 1
	}
	if paying {
		k += 2
	}
	return k
}
