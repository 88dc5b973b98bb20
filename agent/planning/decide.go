package planning

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

func act(kind monopoly.ActionKind, p, arg int) monopoly.Action {
	return monopoly.Action{Kind: kind, Player: p, Arg: arg}
}

// withDefault starts a candidate list with the rule-based answer.
func (pl *Planner) withDefault(v monopoly.View, d monopoly.Decision) []candidate {
	cs := pl.cands[:1]
	cs[0] = candidate{}
	cs[0].add(pl.fallback(v, d.Player).Decide(v, d))
	return cs
}

// alternative adds a one-action candidate unless it is the default.
func alternative(cs []candidate, a monopoly.Action) []candidate {
	if d := cs[0].acts[0]; cs[0].n == 1 && d.Kind == a.Kind && d.Arg == a.Arg {
		return cs
	}
	c := candidate{}
	c.add(a)
	return append(cs, c)
}

// plans reports whether the player plans a buy, bid, jail, trade response
// or movement decision. The planning player plans every one that has an
// alternative; the adaptive one only those of high leverage: a property
// that completes or blocks a colour group, a trade that moves one, jail
// once the board is mostly bought, when staying in may pay, and the free
// choice of a square that triples give.
func (pl *Planner) plans(v monopoly.View, d monopoly.Decision) bool {
	me := d.Player
	switch d.Kind {
	case monopoly.DecisionJail:
		if v.JailCardCount(me) == 0 && v.Cash(me) < v.Rules().JailFine {
			return false // no choice
		}
		return !pl.selective || bots.Unowned(v) < pl.P.JailLeaveUnowned
	case monopoly.DecisionBuy, monopoly.DecisionBid:
		return !pl.selective || bots.Strategic(v, me, d.Square)
	case monopoly.DecisionTradeResponse:
		if !pl.selective {
			return true
		}
		o := v.PendingOffer()
		for m := o.GiveSquares | o.GetSquares; m != 0; m &= m - 1 {
			if bots.Strategic(v, me, bits.TrailingZeros64(m)) || bots.Strategic(v, int(o.From), bits.TrailingZeros64(m)) {
				return true
			}
		}
		return false
	case monopoly.DecisionMovement:
		return !pl.selective || d.Amount == 0
	}
	return false
}

func (pl *Planner) decideBuy(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	cs := pl.withDefault(v, d)
	if v.Cash(me)-d.Amount >= pl.P.CashReserve {
		cs = alternative(cs, act(monopoly.ActBuy, me, 0))
	}
	if pl.gambits(v, me, d.Square) || cs[0].acts[0].Kind != monopoly.ActBuy {
		cs = alternative(cs, act(monopoly.ActDecline, me, 0))
	}
	return pl.choose(v, cs)
}

// GambitRefusals is how many of its proposals, refused with none taken,
// end the planner's gambits: declining a street its baseline would buy
// and bidding under the baseline's limit. Its rollouts play every
// opponent as a baseline, which sells, so a street let go now looks
// cheap to buy later; among players who never sell it is lost for the
// game. Whether the others sell cannot be told before most gambits are
// played (they come in the first rounds); a refusal before any of its
// proposals is taken is the earliest sign.
const GambitRefusals = 1

// gambits reports whether the planner still weighs declining sq, a
// street its baseline would buy, and bidding under the baseline's limit
// for it. It never does for a street that would complete a rival's group
// (bots.Blocks): let go, it goes to auction, where the rival bids what
// the whole group is worth to it (the contest AIs $700-1,150 for a dark
// blue, mortgaging to pay), and a planner that declined Park Place in
// round 5 with $974 in hand, to buy it cheaper at auction, saw
// Boardwalk's holder win it. Among players who sell the gamble paid a
// little (against three baselines the planner wins 69.8% of 1,000 games
// without it, 71.1% with it); among players who never sell it gave the
// game away.
func (pl *Planner) gambits(v monopoly.View, me, sq int) bool {
	return !bots.Blocks(v, me, sq) && !pl.base.NoSaleAfter(GambitRefusals)
}

// decideBid chooses, once per auction, the most it will bid: the
// baseline's limit or another multiple of the price; later calls in the
// same auction bid up to it.
func (pl *Planner) decideBid(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	if d.Square != pl.bidSq || v.Turn() != pl.bidTurn {
		pl.bidSq, pl.bidTurn = d.Square, v.Turn()
		price := v.Rules().Squares[d.Square].Price
		room := v.Cash(me) - pl.P.CashReserve
		cs := pl.cands[:0]
		gambit := pl.gambits(v, me, d.Square)
		for i, l := range [...]int{max(0, pl.base.BidLimit(v, me, d.Square)), 0, price / 2, price, price * 3 / 2, price * 2} {
			switch {
			case i == 0:
			case l < cs[0].limit && !gambit:
				continue
			case l == 0: // dropping out, unless the default does
				if cs[0].limit <= d.Amount {
					continue
				}
			case min(l, room) <= d.Amount || min(l, room) == cs[0].limit || min(l, room) == cs[len(cs)-1].limit:
				continue
			default:
				l = min(l, room)
			}
			c := candidate{limit: l}
			c.add(bidUpTo(v, d, l))
			cs = append(cs, c)
		}
		pl.bidLimit = cs[pl.pick(v, cs)].limit
	}
	return bidUpTo(v, d, pl.bidLimit)
}

// movesPlanned is how many moves, besides the rule-based one, a movement
// decision weighs by rollouts: the Bus has at most three, and of the
// squares triples reach only the best few by the rule-based count are
// worth the rollouts.
const movesPlanned = 3

// decideMovement weighs by rollouts the rule-based move and the next best
// by the same count.
func (pl *Planner) decideMovement(v monopoly.View, d monopoly.Decision) monopoly.Action {
	reserve := pl.fallback(v, d.Player).P.CashReserve
	moves := v.LegalActions(pl.moves[:0])
	slices.SortStableFunc(moves, func(a, b monopoly.Action) int {
		return cmp.Compare(bots.MoveScore(v, d, b.Arg, reserve, nil), bots.MoveScore(v, d, a.Arg, reserve, nil))
	})
	cs := pl.withDefault(v, d)
	for _, a := range moves[:min(len(moves), movesPlanned)] {
		cs = alternative(cs, a)
	}
	return pl.choose(v, cs)
}

func (pl *Planner) decideJail(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	cs := pl.withDefault(v, d)
	cs = alternative(cs, act(monopoly.ActRollForDoubles, me, 0))
	if v.JailCardCount(me) > 0 {
		cs = alternative(cs, act(monopoly.ActUseJailCard, me, -1))
	} else if v.Cash(me) >= v.Rules().JailFine {
		cs = alternative(cs, act(monopoly.ActPayJailFine, me, 0))
	}
	return pl.choose(v, cs)
}

// decideTrade answers an offer by rollouts where the baseline would
// accept it: they may find it a mistake and reject it, but never accept
// what the valuation refuses (a sale's loss, the rent the property no
// longer earns, is spread over more rounds than a rollout plays, and a
// few rollouts' noise would otherwise sell the board piece by piece). Under
// sealed deals the proposer's limit is hidden (a fork sets it to 0), so
// no rollout can settle the deal: it answers from its valuation alone, as
// the baseline does, with the least it takes for what changes hands (the
// printed prices, and the value of a colour group completed either way,
// never less than trade.Fair allows).
func (pl *Planner) decideTrade(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	if v.Rules().DealProtocol == monopoly.DealsSealed {
		return pl.fallback(v, me).Decide(v, d)
	}
	cs := pl.withDefault(v, d)
	if cs[0].acts[0].Kind != monopoly.ActAcceptTrade {
		return cs[0].acts[0]
	}
	cs = alternative(cs, act(monopoly.ActRejectTrade, me, 0))
	return pl.choose(v, cs)
}

// manage looks for a trade once a turn before its roll, and plans its
// building at the end of its turn. The planning player builds only then:
// building before the roll gains nothing over building after it, when it
// knows what the roll cost. Whatever it does not plan it does as the
// baseline, except proposing the baseline's trades, which its own search
// covers.
func (pl *Planner) manage(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	goOn := act(monopoly.ActContinue, me, 0)
	switch {
	case v.Phase() == monopoly.PhaseBeforeRoll:
		if pl.tradeTurn != v.Turn() {
			pl.tradeTurn = v.Turn()
			if a, ok := pl.proposeTrade(v, me); ok {
				return a
			}
		}
		if !pl.selective {
			return goOn
		}
	case v.Phase() == monopoly.PhaseAfterRoll && !v.RollsAgain():
		if a, ok := pl.decideBuild(v, me); ok {
			return a
		}
	case !pl.selective:
		return goOn // it will build after its last roll
	}
	a := pl.fallback(v, me).Decide(v, d)
	if a.Kind == monopoly.ActProposeTrade {
		return goOn
	}
	return a
}

// proposeTrade evaluates the trades worth offering against making none.
func (pl *Planner) proposeTrade(v monopoly.View, me int) (monopoly.Action, bool) {
	cs := pl.cands[:1]
	cs[0] = candidate{}
	cs[0].add(act(monopoly.ActContinue, me, 0))
	if cs = pl.proposals(v, me, cs); len(cs) == 1 {
		return monopoly.Action{}, false
	}
	a := pl.choose(v, cs)
	return a, a.Kind == monopoly.ActProposeTrade
}

// decideBuild plans how many houses to put up at the end of its turn:
// as many as its cash allows (the baseline's choice, the default), none,
// or some between. The adaptive player plans only when building all it
// can would leave it less than ThinCash.
func (pl *Planner) decideBuild(v monopoly.View, me int) (monopoly.Action, bool) {
	var seq [maxSteps]monopoly.Action
	cash := v.Cash(me)
	n, cost := buildSequence(v, me, cash-max(0, pl.P.BuildReserve), seq[:maxSteps-1])
	if n == 0 || pl.selective && cash-cost >= pl.P.ThinCash {
		return monopoly.Action{}, false
	}
	cs := pl.cands[:0]
	var seen [maxSteps]bool
	for _, k := range [...]int{n, 0, n / 3, n / 2, 2 * n / 3} {
		if seen[k] {
			continue
		}
		seen[k] = true
		c := candidate{}
		for _, a := range seq[:k] {
			c.add(a)
		}
		c.add(act(monopoly.ActContinue, me, 0))
		cs = append(cs, c)
	}
	return pl.choose(v, cs), true
}

// buildSequence lists in out the builds the baseline would make with
// budget: evenly, on the group with the dearest houses first. It returns
// how many and their cost.
func buildSequence(v monopoly.View, me, budget int, out []monopoly.Action) (n, cost int) {
	r := v.Rules()
	owned := v.OwnedMask(me)
	var houses [monopoly.MaxSquares]int
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		houses[sq] = v.Houses(sq)
	}
	supply, hotels := v.HouseSupply(), v.HotelSupply()
	for n < len(out) {
		best, bestCost := -1, 0
		for gi := range r.Groups {
			g := &r.Groups[gi]
			if owned&g.Mask != g.Mask || v.MortgagedMask()&g.Mask != 0 || g.HouseCost <= bestCost || g.HouseCost > budget {
				continue
			}
			low, lowH := -1, 6
			for _, sq := range g.Squares {
				if houses[sq] < lowH {
					low, lowH = sq, houses[sq]
				}
			}
			if lowH >= 5 || lowH == 4 && hotels == 0 || lowH < 4 && supply == 0 {
				continue
			}
			best, bestCost = low, g.HouseCost
		}
		if best < 0 {
			break
		}
		if houses[best] == 4 {
			hotels--
			supply += 4
		} else {
			supply--
		}
		houses[best]++
		budget -= bestCost
		cost += bestCost
		out[n] = act(monopoly.ActBuild, me, best)
		n++
	}
	return n, cost
}

// raiseCash answers a debt as the baseline does (mortgaging, then
// selling buildings), or by selling a property to an opponent, who may pay
// its full price where a mortgage raises half, when rollouts show that
// better.
func (pl *Planner) raiseCash(v monopoly.View, d monopoly.Decision) monopoly.Action {
	cs := pl.withDefault(v, d)
	if cs = pl.sales(v, d.Player, cs); len(cs) == 1 {
		return cs[0].acts[0]
	}
	return pl.choose(v, cs)
}
