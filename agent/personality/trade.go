package personality

import (
	"math"
	"math/bits"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
)

// Trades under the open protocol: a personality proposes (up to the rules'
// trades_per_phase proposals per phase, before and after the roll and
// while raising cash) and answers proposals by its own valuation.
//
// Every offer is priced twice: by the proposer's own taste, which must
// find it worth making, and by the neutral valuation it assumes of its
// partner (trade.Neutral), which sets the cash so that the partner gets
// ask_margin of the value at stake on top of a fair price; and whatever
// either side's taste, trade.Fair must hold for it.

// Cash weights: a player short of its reserve values a dollar up to
// dearCash, one with more than twice the top of its reserve band down to
// idleCash.
const (
	dearCash = 1.5
	idleCash = 0.8
)

// own is the player's valuation.
func (p *Player) own(v monopoly.View) trade.Valuer {
	w := p.P.PropertyWeight
	if w <= 0 {
		w = 1
	}
	val := trade.Valuer{Worth: &p.worth, Stretch: max(1, p.P.StretchBudget), Weight: w, Cash: 1}
	cash, res, top := v.Cash(v.Me()), p.reserve(v), 2*max(p.P.ReserveMax, p.P.CashReserve)
	switch {
	case cash < res:
		val.Cash = 1 + (dearCash-1)*float64(res-cash)/float64(res)
	case cash > top && top > 0:
		val.Cash = 1 - (1-idleCash)*min(1, float64(cash-top)/float64(top))
	}
	if p.P.LandingWeight > 0 {
		p.fear = rentFear{horizon: float64(p.P.Horizon)}
		val.Fear = &p.fear
	}
	return val
}

// rentFear is a player with a landing model fearing a rival's monopoly
// for the rent it would pay there over horizon turns, with as many houses
// as the rival's cash builds once the trade is done (up to three a
// street), when that exceeds what the group is worth: a rival that pays
// its last dollar for the street builds nothing for a while, so a buyer
// can still meet the price (without it, four Professors trade nothing
// and stall), while a rich one is feared for its houses.
type rentFear struct {
	horizon float64
}

// Threat implements trade.Fear.
func (f *rentFear) Threat(r *monopoly.Rules, mask uint64, budget float64) float64 {
	return worth.Of(r).BuiltRent(r.Squares[bits.TrailingZeros64(mask)].Group, budget) * f.horizon
}

// respond answers a proposal. Open deals: accept when the gain by its own
// valuation reaches accept_margin of what it gives (at least of $100) and
// it can pay any cash asked and keep trade_reserve; otherwise, when the
// rules allow counter-offers and cash can bridge the gap, counter; else
// reject. In a negotiation it started, its own proposal's bar applies.
// Sealed deals: answer with its own limit (answerSealed).
func (p *Player) respond(v monopoly.View, me int) monopoly.Action {
	r := v.Rules()
	o := v.PendingOffer()
	f := &p.why
	f.partner, f.offer = int(o.From), o
	f.sq = keySquare(r, o.GiveSquares|o.GetSquares)
	if r.DealProtocol == monopoly.DealsSealed {
		return p.answerSealed(v, me, o)
	}
	own := p.own(v)
	gain, given := own.Value(v, me, o)
	their, _ := trade.Neutral.Value(v, int(o.From), o)
	margin := p.P.AcceptMargin
	if p.negotiating(v, o) && !p.prof.style.hard {
		margin = -p.P.Generosity
	}
	need := margin * math.Max(given, 100)
	f.gain, f.need, f.their = int(math.Round(gain)), int(math.Round(need)), int(math.Round(their))
	f.after = f.cash - int(o.GetCash) + int(o.GiveCash)
	a := monopoly.Action{Kind: monopoly.ActRejectTrade, Player: me}
	switch {
	case o.GetCash > 0 && f.cash-int(o.GetCash) < p.P.TradeReserve:
		f.sit = sitRejectCash
	case gain >= need && trade.Fair(v, me, o):
		a.Kind, f.sit = monopoly.ActAcceptTrade, sitAccept
	default:
		f.sit = sitReject
		if c, ok := p.counter(v, me, o, own, gain, need); ok {
			p.offer, p.pending = c, c
			p.pendingSet = true
			f.sit, f.offer = sitCounter, c
			f.after = f.cash - int(c.GiveCash) + int(c.GetCash)
			cg, _ := own.Value(v, me, c)
			f.gain = int(math.Round(cg))
			return monopoly.Action{Kind: monopoly.ActCounterTrade, Player: me, Offer: &p.offer}
		}
	}
	return a
}

// hardGap is how far short of its price an offer may be for a hard
// bargainer to counter it rather than say no, as a share of its price.
const hardGap = 0.1

// negotiating reports whether offer o answers an offer of its own: a
// counter-offer in a negotiation it is part of.
func (p *Player) negotiating(v monopoly.View, o monopoly.TradeOffer) bool {
	return v.TradeRound() > 0 && p.pendingSet && p.pending.To == o.From
}

// counter makes a counter-offer to o when the rules allow one: the same
// properties and cards, with the cash that brings its gain to need (the
// Hustler, and anyone after the first counter, meets the other side
// halfway, but never below its break-even).
func (p *Player) counter(v monopoly.View, me int, o monopoly.TradeOffer, own trade.Valuer, gain, need float64) (monopoly.TradeOffer, bool) {
	r := v.Rules()
	if r.DealProtocol != monopoly.DealsOpen || v.TradeRound() >= r.CounterOffers {
		return monopoly.TradeOffer{}, false
	}
	if p.prof.style.hard && need-gain > hardGap*math.Max(math.Abs(need), 100) {
		return monopoly.TradeOffer{}, false // a hard bargainer counters only an offer that is nearly there
	}
	target := need
	if !p.prof.style.hard && (p.prof.style.rotate || v.TradeRound() > 0) {
		floor := -p.P.Generosity * math.Max(need, 100)
		target = max(min(need, floor), (gain+need)/2)
	}
	// Its side of the same exchange, cash left out.
	c := monopoly.TradeOffer{From: int8(me), To: o.From, GiveSquares: o.GetSquares, GetSquares: o.GiveSquares,
		GiveCards: o.GetCards, GetCards: o.GiveCards}
	assets, _ := own.Value(v, me, c)
	x := (target - assets) / own.Cash // the net cash it must receive
	switch {
	case x > 0:
		c.GetCash = int64(math.Ceil(x/5) * 5)
		if int(c.GetCash) > v.Cash(int(o.From)) {
			return monopoly.TradeOffer{}, false
		}
	default:
		c.GiveCash = int64(math.Floor(-x/5) * 5)
		if int(c.GiveCash) > v.Cash(me)-p.P.TradeReserve {
			return monopoly.TradeOffer{}, false
		}
	}
	if c == (monopoly.TradeOffer{From: int8(me), To: o.From, GiveSquares: o.GetSquares, GetSquares: o.GiveSquares,
		GiveCards: o.GetCards, GetCards: o.GiveCards, GiveCash: o.GetCash, GetCash: o.GiveCash}) {
		return monopoly.TradeOffer{}, false // nothing would change
	}
	a := monopoly.Action{Kind: monopoly.ActCounterTrade, Player: me, Offer: &c}
	if !trade.Fair(v, me, c) || v.Check(a) != nil {
		return monopoly.TradeOffer{}, false
	}
	return c, true
}

// answerSealed answers a sealed offer, whose cash it cannot see, with its
// own limit: the least net cash it takes from the proposer for the
// properties that change hands (or, negative, the most it pays), set so
// that its gain reaches accept_margin; a hard bargainer's margin is its
// hard bargain. It rejects outright when its price is more than the
// proposer has.
func (p *Player) answerSealed(v monopoly.View, me int, o monopoly.TradeOffer) monopoly.Action {
	f := &p.why
	own := p.own(v)
	assets, given := own.Value(v, me, o)
	need := p.P.AcceptMargin * math.Max(given, 100)
	x := max((need-assets)/own.Cash, trade.FairFloor(v, me, o))
	f.gain, f.need = int(math.Round(assets)), int(math.Round(need))
	a := monopoly.Action{Kind: monopoly.ActRejectTrade, Player: me}
	if x > 0 {
		floor := int(math.Ceil(x/5) * 5)
		f.limit = floor
		if floor > v.Cash(int(o.From)) {
			f.sit = sitReject
			return a
		}
		a.Kind, a.Arg, f.sit = monopoly.ActAcceptTrade, floor, sitSealedLimit
		return a
	}
	pay := min(int(math.Floor(-x/5)*5), max(0, v.Cash(me)-p.P.TradeReserve))
	a.Kind, a.Arg, f.sit, f.limit = monopoly.ActAcceptTrade, -pay, sitSealedLimit, -pay
	return a
}

// keySquare is the square a trade is mostly about: the dearest of mask;
// -1 for none.
func keySquare(r *monopoly.Rules, mask uint64) int {
	best, price := -1, -1
	for m := mask; m != 0; m &= m - 1 {
		if sq := bits.TrailingZeros64(m); r.Squares[sq].Price > price {
			best, price = sq, r.Squares[sq].Price
		}
	}
	return best
}

// learn notes whether its last proposal was refused: the squares it asked
// for (or, for a sale, offered) are then left alone for retry_turns. A
// counter-offer to it is still the same negotiation.
func (p *Player) learn(v monopoly.View, d monopoly.Decision) {
	o := &p.pending
	if !p.pendingSet {
		return
	}
	if d.Kind == monopoly.DecisionTradeResponse && p.negotiating(v, v.PendingOffer()) {
		return
	}
	p.pendingSet = false
	me := v.Me()
	owned := v.OwnedMask(me)
	accepted := owned&o.GetSquares == o.GetSquares && owned&o.GiveSquares == 0
	keys := o.GetSquares
	if keys == 0 {
		keys = o.GiveSquares
	}
	for m := keys; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if accepted {
			p.refusals[o.To][sq], p.refusedAt[o.To][sq] = 0, 0
			continue
		}
		p.refusedAt[o.To][sq] = int32(v.Turn())
		if p.refusals[o.To][sq] < math.MaxUint8 {
			p.refusals[o.To][sq]++
		}
	}
	*o = monopoly.TradeOffer{}
}

// Kinds of offer, for the words.
const (
	offerCompletion = iota + 1 // it completes one of its groups
	offerSwap                  // a swap completing a group on each side
	offerProspect              // a street of a group only the two of them hold
	offerRail                  // a railroad or utility (the Hustler's love)
	offerSale                  // selling to raise cash
	offerSell                  // selling a street that completes the partner's group
)

// splurge is how much more than fair it offers because its cash lies
// idle: nothing below twice reserve_max, up to splurge at four times.
func (p *Player) splurge(v monopoly.View, me int) float64 {
	top := 2 * max(p.P.ReserveMax, p.P.CashReserve)
	if p.P.Splurge <= 0 || top <= 0 {
		return 0
	}
	return p.P.Splurge * min(1, max(0, float64(v.Cash(me)-top)/float64(top)))
}

// raiseDiscount is the most under its own valuation a player short of
// cash sells for.
const raiseDiscount = -0.2

// sweetenChance is how often a generous player sweetens an offer that
// nobody has refused yet.
const sweetenChance = 0.25

type candidate struct {
	o    monopoly.TradeOffer
	own  float64
	kind int
	want int // the square it is about
}

// propose makes a trade proposal when its trade mood for the phase holds
// and an offer worth making exists; at most trades_per_phase a phase.
func (p *Player) propose(v monopoly.View, me int, raising bool) (monopoly.Action, bool) {
	key := v.Turn()*16 + int(v.Phase())*2
	if raising {
		key++
	}
	if key != p.phaseKey {
		p.phaseKey = key
		p.tradeMood = p.chance(p.P.TradeChance)
	}
	if !p.tradeMood || v.ProposalsLeft(me) == 0 {
		return monopoly.Action{}, false
	}
	c, ok := p.findOffer(v, me, raising)
	p.offer = c.o
	a := monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &p.offer}
	if !ok || v.Check(a) != nil {
		p.tradeMood = false // nothing to offer: no new search this phase
		return monopoly.Action{}, false
	}
	p.pending, p.pendingSet = c.o, true
	p.pending.From = int8(me)
	their, _ := trade.Neutral.Value(v, int(c.o.To), p.pending)
	f := &p.why
	f.sit, f.partner, f.offer, f.sq, f.kind = sitPropose, int(c.o.To), p.pending, c.want, c.kind
	f.gain, f.their = int(math.Round(c.own)), int(math.Round(their))
	if raising {
		f.sit = sitSale
	}
	return a, true
}

// findOffer looks for the offer to make: the best by its own valuation
// over all partners, or, for a player who deals with everyone in turn,
// one of the offers to the next partner that has any.
func (p *Player) findOffer(v monopoly.View, me int, raising bool) (candidate, bool) {
	n := v.Players()
	var best candidate
	found := false
	for k := range n {
		q := (p.partner + k) % n
		if q == me || v.Bankrupt(q) {
			continue
		}
		var cands [8]candidate
		list := p.candidates(v, me, q, raising, cands[:0])
		if len(list) == 0 {
			continue
		}
		if p.prof.style.rotate {
			p.partner = q + 1
			return list[p.rng.Uint64()%uint64(len(list))], true
		}
		for _, c := range list {
			if !found || c.own > best.own {
				best, found = c, true
			}
		}
	}
	return best, found
}

// tradable reports whether sq may change hands: no buildings in its group.
func tradable(v monopoly.View, sq int) bool {
	r := v.Rules()
	if r.Squares[sq].Kind != monopoly.KindStreet {
		return true
	}
	for _, s := range r.Groups[r.Squares[sq].Group].Squares {
		if v.Houses(s) > 0 {
			return false
		}
	}
	return true
}

// candidates lists the offers worth making to q (at most cap(buf)).
func (p *Player) candidates(v monopoly.View, me, q int, raising bool, buf []candidate) []candidate {
	r := v.Rules()
	mine, theirs := v.OwnedMask(me), v.OwnedMask(q)
	turn := v.Turn()
	if raising {
		// Sell one property outside its monopolies and sets, for what q
		// should pay, at most a little under its worth (mortgaging it
		// instead keeps it).
		for m := mine &^ v.MortgagedMask() &^ p.completeStreets(v, mine); m != 0 && len(buf) < cap(buf); m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			if !tradable(v, sq) || p.recentlyRefused(q, sq, turn) ||
				r.Squares[sq].Kind != monopoly.KindStreet && bits.OnesCount64(mine&r.GroupMask(sq)) > 1 {
				continue
			}
			o := monopoly.TradeOffer{From: int8(me), To: int8(q), GiveSquares: 1 << sq}
			if c, ok := p.price(v, me, q, o, sq, offerSale, raiseDiscount); ok {
				buf = append(buf, c)
			}
		}
		return buf
	}
	if p.prof.style.packages {
		// A dealer also sells: a street of its that completes q's group,
		// at the price of the group it hands over.
		for m := mine &^ v.MortgagedMask() &^ p.completeStreets(v, mine); m != 0 && len(buf) < cap(buf)/2; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			if !tradable(v, sq) || !bots.Completes(v, q, sq) || p.recentlyRefused(q, sq, turn) {
				continue
			}
			o := monopoly.TradeOffer{From: int8(me), To: int8(q), GiveSquares: 1 << sq}
			if c, ok := p.price(v, me, q, o, sq, offerSell, -p.P.Generosity); ok {
				buf = append(buf, c)
			}
		}
	}
	for m := theirs; m != 0 && len(buf) < cap(buf); m &= m - 1 {
		w := bits.TrailingZeros64(m)
		s := &r.Squares[w]
		if !tradable(v, w) || p.recentlyRefused(q, w, turn) {
			continue
		}
		kind := 0
		switch {
		case s.Kind == monopoly.KindStreet && bots.Completes(v, me, w):
			kind = offerCompletion
		case s.Kind == monopoly.KindStreet && p.prof.style.prospects && prospect(v, me, q, w):
			kind = offerProspect
		case s.Kind == monopoly.KindStreet && p.prof.style.collects && v.OwnedMask(me)&r.GroupMask(w) != 0:
			kind = offerProspect // a street of a group it has started: a stake, and trade bait
		case s.Kind != monopoly.KindStreet && p.P.RailWeight > 1:
			kind = offerRail
		default:
			continue
		}
		base := monopoly.TradeOffer{From: int8(me), To: int8(q), GetSquares: 1 << w}
		minOwn := -p.P.Generosity
		var best candidate
		found := false
		try := func(o monopoly.TradeOffer, kind int) {
			if c, ok := p.price(v, me, q, o, w, kind, minOwn); ok && (!found || c.own > best.own) {
				best, found = c, true
			}
		}
		try(base, kind)
		if kind == offerCompletion {
			// A swap that completes one of theirs too.
			for g := mine &^ p.completeStreets(v, mine); g != 0; g &= g - 1 {
				t := bits.TrailingZeros64(g)
				if r.Squares[t].Kind == monopoly.KindStreet && r.GroupMask(t) != r.GroupMask(w) && tradable(v, t) && bots.Completes(v, q, t) {
					o := base
					o.GiveSquares = 1 << t
					try(o, offerSwap)
				}
			}
		}
		if p.prof.style.packages {
			// A package: a street it has no prospects with, a jail card.
			o := base
			if j := junk(v, me, p.completeStreets(v, mine)); j >= 0 && r.GroupMask(j) != r.GroupMask(w) {
				o.GiveSquares = 1 << j
				try(o, kind)
			}
			if cards := v.JailCardBits(me); cards != 0 {
				o.GiveCards = cards & -cards
				try(o, kind)
			}
			// A makeweight standing in for the cash it would otherwise pay.
			if their, _ := trade.Neutral.Value(v, q, base); their < 0 {
				if j := makeweight(v, me, p.completeStreets(v, mine)|r.GroupMask(w), -their); j >= 0 {
					o := base
					o.GiveSquares = 1 << j
					try(o, kind)
				}
			}
		}
		if found {
			buf = append(buf, best)
		}
	}
	return buf
}

// recentlyRefused reports whether q refused a deal about sq less than
// retry_turns ago. A player who opens low may follow a first refusal at
// once with a fair offer: the Shark's "final offer".
func (p *Player) recentlyRefused(q, sq, turn int) bool {
	t := int(p.refusedAt[q][sq])
	if t == 0 || turn-t >= p.P.RetryTurns {
		return false
	}
	return !(p.P.AskMargin < 0 && p.refusals[q][sq] == 1)
}

// prospect reports whether w is a street of a group in which me owns
// some and nobody but me and q owns any: getting it brings me nearer.
func prospect(v monopoly.View, me, q, w int) bool {
	r := v.Rules()
	gm := r.GroupMask(w)
	if v.OwnedMask(me)&gm == 0 {
		return false
	}
	for _, sq := range r.Groups[r.Squares[w].Group].Squares {
		if o := v.Owner(sq); o >= 0 && o != me && o != q {
			return false
		}
	}
	return true
}

// junk is the street it would most gladly give away: the only one it
// holds of a group someone else has started, the cheapest such; -1: none.
func junk(v monopoly.View, me int, complete uint64) int {
	r := v.Rules()
	mine := v.OwnedMask(me)
	best, price := -1, math.MaxInt
	for m := mine &^ complete &^ v.MortgagedMask(); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		s := &r.Squares[sq]
		if s.Kind != monopoly.KindStreet || !tradable(v, sq) {
			continue
		}
		gm := r.GroupMask(sq)
		if bits.OnesCount64(mine&gm) != 1 {
			continue
		}
		started := false
		for _, o := range r.Groups[s.Group].Squares {
			if owner := v.Owner(o); owner >= 0 && owner != me {
				started = true
			}
		}
		if started && s.Price < price {
			best, price = sq, s.Price
		}
	}
	return best
}

// makeweight is the property it would put into a deal instead of cash
// worth about target: a street outside the groups of skip, of a group it
// is not about to complete, priced nearest target; -1: none.
func makeweight(v monopoly.View, me int, skip uint64, target float64) int {
	r := v.Rules()
	mine := v.OwnedMask(me)
	best, dist := -1, math.Inf(1)
	for m := mine &^ skip &^ v.MortgagedMask(); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		s := &r.Squares[sq]
		gm := r.GroupMask(sq)
		if s.Kind != monopoly.KindStreet || !tradable(v, sq) || bits.OnesCount64(mine&gm) >= bits.OnesCount64(gm)-1 {
			continue
		}
		if d := math.Abs(float64(s.Price) - target); d < dist {
			best, dist = sq, d
		}
	}
	return best
}

// price sets the cash of offer o so that q, by the neutral valuation,
// gains ask_margin of the value at stake (after a refusal: a fair price,
// sweetened by up to generosity), and returns it if the proposer's own
// gain is at least minOwn of what it gives and the cash can be paid.
func (p *Player) price(v monopoly.View, me, q int, o monopoly.TradeOffer, want, kind int, minOwn float64) (candidate, bool) {
	their, stake := trade.Neutral.Value(v, q, o)
	if kind == offerSale || kind == offerSell {
		stake, _ = trade.Neutral.Value(v, me, o)
		stake = -stake
	}
	ask := p.P.AskMargin
	refused := p.refusals[q][want] > 0
	if refused {
		ask = max(ask, 0) + float64(p.refusals[q][want])*p.P.AskStep
	}
	if p.P.Generosity > 0 && (refused || p.chance(sweetenChance)) {
		// Sweetened after a refusal, and now and then to look generous.
		ask += p.P.Generosity * float64(p.rng.Uint64()>>11) / (1 << 53)
	}
	splurge := p.splurge(v, me)
	ask += splurge
	minOwn -= splurge
	cash := ask*math.Max(stake, 100) - their // what the partner must receive
	if cash > 0 {
		o.GiveCash = int64(math.Ceil(cash/5) * 5)
	} else {
		o.GetCash = int64(math.Floor(-cash/5) * 5)
	}
	keep := p.P.TradeReserve
	if kind == offerCompletion || kind == offerSwap {
		// A group bought with nothing left to build on earns its price's
		// rent: keep the first house on each street.
		g := &v.Rules().Groups[v.Rules().Squares[want].Group]
		keep += g.HouseCost * len(g.Squares)
	}
	switch {
	case o.GiveCash > 0 && int(o.GiveCash) > v.Cash(me)-keep:
		return candidate{}, false
	case o.GetCash > int64(v.Cash(q)):
		return candidate{}, false
	case o.GiveSquares|o.GetSquares == 0:
		return candidate{}, false
	}
	gain, given := p.own(v).Value(v, me, o)
	if gain < minOwn*math.Max(given, 100) || !trade.Fair(v, me, o) {
		return candidate{}, false
	}
	return candidate{o: o, own: gain, kind: kind, want: want}, true
}
