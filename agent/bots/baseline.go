package bots

import (
	"math/bits"

	"github.com/gopoly/gopoly/monopoly"
)

// Params tune the rule-based players.
type Params struct {
	Reserve          int     // cash kept back when buying and bidding
	BuildReserve     int     // cash kept back when building
	CompleteReserve  int     // the smaller reserve for a purchase that completes or blocks a group
	BidCompletes     float64 // bid up to this times the price for a property completing one's group
	BidBlocks        float64 // ... or one that stops an opponent completing a group
	JailLeaveUnowned int     // leave jail at once while at least this many properties are unowned
	RichFactor       float64 // lift mortgages once cash exceeds this many reserves
	RetryTurns       int     // turns before re-proposing a rejected trade
}

// DefaultParams are the baseline player's parameters.
func DefaultParams() Params {
	return Params{
		Reserve:          60,
		BuildReserve:     100,
		CompleteReserve:  50,
		BidCompletes:     1.6,
		BidBlocks:        1.3,
		JailLeaveUnowned: 6,
		RichFactor:       3,
		RetryTurns:       12,
	}
}

// Baseline is a sound, fast rule-based player: it buys while it keeps a
// reserve, bids up to a value, builds evenly on its monopolies, raises
// cash by selling and then mortgaging, lifts mortgages when rich, trades
// to complete colour groups at a fair price, and leaves jail early in the
// game but stays late.
type Baseline struct {
	P          Params
	triedTurn  int     // the turn in which it last looked for a trade
	rejectedAt [64]int // turn a proposal for a square was last rejected
	pending    monopoly.TradeOffer
	offer      monopoly.TradeOffer // the proposal being made (Action points at it)

	noTradeKey  uint64 // ownership when the last trade search found nothing
	noTradeCash int    // and the cash it had then

	groups groupsHeld // its colour groups, as of its last decision
}

// groupsHeld sorts a player's colour groups into those it owns whole and
// those it lacks one street of. Holdings change seldom and a manage
// decision asks about both, so they are worked out once per change.
type groupsHeld struct {
	rules    *monopoly.Rules
	owned    uint64 // the holdings they were worked out for
	complete uint16 // groups owned whole, by index
	near     uint16 // groups lacking one street
}

func (h *groupsHeld) update(r *monopoly.Rules, owned uint64) {
	if owned == h.owned && r == h.rules {
		return
	}
	*h = groupsHeld{rules: r, owned: owned}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		switch bits.OnesCount64(owned & g.Mask) {
		case len(g.Squares):
			h.complete |= 1 << gi
		case len(g.Squares) - 1:
			h.near |= 1 << gi
		}
	}
}

// NewBaseline returns a baseline player.
func NewBaseline(p Params) *Baseline { return &Baseline{P: p, triedTurn: -1} }

// Decide implements agent.Agent.
func (b *Baseline) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if d.Kind == monopoly.DecisionManage {
		return b.manage(v, d)
	}
	me := d.Player
	a := monopoly.Action{Player: me}
	switch d.Kind {
	case monopoly.DecisionJail:
		a.Kind = monopoly.ActRollForDoubles
		if unowned(v) >= b.P.JailLeaveUnowned {
			switch {
			case v.JailCardCount(me) > 0:
				a.Kind, a.Arg = monopoly.ActUseJailCard, -1
			case v.Cash(me) >= v.Rules().JailFine+b.P.Reserve/2:
				a.Kind = monopoly.ActPayJailFine
			}
		}
	case monopoly.DecisionBuy:
		a.Kind = monopoly.ActDecline
		left := v.Cash(me) - d.Amount
		if left >= b.P.Reserve || (left >= b.P.CompleteReserve && strategic(v, me, d.Square)) {
			a.Kind = monopoly.ActBuy
		}
	case monopoly.DecisionBid:
		a.Kind = monopoly.ActDropOut
		price := v.Rules().Squares[d.Square].Price
		value := float64(price)
		switch {
		case completes(v, me, d.Square):
			value *= b.P.BidCompletes
		case strategic(v, me, d.Square):
			value *= b.P.BidBlocks
		}
		limit := min(int(value), v.Cash(me)-b.P.CompleteReserve)
		if d.Amount < limit {
			step := max(1, price/10)
			a.Kind, a.Arg = monopoly.ActBid, min(limit, d.Amount+step)
		}
	case monopoly.DecisionTradeResponse:
		a.Kind = monopoly.ActRejectTrade
		if b.tradeGain(v, me, v.PendingOffer()) >= 0 {
			a.Kind = monopoly.ActAcceptTrade
		}
	case monopoly.DecisionRaiseCash:
		return b.raiseCash(v, me)
	case monopoly.DecisionMortgagedTransfer:
		a.Kind = monopoly.ActKeepMortgaged
		if v.Cash(me)-d.Amount-v.Rules().Squares[d.Square].Mortgage >= b.P.Reserve {
			a.Kind = monopoly.ActLiftMortgage
		}
	}
	return a
}

func (b *Baseline) manage(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	r := v.Rules()
	cash := v.Cash(me)
	owned := v.OwnedMask(me)
	b.groups.update(r, owned)
	if b.groups.near != 0 && v.Phase() == monopoly.PhaseBeforeRoll && b.triedTurn != v.Turn() {
		b.triedTurn = v.Turn()
		// A search that found nothing finds nothing again until the
		// properties change hands or its cash grows.
		key := ownership(v)
		if key != b.noTradeKey || cash > b.noTradeCash || b.noTradeKey == 0 {
			if o, ok := b.findTrade(v, me); ok {
				b.offer = o
				b.noTradeKey = 0
				return monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &b.offer}
			}
			b.noTradeKey, b.noTradeCash = key, cash
		}
	}
	// Remember how the last proposal went: a rejected offer is not made
	// again for a while.
	if b.pending.GetSquares != 0 && v.OwnedMask(me)&b.pending.GetSquares == 0 {
		for m := b.pending.GetSquares; m != 0; m &= m - 1 {
			b.rejectedAt[bits.TrailingZeros64(m)] = v.Turn()
		}
	}
	b.pending = monopoly.TradeOffer{}

	// Build evenly on monopolies, most valuable group first.
	best, bestCost := -1, 0
	for m := b.groups.complete; m != 0; m &= m - 1 {
		g := &r.Groups[bits.TrailingZeros16(m)]
		if g.HouseCost <= bestCost || cash-g.HouseCost < b.P.BuildReserve {
			continue
		}
		// Even building: only a street with the fewest buildings may take one.
		low, lowH := -1, 6
		for _, sq := range g.Squares {
			if h := v.Houses(sq); h < lowH {
				low, lowH = sq, h
			}
		}
		if v.CanBuild(low) {
			best, bestCost = low, g.HouseCost
		}
	}
	if best >= 0 {
		return monopoly.Action{Kind: monopoly.ActBuild, Player: me, Arg: best}
	}
	// Lift mortgages when rich.
	if mort := owned & v.MortgagedMask(); mort != 0 {
		for m := mort; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			if float64(cash-r.UnmortgageCost(sq)) >= b.P.RichFactor*float64(b.P.Reserve) {
				return monopoly.Action{Kind: monopoly.ActUnmortgage, Player: me, Arg: sq}
			}
		}
	}
	return monopoly.Action{Kind: monopoly.ActContinue, Player: me}
}

// raiseCash sells buildings first (evenly, from the cheapest group), then
// mortgages properties outside complete groups, then the rest; bankrupt
// only when nothing is left.
func (b *Baseline) raiseCash(v monopoly.View, me int) monopoly.Action {
	r := v.Rules()
	owned := v.OwnedMask(me)
	sell, sellCost := -1, 1<<30
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if v.Houses(sq) == 0 {
			continue
		}
		if c := r.HouseCost(sq); c < sellCost && v.CanSellBuilding(sq) {
			sell, sellCost = sq, c
		}
	}
	if sell >= 0 {
		return monopoly.Action{Kind: monopoly.ActSellBuilding, Player: me, Arg: sell}
	}
	mort, mortScore := -1, 1<<30
	for m := owned &^ v.MortgagedMask(); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		score := r.Squares[sq].Mortgage
		if v.Monopoly(me, sq) {
			score += 10000 // keep complete groups earning as long as possible
		}
		if score < mortScore && v.CanMortgage(sq) {
			mort, mortScore = sq, score
		}
	}
	if mort >= 0 {
		return monopoly.Action{Kind: monopoly.ActMortgage, Player: me, Arg: mort}
	}
	return monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: me}
}

// findTrade looks for an offer that completes one of its colour groups: a
// swap that completes one of the partner's too, balanced with cash, or a
// purchase at a price that compensates the partner for the group it gives
// up.
func (b *Baseline) findTrade(v monopoly.View, me int) (monopoly.TradeOffer, bool) {
	r := v.Rules()
	owned := v.OwnedMask(me)
	b.groups.update(r, owned)
	for gm := b.groups.near; gm != 0; gm &= gm - 1 {
		g := &r.Groups[bits.TrailingZeros16(gm)]
		mask := g.Mask
		mine := owned & mask
		want := bits.TrailingZeros64(mask &^ mine)
		other := v.Owner(want)
		if other < 0 || v.Bankrupt(other) || v.Houses(want) > 0 || b.recentlyRejected(v, want) {
			continue
		}
		if hasBuildings(v, mask) {
			continue
		}
		wantValue := r.Squares[want].Price + groupBonus(r, want)
		// A swap: something of ours that completes one of their groups.
		for m := owned &^ mask; m != 0; m &= m - 1 {
			give := bits.TrailingZeros64(m)
			if r.Squares[give].Kind != monopoly.KindStreet || !completes(v, other, give) || hasBuildings(v, r.GroupMask(give)) {
				continue
			}
			giveValue := r.Squares[give].Price + groupBonus(r, give)
			cash := max(0, wantValue-giveValue)
			if v.Cash(me)-cash < b.P.Reserve {
				continue
			}
			o := monopoly.TradeOffer{To: int8(other), GiveSquares: 1 << give, GetSquares: 1 << want, GiveCash: int64(cash)}
			b.pending = o
			return o, true
		}
		// A purchase, if it leaves cash to build with.
		if v.Cash(me)-wantValue >= b.P.Reserve+g.HouseCost*len(g.Squares) {
			o := monopoly.TradeOffer{To: int8(other), GetSquares: 1 << want, GiveCash: int64(wantValue)}
			b.pending = o
			return o, true
		}
	}
	return monopoly.TradeOffer{}, false
}

func (b *Baseline) recentlyRejected(v monopoly.View, sq int) bool {
	t := b.rejectedAt[sq]
	return t > 0 && v.Turn()-t < b.P.RetryTurns
}

// tradeGain values an offer for its target me: cash and printed prices
// (mortgaged properties at what they are worth after lifting), plus the
// value of a group it completes, minus that of a group it hands over.
func (b *Baseline) tradeGain(v monopoly.View, me int, o monopoly.TradeOffer) int {
	r := v.Rules()
	gain := int(o.GiveCash) - int(o.GetCash)
	if v.Cash(me)-int(o.GetCash) < b.P.CompleteReserve {
		return -1
	}
	worth := func(sq int) int {
		if v.Mortgaged(sq) {
			return r.Squares[sq].Price - r.UnmortgageCost(sq) - r.TransferFee(sq)
		}
		return r.Squares[sq].Price
	}
	after := v.OwnedMask(me)&^o.GetSquares | o.GiveSquares
	from := int(o.From)
	theirs := v.OwnedMask(from)&^o.GiveSquares | o.GetSquares
	for m := o.GiveSquares; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		gain += worth(sq)
		if gm := r.GroupMask(sq); r.Squares[sq].Kind == monopoly.KindStreet && after&gm == gm && v.OwnedMask(me)&gm != gm {
			gain += groupBonus(r, sq)
		}
	}
	for m := o.GetSquares; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		gain -= worth(sq)
		if gm := r.GroupMask(sq); r.Squares[sq].Kind == monopoly.KindStreet && theirs&gm == gm {
			gain -= groupBonus(r, sq)
		}
	}
	gain += 50 * (bits.OnesCount8(o.GiveCards) - bits.OnesCount8(o.GetCards))
	return gain
}

// ownership fingerprints who owns what, the mortgages and the building
// supply (buildings block trades), so that a fruitless search need not be
// repeated.
func ownership(v monopoly.View) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for p := range v.Players() {
		h = (h ^ v.OwnedMask(p)) * 0x100000001b3
	}
	h = (h ^ v.MortgagedMask()) * 0x100000001b3
	h = (h ^ uint64(v.HouseSupply()<<8|v.HotelSupply())) * 0x100000001b3
	return h | 1 // never 0, which means "no search recorded"
}

// groupBonus is what owning the whole colour group of sq adds: the group's
// printed prices.
func groupBonus(r *monopoly.Rules, sq int) int {
	s := &r.Squares[sq]
	if s.Kind != monopoly.KindStreet {
		return 0
	}
	total := 0
	for _, q := range r.Groups[s.Group].Squares {
		total += r.Squares[q].Price
	}
	return total
}

// completes reports whether p getting sq gives it sq's whole group.
func completes(v monopoly.View, p, sq int) bool {
	r := v.Rules()
	if r.Squares[sq].Kind != monopoly.KindStreet {
		return false
	}
	gm := r.GroupMask(sq)
	return (v.OwnedMask(p)|1<<sq)&gm == gm
}

// strategic reports whether sq completes a group for p or for any other
// player (buying it blocks them).
func strategic(v monopoly.View, p, sq int) bool {
	for q := range v.Players() {
		if !v.Bankrupt(q) && (q == p || v.Owner(sq) != q) && completes(v, q, sq) {
			return true
		}
	}
	return false
}

func hasBuildings(v monopoly.View, mask uint64) bool {
	for m := mask; m != 0; m &= m - 1 {
		if v.Houses(bits.TrailingZeros64(m)) > 0 {
			return true
		}
	}
	return false
}

// unowned counts the properties still with the bank.
func unowned(v monopoly.View) int {
	n := 0
	for _, sq := range v.Rules().OwnableSquares() {
		if v.Owner(sq) < 0 {
			n++
		}
	}
	return n
}
