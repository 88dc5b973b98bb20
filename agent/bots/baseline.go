package bots

import (
	"math"
	"math/bits"
	"sort"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
)

// BaselineParams are the baseline player's parameters.
func BaselineParams() agent.Params {
	return agent.Params{
		CashReserve:      60,
		CompleteReserve:  50,
		TradeReserve:     60,
		BidCompletes:     1.6,
		BidBlocks:        1.3,
		StretchBudget:    1,
		PropertyWeight:   1,
		JailLeaveUnowned: 6,
		RichFactor:       3,
		RetryTurns:       12,
	}
}

// BaselineKnobs are the parameters the baseline reads, by YAML name.
func BaselineKnobs() []string {
	return []string{"cash_reserve", "complete_reserve", "build_reserve", "trade_reserve", "bid_completes", "bid_blocks",
		"stretch_budget", "valuation_bias", "property_weight", "jail_leave_unowned", "rich_factor", "retry_turns", "group_rounds", "first_group_rounds"}
}

// Baseline is a sound, fast rule-based player: it buys while it keeps a
// reserve, bids up to a value, builds evenly on its monopolies, raises
// cash by mortgaging outside its monopolies before selling buildings,
// lifts mortgages when rich, trades to complete colour groups at a fair
// price, never one that trade.Fair refuses, and leaves jail early in the
// game but stays late.
//
// Of the valuation knobs it reads ValuationBias (property is worth
// 1+ValuationBias times its price: in what it bids, in what it takes or
// pays in a trade, and in buying, where the surplus of worth over price
// stands in for part of its reserve), StretchBudget (a multiple of what
// completing one of its colour groups is worth to it, at auction and in a
// trade) and PropertyWeight (property against cash in a trade). A
// StretchBudget or PropertyWeight of 0 counts as 1.
type Baseline struct {
	P          agent.Params
	triedTurn  int     // the turn in which it last looked for a trade
	rejectedAt [64]int // turn a proposal for a square was last rejected
	refused    int     // its proposals refused this game
	accepted   int     // its proposals accepted this game
	offered    int     // proposals made to it this game
	lastOffer  [5]int  // the last of them (offerKey)
	pending    monopoly.TradeOffer
	offer      monopoly.TradeOffer // the proposal being made (Action points at it)

	noTrade noTrade // what the last fruitless trade search needs to change

	// Memos of work that gives the same answer until the position
	// changes, for the rules they were made under.
	rules  *monopoly.Rules
	worth  *worth.Table // of rules
	groups groupsHeld   // its colour groups, as of its last decision
	idle   idle         // a position in which it had nothing to build or lift
}

// forget drops the memos when the rules change (a player reused in
// another game).
func (b *Baseline) forget(r *monopoly.Rules) {
	b.rules, b.worth, b.groups, b.noTrade, b.idle = r, worth.Of(r), groupsHeld{}, noTrade{}, idle{}
}

// idle records a position in which a manage decision found nothing to
// build or lift, so that the next one in the same position costs a few
// comparisons: nothing becomes possible until its holdings, the mortgages
// or the bank's buildings change, or its cash reaches the least that one
// of the actions it passed over needs.
type idle struct {
	owned, mortgaged uint64
	houses, hotels   int
	built            uint64 // its own buildings (builtOn): the bank's supply can be back where it was after it built
	cash             int    // 0: nothing recorded
}

func (b *Baseline) idleAt(v monopoly.View, owned uint64, cash int) bool {
	i := &b.idle
	return cash < i.cash && owned == i.owned && v.MortgagedMask() == i.mortgaged &&
		v.HouseSupply() == i.houses && v.HotelSupply() == i.hotels && builtOn(v, b.groups.streets) == i.built
}

// builtOn fingerprints the buildings on the streets of mask.
func builtOn(v monopoly.View, mask uint64) uint64 {
	var h uint64
	for m := mask; m != 0; m &= m - 1 {
		h = h*7 + uint64(v.Houses(bits.TrailingZeros64(m)))
	}
	return h
}

// noTrade records why a trade search found nothing, so that it is not run
// again until it may succeed: properties change hands, mortgages or
// buildings change (key: the prices it asks, trade.Fair's judgement and
// the rents it may owe move with them), its
// cash reaches the least an offer needed (cash), or a turn comes at which
// a rejected offer may be made again or its own valuation, which moves
// with its cash and the rents on the board, may say yes (turn).
type noTrade struct {
	key  uint64 // ownership fingerprint; 0: no search recorded
	cash int
	turn int
}

// stale reports whether a search may now find what the recorded one did
// not, in the position of v with cash and ownership fingerprint key.
func (nt *noTrade) stale(v monopoly.View, key uint64, cash int) bool {
	return key != nt.key || cash >= nt.cash || v.Turn() >= nt.turn
}

// groupsHeld sorts a player's colour groups into those it owns whole and
// those it lacks one street of. Holdings change seldom and a manage
// decision asks about both, so they are worked out once per change.
type groupsHeld struct {
	owned    uint64 // the holdings they were worked out for
	complete uint16 // groups owned whole, by index
	streets  uint64 // the streets of those groups
	near     uint16 // groups lacking one street
}

func (h *groupsHeld) update(r *monopoly.Rules, owned uint64) {
	if owned == h.owned {
		return
	}
	*h = groupsHeld{owned: owned}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		switch bits.OnesCount64(owned & g.Mask) {
		case len(g.Squares):
			h.complete |= 1 << gi
			h.streets |= g.Mask
		case len(g.Squares) - 1:
			if len(g.Squares) > 1 { // a group split between two players
				h.near |= 1 << gi
			}
		}
	}
}

// NewBaseline returns a baseline player.
func NewBaseline(p agent.Params) *Baseline {
	b := &Baseline{P: p}
	b.Reset(0, 0)
	return b
}

// Reset implements agent.Resetter: a new game, the same parameters.
func (b *Baseline) Reset(seat int, seed uint64) { *b = Baseline{P: b.P, triedTurn: -1} }

// Decide implements agent.Agent.
func (b *Baseline) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if v.Rules() != b.rules {
		b.forget(v.Rules())
	}
	if d.Kind == monopoly.DecisionManage {
		return b.manage(v, d)
	}
	me := d.Player
	a := monopoly.Action{Player: me}
	switch d.Kind {
	case monopoly.DecisionJail:
		a.Kind = monopoly.ActRollForDoubles
		if Unowned(v) >= b.P.JailLeaveUnowned {
			switch {
			case v.JailCardCount(me) > 0:
				a.Kind, a.Arg = monopoly.ActUseJailCard, -1
			case v.Cash(me) >= v.Rules().JailFine+b.P.CashReserve/2:
				a.Kind = monopoly.ActPayJailFine
			}
		}
	case monopoly.DecisionBuy:
		a.Kind = monopoly.ActDecline
		// Its budget is what it could raise (its cash unless raise_to_buy
		// lets a buyer mortgage to pay): under Monopyly's purchases
		// BaldrickAI and LordMelchittAI buy every street they land on by
		// mortgaging, and a street let go for want of cash goes to them.
		left := v.Funds(me) - d.Amount + int(b.P.ValuationBias*float64(d.Amount))
		switch {
		case v.Funds(me) < d.Amount: // a positive valuation_bias must not buy beyond it
		case Completes(v, me, d.Square) && left >= 0:
			a.Kind = monopoly.ActBuy
		case left >= max(b.P.CashReserve, Pending(v, me)) || left >= b.P.CompleteReserve && Strategic(v, me, d.Square):
			a.Kind = monopoly.ActBuy
		}
	case monopoly.DecisionBid:
		a.Kind = monopoly.ActDropOut
		if limit := b.BidLimit(v, me, d.Square); d.Amount < limit {
			step := max(1, v.Rules().Squares[d.Square].Price/10)
			a.Kind, a.Arg = monopoly.ActBid, min(limit, d.Amount+step)
		}
	case monopoly.DecisionTradeResponse:
		b.Offered(v)
		o := v.PendingOffer()
		if v.Rules().DealProtocol == monopoly.DealsSealed {
			// It cannot see the cash: it names the least it takes for
			// what changes hands, or the most it pays (keeping a reserve).
			floor := b.leastCash(v, me, o)
			if floor < 0 {
				floor = -min(-floor, max(0, v.Cash(me)-b.P.CompleteReserve))
			}
			a.Kind, a.Arg = monopoly.ActAcceptTrade, floor
			break
		}
		a.Kind = monopoly.ActRejectTrade
		if b.Takes(v, me, o) {
			a.Kind = monopoly.ActAcceptTrade
		} else if c, ok := b.counter(v, me, o); ok {
			return c
		}
	case monopoly.DecisionRaiseCash:
		return b.raiseCash(v, me)
	case monopoly.DecisionMortgagedTransfer:
		a.Kind = monopoly.ActKeepMortgaged
		if v.Cash(me)-d.Amount-v.Rules().Squares[d.Square].Mortgage >= b.P.CashReserve {
			a.Kind = monopoly.ActLiftMortgage
		}
	case monopoly.DecisionMovement:
		return BestMove(v, d, b.P.CashReserve, nil)
	}
	return a
}

// BidLimit is the most it bids for sq at auction, keeping
// CompleteReserve: its worth, more for a street that completes one of its
// colour groups or stops another player completing one (BidCompletes,
// BidBlocks), and never less than its worth with what winning it adds to
// its stake in the group (worth.Table.Stakes), or half of what another winning
// it would add to theirs: what a rival gains is the loss of every other
// player, the bidder's share of it about half.
func (b *Baseline) BidLimit(v monopoly.View, me, sq int) int {
	r := v.Rules()
	bias := 1 + b.P.ValuationBias
	price := float64(r.Squares[sq].Price) * bias
	value := price
	switch {
	case Completes(v, me, sq):
		value *= b.P.BidCompletes * b.stretch()
	case Strategic(v, me, sq):
		value *= b.P.BidBlocks
	}
	t := b.table(r)
	before := worth.HoldingsOf(v)
	stake := 0.0
	for p := range v.Players() {
		if v.Bankrupt(p) {
			continue
		}
		after := before.Give(1<<sq, p)
		pr := b.prospect(v, p, p == me)
		pr.Budget -= price
		d := bias*t.Stakes(&before, &after, p, 1<<sq, pr) +
			worth.IncomeTurns(v, p)*(t.Income(after[p])-t.Income(before[p]))
		if p == me {
			stake = max(stake, b.stretch()*d)
		} else {
			stake = max(stake, d/2)
		}
	}
	value = max(value, price+stake)
	keep := b.P.CompleteReserve
	if !Strategic(v, me, sq) {
		keep = max(keep, Pending(v, me))
	}
	// Under raise_to_buy it may bid what mortgaging would raise.
	return min(int(value), v.Funds(me)-keep)
}

// table is the worth table of r, kept from its last decision under r.
// (BidLimit and the valuations are called from outside Decide too.)
func (b *Baseline) table(r *monopoly.Rules) *worth.Table {
	if b.worth == nil || b.worth.Rules() != r {
		return worth.Of(r)
	}
	return b.worth
}

// stretch and weight are StretchBudget and PropertyWeight, 0 counting as 1.
func (b *Baseline) stretch() float64 { return orOne(b.P.StretchBudget) }
func (b *Baseline) weight() float64  { return orOne(b.P.PropertyWeight) }

func orOne(x float64) float64 {
	if x == 0 {
		return 1
	}
	return x
}

func (b *Baseline) manage(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	r := v.Rules()
	cash := v.Cash(me)
	owned := v.OwnedMask(me)
	b.groups.update(r, owned)
	if b.groups.near != 0 && v.Phase() == monopoly.PhaseBeforeRoll && b.triedTurn != v.Turn() && v.ProposalsLeft(me) > 0 {
		b.triedTurn = v.Turn()
		nt := &b.noTrade
		if key := b.ownership(v); nt.stale(v, key, cash) {
			if o, ok := b.findTrade(v, me); ok {
				b.offer = o
				nt.key = 0
				if a := (monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &b.offer}); v.Check(a) == nil {
					return a
				}
				b.pending = monopoly.TradeOffer{}
			}
			nt.key = key
		}
	}
	// Remember how the last proposal went: a rejected offer is not made
	// again for a while.
	if b.pending.GetSquares != 0 {
		accepted := v.OwnedMask(me)&b.pending.GetSquares != 0
		b.Answered(accepted)
		for m := b.pending.GetSquares; m != 0 && !accepted; m &= m - 1 {
			b.rejectedAt[bits.TrailingZeros64(m)] = v.Turn()
		}
	}
	b.pending = monopoly.TradeOffer{}
	if b.idleAt(v, owned, cash) {
		return monopoly.Action{Kind: monopoly.ActContinue, Player: me}
	}
	need := math.MaxInt // the least cash with which something is worth doing

	// Build evenly on monopolies, most valuable group first.
	best, bestCost := -1, 0
	for m := b.groups.complete; m != 0; m &= m - 1 {
		g := &r.Groups[bits.TrailingZeros16(m)]
		if g.HouseCost <= bestCost {
			continue
		}
		if n := g.HouseCost + max(b.P.BuildReserve, 0); cash < n {
			need = min(need, n)
			continue
		}
		// Even building: only a street with the fewest buildings may take one.
		low, lowH := -1, 6
		for _, sq := range g.Squares {
			if h := v.Houses(sq); h < lowH {
				low, lowH = sq, h
			}
		}
		if lowH < 5 && v.CanBuild(low) {
			best, bestCost = low, g.HouseCost
		}
	}
	if best >= 0 {
		return monopoly.Action{Kind: monopoly.ActBuild, Player: me, Arg: best}
	}
	// Lift mortgages when rich.
	rich := int(math.Ceil(b.P.RichFactor * float64(b.P.CashReserve)))
	for m := owned & v.MortgagedMask(); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		n := r.UnmortgageCost(sq) + rich
		if cash >= n {
			return monopoly.Action{Kind: monopoly.ActUnmortgage, Player: me, Arg: sq}
		}
		need = min(need, n)
	}
	b.idle = idle{owned: owned, mortgaged: v.MortgagedMask(), houses: v.HouseSupply(), hotels: v.HotelSupply(),
		built: builtOn(v, b.groups.streets), cash: need}
	return monopoly.Action{Kind: monopoly.ActContinue, Player: me}
}

// raiseCash mortgages properties outside complete groups first, then
// sells buildings (evenly, from the cheapest group), then mortgages the
// rest: the groups that earn most are the last to go. It mortgages the
// smallest loan first, and goes bankrupt only when nothing is left.
// Paying for a street it buys (raise_to_buy), the rest of that street's
// group goes last too.
func (b *Baseline) raiseCash(v monopoly.View, me int) monopoly.Action {
	r := v.Rules()
	owned := v.OwnedMask(me)
	b.groups.update(r, owned)
	keep := b.groups.streets
	if v.DebtReason().Purchase() {
		keep |= r.GroupMask(v.Pending().Square)
	}
	unmortgaged := owned &^ v.MortgagedMask()
	if sq := SmallestMortgage(v, unmortgaged&^keep); sq >= 0 {
		return monopoly.Action{Kind: monopoly.ActMortgage, Player: me, Arg: sq}
	}
	if sell, _ := CheapestSale(v, owned); sell >= 0 {
		return monopoly.Action{Kind: monopoly.ActSellBuilding, Player: me, Arg: sell}
	}
	if sq := SmallestMortgage(v, unmortgaged&keep); sq >= 0 {
		return monopoly.Action{Kind: monopoly.ActMortgage, Player: me, Arg: sq}
	}
	return monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: me}
}

// CheapestSale picks among the squares of owned the building that may be
// sold now from the group with the cheapest houses (the groups that cost
// most to build earn most), with its house cost; -1 when there is none.
func CheapestSale(v monopoly.View, owned uint64) (sq, houseCost int) {
	r := v.Rules()
	sq, houseCost = -1, math.MaxInt
	for m := owned; m != 0; m &= m - 1 {
		s := bits.TrailingZeros64(m)
		if v.Houses(s) == 0 {
			continue
		}
		if c := r.HouseCost(s); c < houseCost && v.CanSellBuilding(s) {
			sq, houseCost = s, c
		}
	}
	return sq, houseCost
}

// SmallestMortgage picks among the squares of mask the one with the
// smallest loan that may be mortgaged now; -1 when there is none.
func SmallestMortgage(v monopoly.View, mask uint64) int {
	r := v.Rules()
	best, loan := -1, math.MaxInt
	for m := mask; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if l := r.Squares[sq].Mortgage; l < loan && v.CanMortgage(sq) {
			best, loan = sq, l
		}
	}
	return best
}

// findTrade looks for an offer that completes one of its colour groups: a
// swap that completes one of the partner's too, balanced with cash, or a
// purchase at the price it would itself take in the partner's place. When
// it finds none it records in b.noTrade the least cash and the earliest
// turn at which one of the offers it passed over becomes possible.
func (b *Baseline) findTrade(v monopoly.View, me int) (monopoly.TradeOffer, bool) {
	r := v.Rules()
	owned := v.OwnedMask(me)
	cash := v.Cash(me)
	b.groups.update(r, owned)
	b.noTrade.cash, b.noTrade.turn = math.MaxInt, math.MaxInt
	for gm := b.groups.near; gm != 0; gm &= gm - 1 {
		g := &r.Groups[bits.TrailingZeros16(gm)]
		mask := g.Mask
		want := bits.TrailingZeros64(mask &^ owned)
		other := v.Owner(want)
		if other < 0 || v.Bankrupt(other) {
			continue
		}
		if t := b.rejectedAt[want]; t > 0 && v.Turn()-t < b.P.RetryTurns {
			b.noTrade.turn = min(b.noTrade.turn, t+b.P.RetryTurns)
			continue
		}
		// A swap: something of ours that completes one of their groups.
		for m := owned &^ mask; m != 0; m &= m - 1 {
			give := bits.TrailingZeros64(m)
			s := &r.Squares[give]
			if s.Kind != monopoly.KindStreet || b.groups.complete&(1<<s.Group) != 0 || !Completes(v, other, give) {
				continue
			}
			// What a swap is worth moves with the partner's cash too
			// (buildFirst), which the memo does not key: look again
			// next turn.
			b.noTrade.turn = min(b.noTrade.turn, v.Turn()+1)
			o := monopoly.TradeOffer{From: int8(me), To: int8(other), GiveSquares: 1 << give, GetSquares: 1 << want}
			pay := max(0, b.asking(v, other, o))
			if need := pay + b.P.TradeReserve; cash < need {
				b.noTrade.cash = min(b.noTrade.cash, need)
				continue
			}
			o.GiveCash = int64(pay)
			if !b.worthProposing(v, me, o) {
				continue
			}
			b.pending = o
			return o, true
		}
		// A purchase, if it leaves cash to build with. No seller takes less
		// than trade.CompletionFloor: below that the price need not be
		// worked out.
		build := b.P.TradeReserve + g.HouseCost*len(g.Squares)
		if need := int(trade.CompletionFloor(r, want)) + build; cash < need {
			b.noTrade.cash = min(b.noTrade.cash, need)
			continue
		}
		o := monopoly.TradeOffer{From: int8(me), To: int8(other), GetSquares: 1 << want}
		pay := max(0, b.asking(v, other, o))
		if need := pay + build; cash < need {
			b.noTrade.cash = min(b.noTrade.cash, need)
			continue
		}
		o.GiveCash = int64(pay)
		if !b.worthProposing(v, me, o) {
			continue
		}
		b.pending = o
		return o, true
	}
	return monopoly.TradeOffer{}, false
}

// worthProposing reports whether offer o is worth making, and when it is
// not records in b.noTrade what must change first: holdings or mortgages
// when trade.Fair refuses it (the key covers them), more cash when its
// own valuation does (short of cash it values cash above its face; how
// short it is moves with the rents it may owe, which the key covers).
func (b *Baseline) worthProposing(v monopoly.View, me int, o monopoly.TradeOffer) bool {
	if !trade.Fair(v, me, o) {
		return false
	}
	if b.tradeGain(v, me, o) < -roundingSlack {
		b.noTrade.cash = min(b.noTrade.cash, v.Cash(me)+1)
		return false
	}
	return true
}

// Takes reports whether seat me, proposer or target of o, would make or
// accept it by its valuation: the trade is worth what it costs (within
// roundingSlack) and trade.Fair allows it.
func (b *Baseline) Takes(v monopoly.View, me int, o monopoly.TradeOffer) bool {
	if v.Rules() != b.rules {
		b.forget(v.Rules())
	}
	if me != int(o.To) {
		o.From = int8(me) // a proposal not yet made names no proposer
	}
	return b.tradeGain(v, me, o) >= -roundingSlack && trade.Fair(v, me, o)
}

// roundingSlack is the loss, in dollars, that a trade it makes or
// accepts may show by its own valuation: prices are rounded up to a whole
// dollar, and a partner valuing as it does asks exactly what the exchange
// is worth to it.
const roundingSlack = 1

// asking is the net cash that target of o would ask for its properties
// and cards were it valuing them as b does, cash at its face (and never
// less than trade.Fair lets it take): the price b offers it. It depends
// on what ownership fingerprints, which the noTrade memo relies on, and
// for a swap of groups on the partner's cash (buildFirst).
func (b *Baseline) asking(v monopoly.View, target int, o monopoly.TradeOffer) int {
	return max(int(math.Ceil(-b.assetGain(v, target, o))), int(math.Ceil(trade.FairFloor(v, target, o))))
}

// tradeGain values an offer for me, its target or its proposer: the cash
// at what cash is worth to it now (worth.Cash) and the properties and
// cards as assetGain values them. An offer leaving it less than
// CompleteReserve is worth nothing to it.
func (b *Baseline) tradeGain(v monopoly.View, me int, o monopoly.TradeOffer) float64 {
	net := int(o.GiveCash) - int(o.GetCash) // what it receives when it is the target
	if me == int(o.From) {
		net = -net
	}
	if v.Cash(me)+net < b.P.CompleteReserve {
		return -1
	}
	return worth.Cash(v.Cash(me), net, worth.Liquidity(v, me)) + b.assetGain(v, me, o)
}

// counter answers an offer it would refuse, when the rules allow
// counter-offers, with the same exchange at the cash that makes it fair to
// itself: the least it takes, or the most it pays keeping its reserve.
func (b *Baseline) counter(v monopoly.View, me int, o monopoly.TradeOffer) (monopoly.Action, bool) {
	if v.Rules().CounterOffers == 0 {
		return monopoly.Action{}, false
	}
	net := b.leastCash(v, me, o) // the cash it must receive on balance
	if net < 0 && v.Cash(me)+net < b.P.CompleteReserve {
		return monopoly.Action{}, false
	}
	b.offer = monopoly.TradeOffer{To: o.From, GiveSquares: o.GetSquares, GetSquares: o.GiveSquares,
		GiveCards: o.GetCards, GetCards: o.GiveCards, GetCash: int64(max(0, net)), GiveCash: int64(max(0, -net))}
	a := monopoly.Action{Kind: monopoly.ActCounterTrade, Player: me, Offer: &b.offer}
	return a, v.Check(a) == nil
}

// leastCash is the net cash seat me takes for the properties and cards
// of o (negative: the most it pays): the least at which the exchange,
// the cash included, is worth making to it, and never less than
// trade.Fair allows.
//
// What the properties are worth may depend on the cash: in a swap that
// completes a group for each side, each side's group is worth the houses
// its cash buys (buildFirst), so a dollar paid is a dollar less to build
// with and a dollar more for the partner's houses. A sealed answer names
// its limit before any cash is in the offer; priced at the cash worth of
// the properties with none paid, it paid the contest AIs who proposed
// such swaps the houses they won with. The least cash is found by
// bisection instead: the exchange's worth only grows with the cash
// received.
func (b *Baseline) leastCash(v monopoly.View, me int, o monopoly.TradeOffer) int {
	c, need := v.Cash(me), worth.Liquidity(v, me)
	worthAt := func(net int) float64 { return worth.Cash(c, net, need) + b.assetGain(v, me, withNet(o, me, net)) }
	// Widen, doubling, from the price with no cash paid to a bracket:
	// worthAt(lo) < 0 <= worthAt(hi). Each dollar received is worth at
	// least a dollar, so both loops end.
	hi := worth.CashFor(c, -b.assetGain(v, me, o), need)
	lo := hi - 1
	for step := 1; worthAt(hi) < 0; step *= 2 {
		lo, hi = hi, hi+step
	}
	for step := 1; worthAt(lo) >= 0; step *= 2 {
		hi, lo = lo, lo-step
	}
	least := lo + 1 + sort.Search(hi-lo-1, func(i int) bool { return worthAt(lo+1+i) >= 0 })
	return max(least, int(math.Ceil(trade.FairFloor(v, me, o))))
}

// withNet is o with the cash settled so that seat me, its proposer or
// target, receives net on balance (pays -net when negative).
func withNet(o monopoly.TradeOffer, me, net int) monopoly.TradeOffer {
	if me == int(o.From) {
		net = -net // the offer's cash is counted to its target
	}
	o.GiveCash, o.GetCash = int64(max(0, net)), int64(max(0, -net))
	return o
}

// assetGain is what the properties and cards of o are worth to me, its
// proposer or its target, without the cash: each property at
// 1+ValuationBias times its price weighed by PropertyWeight (mortgaged
// ones at what they are worth once lifted), and every colour group they
// touch by the change in its holders' stakes (worth.Table.Stakes: what the group
// earns developed, times how near each stands to owning it whole), its
// own gain weighed by StretchBudget and the partner's gain counted as its
// loss. Selling a street that completes the partner's group thus costs it
// the partner's whole gain, and one that leaves the partner a street short
// of a group most of it.
//
// With FirstGroupRounds set, a trade that gives the partner a group while
// leaving me none counts the partner's group over that many rounds, not
// the Horizon: the player holding the only group may build on it until
// the others are bankrupt or the game times out, and a utility's rent
// counted over a hundred rounds (worth.IncomeTurns) would otherwise buy
// the browns, which at a Horizon earn less than their houses cost.
//
// A swap that completes a group for each side counts both groups as
// buildFirst does, by the houses each side's cash buys now.
func (b *Baseline) assetGain(v monopoly.View, me int, o monopoly.TradeOffer) float64 {
	r := v.Rules()
	bias := 1 + b.P.ValuationBias
	prop := bias * b.weight()
	in, out, cardsIn, cardsOut, other := o.GiveSquares, o.GetSquares, o.GiveCards, o.GetCards, int(o.From)
	if me == int(o.From) {
		in, out, cardsIn, cardsOut, other = out, in, cardsOut, cardsIn, int(o.To)
	}
	gain := 0.0
	end := worth.EndWeight(v)
	worthOf := func(sq int) float64 {
		mortgaged := v.Mortgaged(sq)
		full := float64(r.Squares[sq].Price) * prop
		if mortgaged {
			full = float64(r.Squares[sq].Price-r.UnmortgageCost(sq)-r.TransferFee(sq)) * prop
		}
		counted := float64(r.Counted(sq, mortgaged, 0))
		return counted + end*(full-counted)
	}
	for m := in; m != 0; m &= m - 1 {
		gain += worthOf(bits.TrailingZeros64(m))
	}
	for m := out; m != 0; m &= m - 1 {
		gain -= worthOf(bits.TrailingZeros64(m))
	}
	before := worth.HoldingsOf(v)
	after := before.Move(in, other, me).Move(out, me, other)
	t := b.table(r)
	cash := float64(o.GiveCash - o.GetCash) // to the target
	if me == int(o.From) {
		cash = -cash
	}
	mine, theirs := b.prospect(v, me, true), b.prospect(v, other, false)
	mineNew := r.WholeGroups(after[me]) &^ r.WholeGroups(before[me])
	theirsNew := r.WholeGroups(after[other]) &^ r.WholeGroups(before[other])
	switch n := b.P.FirstGroupRounds; {
	case mineNew != 0 && theirsNew != 0: // a swap of groups
		mine, theirs = buildFirst(v, me), buildFirst(v, other)
	case n > 0 && theirsNew != 0 && r.WholeGroups(after[me]) == 0:
		theirs.Turns = max(theirs.Turns, worth.OpponentTurns(v, other, n))
	}
	mine.Budget += cash
	theirs.Budget -= cash
	gain += bias * (b.stretch()*t.Stakes(&before, &after, me, in|out, mine) - t.Stakes(&before, &after, other, in|out, theirs))
	gain += worth.IncomeTurns(v, me)*(t.Income(after[me])-t.Income(before[me])) -
		worth.IncomeTurns(v, other)*(t.Income(after[other])-t.Income(before[other]))/2
	gain += trade.JailCardValue * float64(bits.OnesCount8(cardsIn)-bits.OnesCount8(cardsOut))
	return gain
}

// buildFirst is what p can make of a group it gets in a swap of groups:
// the houses its cash buys now, over the long game (worth.IncomeTurns).
// Both sides get a group, and the one with the cash to build first
// collects rent while the other saves up: over a short horizon unbuilt
// groups are worth their prices, and a player short of cash paid to give
// a rich one the oranges for the yellows; against the contest AIs, who
// propose such swaps once every street is sold, it won 5 of the 18 games
// (of 480) in which it made one before round 100.
func buildFirst(v monopoly.View, p int) worth.Prospect {
	return worth.Prospect{Budget: float64(v.Cash(p)), Turns: worth.IncomeTurns(v, p)}
}

// ownership fingerprints who owns what, what is mortgaged, the buildings
// on each street and in the bank, and the opponent turns a property's
// rent is counted over: all a trade search depends on besides cash and
// time. (Buildings move the rents a player may owe, and so what cash is
// worth to it, and what its groups earn: the same supply of houses
// standing on other streets is another position; the turns shrink every
// round near the round limit, and when a player goes bankrupt.)
func (b *Baseline) ownership(v monopoly.View) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	var owned uint64
	for p := range v.Players() {
		h = (h ^ v.OwnedMask(p)) * 0x100000001b3
		owned |= v.OwnedMask(p)
	}
	h = (h ^ v.MortgagedMask()) * 0x100000001b3
	h = (h ^ uint64(v.HouseSupply())<<32 ^ uint64(v.HotelSupply())) * 0x100000001b3
	h = (h ^ builtOn(v, owned)) * 0x100000001b3
	h = (h ^ uint64(worth.IncomeTurns(v, v.Me()))) * 0x100000001b3
	for _, rounds := range [...]int{b.groupRounds(), b.rivalRounds(), b.P.FirstGroupRounds} {
		if rounds > 0 {
			h = (h ^ uint64(worth.OpponentTurns(v, v.Me(), rounds))) * 0x100000001b3
		}
	}
	return h | 1 // never 0, which means "no search recorded"
}

// Completes reports whether p getting sq gives it sq's whole group.
func Completes(v monopoly.View, p, sq int) bool {
	r := v.Rules()
	if r.Squares[sq].Kind != monopoly.KindStreet {
		return false
	}
	gm := r.GroupMask(sq)
	return (v.OwnedMask(p)|1<<sq)&gm == gm
}

// Strategic reports whether sq completes a group for p or for any other
// player (buying it blocks them).
func Strategic(v monopoly.View, p, sq int) bool {
	return Completes(v, p, sq) || Blocks(v, p, sq)
}

// Blocks reports whether sq, not held by another live player, would
// complete that player's group: p holding it keeps the group from them.
func Blocks(v monopoly.View, p, sq int) bool {
	for q := range v.Players() {
		if q != p && !v.Bankrupt(q) && v.Owner(sq) != q && Completes(v, q, sq) {
			return true
		}
	}
	return false
}

// Unowned counts the properties still with the bank.
func Unowned(v monopoly.View) int {
	n := 0
	for _, sq := range v.Rules().OwnableSquares() {
		if v.Owner(sq) < 0 {
			n++
		}
	}
	return n
}

// prospect is what seat p can make of a colour group as the player
// deciding in v sees it. Usually every group is worth its Monopoly worth
// (worth.Horizon turns, fully built). With GroupRounds set, or once its
// proposals go unsold (groupRounds) or, for a rival's, once it has been
// offered enough (rivalRounds), the rent is counted over that many
// rounds of p's live opponents, and with
// the houses its own cash buys when p is that player and the valuation
// its own (valuer), as if it could build at once otherwise: a rival short
// of cash now may not be when it builds, and so what it asks and offers
// rises with the player's own cash alone, which its trade memo keys.
func (b *Baseline) prospect(v monopoly.View, p int, valuer bool) worth.Prospect {
	pr := worth.Prospect{Budget: math.Inf(1), Turns: worth.HorizonTurns(v, p)}
	rounds := b.groupRounds()
	if p != v.Me() {
		rounds = b.rivalRounds()
	}
	if rounds == 0 {
		return pr
	}
	pr.Turns = worth.OpponentTurns(v, p, rounds)
	if valuer && p == v.Me() {
		// Its cash alone: it does not mortgage the rest of its holdings
		// to build, and neither did the contest AIs it was measured
		// against.
		pr.Budget = float64(v.Cash(p))
	}
	return pr
}

// NoSale is how many of its proposals must have been refused, none
// accepted, before the baseline takes the game for one among players who
// do not sell.
const NoSale = 3

// NoSaleOffers is how many proposals made to it, none of its own
// accepted, make the baseline count its rivals' colour groups over the
// long game (rivalRounds). Players who trade propose little and settle
// (the baseline proposes less than once a game, and most of its
// proposals are taken); the contest AIs that never sell propose hundreds
// of deals a game from the first rounds, while the baseline, proposing
// only what it wants, may have asked nobody by then. Its own groups it
// goes on counting as before: what it sells is where the contest AIs
// gained, and counting its own long as well won no more games of theirs.
const NoSaleOffers = 3

// TraderOffers is how many proposals made to it make the baseline count
// its rivals' groups over the long game even after one of its own was
// taken. The contest AIs that trade propose 150–300 deals a game, while
// a game among gopoly's bots sees about five: at a table that busy the
// game is long for the traders too, and a group sold is built on for the
// rest of it.
const TraderOffers = 20

// Answered counts the answer to one of its proposals, or to one a player
// built on the baseline made itself (the planners): refusals make it take
// the game for one among players who do not sell (NoSale).
func (b *Baseline) Answered(accepted bool) {
	if accepted {
		b.accepted++
	} else {
		b.refused++
	}
}

// NoSaleAfter reports whether k or more of its proposals were refused and
// none accepted, the sign of players who do not sell (NoSale, and the
// planners' GambitRefusals).
func (b *Baseline) NoSaleAfter(k int) bool { return b.accepted == 0 && b.refused >= k }

// Offered counts a proposal made to it, once however often it answers
// it; a player built on the baseline that answers proposals itself (the
// planners) tells it through this too.
func (b *Baseline) Offered(v monopoly.View) {
	if key := offerKey(v); key != b.lastOffer {
		b.lastOffer = key
		b.offered++
	}
}

// offerKey tells the proposals and counter-offers of a game apart: each
// comes in its own turn and phase, with fewer proposals left to its
// proposer, or with one more counter-offer.
func offerKey(v monopoly.View) [5]int {
	from := int(v.PendingOffer().From)
	return [5]int{v.Turn() + 1, int(v.Phase()), from, v.ProposalsLeft(from), v.TradeRound()}
}

// groupRounds is GroupRounds, or when none is set and nobody has taken
// any of its NoSale or more proposals, worth.IncomeRounds: a game where
// nobody sells runs long, and the group it sells may earn for the rest
// of it.
func (b *Baseline) groupRounds() int {
	if b.P.GroupRounds == 0 && b.NoSaleAfter(NoSale) {
		return worth.IncomeRounds
	}
	return b.P.GroupRounds
}

// rivalRounds is groupRounds, or worth.IncomeRounds once NoSaleOffers
// proposals were made to it and none of its own was taken, or
// TraderOffers whatever was taken: a rival's group is then counted over
// the long game, its own still as before.
func (b *Baseline) rivalRounds() int {
	if r := b.groupRounds(); r != 0 || b.offered < NoSaleOffers || b.accepted > 0 && b.offered < TraderOffers {
		return r
	}
	return worth.IncomeRounds
}

// Pending is the cash player p keeps to buy the street that completes one
// of its colour groups when it lands there: the highest price among the
// streets that are the last of a group p holds the rest of and that the
// bank still has. Short of it when it lands, the street goes to auction,
// where a rival that blocks it pays little, having bid against a player
// with no cash.
func Pending(v monopoly.View, p int) int {
	r := v.Rules()
	owned := v.OwnedMask(p)
	need := 0
	for gi := range r.Groups {
		g := &r.Groups[gi]
		if g.HouseCost == 0 || bits.OnesCount64(owned&g.Mask) != len(g.Squares)-1 {
			continue
		}
		if sq := bits.TrailingZeros64(g.Mask &^ owned); v.Owner(sq) < 0 {
			need = max(need, r.Squares[sq].Price)
		}
	}
	return need
}
