// Package personality holds the four rule-based personalities of the LLM
// agent design (001): the Shark, the Professor, the Hustler and the
// Turtle. Each follows its profile and 001's comparison matrix (buy
// tendency, cash reserve, build speed, auction aggression, trade
// frequency, jail preference) and explains every decision it takes in
// its own voice: a public speech and a private thought, filled with the
// numbers of the decision. They answer as agent.Talker, the interface of
// the LLM personalities, whose fallback they are.
//
// One decision engine serves all four; a Profile is data: parameters
// (agent.Params, so per-seat overrides work), a few traits of style that
// are identity rather than tuning, and the personality's lines.
package personality

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
)

// Player is one personality in one seat of one game. Decide and Answer
// take the same decisions; Answer adds the words. Everything it draws at
// random comes from the seed it was made with.
type Player struct {
	prof *Profile
	P    agent.Params
	seat int
	rng  rand.PCG // decisions: moods, coins, sweeteners
	talk rand.PCG // the choice of lines: only Answer draws from it

	// Per-rules data, worked out when the rules change.
	rules *monopoly.Rules
	land  *worth.Landing // nil unless it values by landing frequencies
	fear  rentFear       // what its valuation fears of a rival's group (trade.Valuer.Fear points here)
	worth [monopoly.MaxSquares]float64

	// Moods drawn once per turn or per phase.
	moodTurn   int
	buildMood  bool
	phaseKey   int
	tradeMood  bool // it may propose in the current phase
	partner    int  // the next partner the Hustler turns to
	auctionKey int
	bidding    bool

	// Trades it proposed: the last one, to learn whether it was refused,
	// and when each partner last refused a square it asked for.
	offer      monopoly.TradeOffer // the proposal being made (Action.Offer points at it)
	pending    monopoly.TradeOffer
	pendingSet bool
	refusedAt  [monopoly.MaxPlayers][monopoly.MaxSquares]int32
	refusals   [monopoly.MaxPlayers][monopoly.MaxSquares]uint8

	res      int  // its reserve in the decision being taken
	resKnown bool // whether res is worked out yet

	why facts // what the last decision rested on, for its words
	voice
}

// New makes a personality for one seat of one game.
func New(prof *Profile, p agent.Params, seat int, seed uint64) *Player {
	pl := &Player{prof: prof, P: p}
	pl.Reset(seat, seed)
	return pl
}

// Profile returns the personality the player follows.
func (p *Player) Profile() *Profile { return p.prof }

// Reset implements agent.Resetter: a new game, the same parameters.
func (p *Player) Reset(seat int, seed uint64) {
	*p = Player{prof: p.prof, P: p.P, seat: seat, moodTurn: -1, phaseKey: -1, auctionKey: -1, partner: seat + 1}
	p.rng.Seed(seed, 0x9e3779b97f4a7c15)
	p.talk.Seed(seed^0xd1b54a32d192ed03, 0x2545f4914f6cdd1d)
}

// chance draws a coin that comes up with probability q.
func (p *Player) chance(q float64) bool {
	if q >= 1 {
		return true
	}
	if q <= 0 {
		return false
	}
	return float64(p.rng.Uint64()>>11)/(1<<53) < q
}

// Decide implements agent.Agent.
func (p *Player) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	return p.decide(v, d)
}

// Answer implements agent.Talker: the action Decide gives, with what the
// personality says about it and what it thinks.
func (p *Player) Answer(v monopoly.View, d monopoly.Decision) agent.Answer {
	a := p.decide(v, d)
	speech, thought := p.say(v, a)
	return agent.Answer{Action: a, Speech: speech, Thought: thought}
}

func (p *Player) setRules(r *monopoly.Rules) {
	p.rules = r
	p.land = nil
	if p.P.LandingWeight > 0 || p.P.Hurdle > 0 {
		p.land = worth.LandingOf(r)
	}
	for _, sq := range r.OwnableSquares() {
		s := &r.Squares[sq]
		w := float64(s.Price) * (1 + p.P.ValuationBias)
		if s.Kind != monopoly.KindStreet && p.P.RailWeight > 0 {
			w *= p.P.RailWeight
		}
		if p.land != nil && p.P.LandingWeight > 0 {
			// Bounded, so that no square is worth next to nothing or a
			// fortune whatever its measured frequency.
			w *= math.Min(1.5, math.Max(0.5, math.Pow(p.land.Rel[sq], p.P.LandingWeight)))
		}
		p.worth[sq] = w
	}
}

func (p *Player) decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if v.Rules() != p.rules {
		p.setRules(v.Rules())
	}
	p.resKnown = false
	p.learn(v, d)
	me := d.Player
	p.why = facts{sit: sitNone, sq: d.Square, group: -1, cash: v.Cash(me), partner: -1}
	switch d.Kind {
	case monopoly.DecisionManage:
		return p.manage(v, d)
	case monopoly.DecisionJail:
		return p.jail(v, me)
	case monopoly.DecisionBuy:
		return p.buy(v, d)
	case monopoly.DecisionBid:
		return p.bid(v, d)
	case monopoly.DecisionTradeResponse:
		return p.respond(v, me)
	case monopoly.DecisionRaiseCash:
		return p.raiseCash(v, d)
	case monopoly.DecisionMortgagedTransfer:
		return p.mortgagedTransfer(v, d)
	case monopoly.DecisionMovement:
		// Where to go is where it would most like to buy, by its own
		// taste in properties, or else where it pays least.
		return bots.BestMove(v, d, p.reserve(v), func(sq int) float64 { return p.worth[sq] })
	}
	return monopoly.Action{Kind: monopoly.ActContinue, Player: me}
}

// reserve is the cash it keeps back: cash_reserve, growing with the
// largest rent it could owe on the board up to reserve_max. It is worked
// out once per decision.
func (p *Player) reserve(v monopoly.View) int {
	lo, hi := p.P.CashReserve, p.P.ReserveMax
	if hi <= lo {
		return lo
	}
	if !p.resKnown {
		p.res, p.resKnown = min(hi, max(lo, exposure(v))), true
	}
	return p.res
}

// exposure is the largest rent the viewer could owe by landing on one
// square (utilities on a roll of 7).
func exposure(v monopoly.View) int {
	me := v.Me()
	worst := 0
	for p := range v.Players() {
		if p == me || v.Bankrupt(p) {
			continue
		}
		for m := v.OwnedMask(p) &^ v.MortgagedMask(); m != 0; m &= m - 1 {
			worst = max(worst, v.Rent(bits.TrailingZeros64(m), 7))
		}
	}
	return worst
}

func (p *Player) opponents(v monopoly.View) int {
	return max(1, v.Active()-1)
}

// buy decides on a property landed on. A property that completes one of
// its groups or blocks an opponent's is bought down to complete_reserve;
// another one down to its reserve, if it suits its taste.
func (p *Player) buy(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me, sq := d.Player, d.Square
	r := v.Rules()
	s := &r.Squares[sq]
	cash := v.Cash(me)
	f := &p.why
	f.price, f.after, f.reserve = d.Amount, cash-d.Amount, p.reserve(v)
	f.completes = bots.Completes(v, me, sq)
	f.blocks = !f.completes && bots.Strategic(v, me, sq)
	p.noteLanding(v, sq)
	a := monopoly.Action{Kind: monopoly.ActDecline, Player: me}
	switch {
	case !f.completes && p.P.BuyPriceCap > 0 && d.Amount > p.P.BuyPriceCap:
		f.sit, f.limit = sitDeclineTaste, p.P.BuyPriceCap
	case (f.completes || f.blocks || p.favours(s)) && f.after >= p.P.CompleteReserve:
		a.Kind, f.sit = monopoly.ActBuy, sitBuy
	case f.after < f.reserve:
		f.sit = sitDeclineCash
	case p.land != nil && p.P.Hurdle > 0 && f.roi < p.P.Hurdle:
		f.sit = sitDeclineTaste
	case s.Kind == monopoly.KindStreet && !p.chance(p.P.BuyChance):
		f.sit = sitDeclineMood
	default:
		a.Kind, f.sit = monopoly.ActBuy, sitBuy
	}
	return a
}

// favours reports whether the square is one it goes out of its way for:
// railroads and utilities for a player that values them above price.
func (p *Player) favours(s *monopoly.Square) bool {
	return s.Kind != monopoly.KindStreet && p.P.RailWeight > 1
}

// noteLanding fills in what the landing model says of sq.
func (p *Player) noteLanding(v monopoly.View, sq int) {
	if p.land == nil || sq < 0 {
		return
	}
	p.why.prob = p.land.Prob[sq]
	p.why.roi = p.land.TurnYield(sq)
}

// value is what it would pay for sq at auction.
func (p *Player) value(v monopoly.View, me, sq int) (value float64, strategic bool) {
	r := v.Rules()
	value = p.worth[sq]
	switch {
	case bots.Completes(v, me, sq):
		value *= p.P.BidCompletes
		return value, true
	case bots.Strategic(v, me, sq):
		value *= p.P.BidBlocks
		strategic = true
	case p.favours(&r.Squares[sq]):
		strategic = true
	default:
		value *= p.P.BidFactor
	}
	if p.P.BuyPriceCap > 0 && r.Squares[sq].Price > p.P.BuyPriceCap {
		// Above its price range it bids only for a bargain.
		value, strategic = p.worth[sq]*p.P.BidFactor*bargain, false
	}
	return value, strategic
}

// bargain is the share of its usual bid a player with a price range
// offers for a property above it (a "clear bargain at auction").
const bargain = 0.5

func (p *Player) bid(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me, sq := d.Player, d.Square
	r := v.Rules()
	price := r.Squares[sq].Price
	f := &p.why
	f.price, f.high, f.reserve = price, d.Amount, p.reserve(v)
	p.noteLanding(v, sq)
	if key := v.Turn()*monopoly.MaxSquares + sq; key != p.auctionKey {
		p.auctionKey = key
		p.bidding = p.chance(p.P.BidChance)
	}
	a := monopoly.Action{Kind: monopoly.ActDropOut, Player: me}
	value, strategic := p.value(v, me, sq)
	floor := f.reserve
	if strategic || p.prof.style.allIn {
		floor = p.P.CompleteReserve
	}
	f.completes = bots.Completes(v, me, sq)
	f.blocks = strategic && !f.completes
	limit := min(int(value), f.cash-floor)
	f.limit = limit
	if !p.bidding || limit <= 0 {
		f.sit, f.limit = sitSitOut, max(0, limit)
		return a
	}
	if d.Amount >= limit {
		f.sit = sitDropOut
		return a
	}
	bid := d.Amount + max(1, int(float64(price)*p.prof.style.bidStep))
	if o := int(float64(limit) * p.prof.style.bidOpen); bid < o {
		bid = o // an opening that tells the table who means business
	}
	bid = min(bid, limit)
	a.Kind, a.Arg = monopoly.ActBid, bid
	f.sit, f.amount = sitBid, bid
	return a
}

func (p *Player) jail(v monopoly.View, me int) monopoly.Action {
	r := v.Rules()
	f := &p.why
	f.amount, f.reserve = r.JailFine, p.reserve(v)
	f.level = bots.Unowned(v)
	a := monopoly.Action{Kind: monopoly.ActRollForDoubles, Player: me}
	f.sit = sitJailRoll
	if f.level >= p.P.JailLeaveUnowned {
		switch {
		case v.JailCardCount(me) > 0:
			a.Kind, a.Arg, f.sit = monopoly.ActUseJailCard, -1, sitJailCard
		case f.cash >= r.JailFine+p.P.CashReserve/2:
			a.Kind, f.sit = monopoly.ActPayJailFine, sitJailPay
		}
	}
	f.after = f.cash
	if a.Kind == monopoly.ActPayJailFine {
		f.after -= r.JailFine
	}
	return a
}

// manage is the turn's free moves: trades, building, mortgages.
func (p *Player) manage(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	if a, ok := p.propose(v, me, false); ok {
		return a
	}
	if v.Turn() != p.moodTurn {
		p.moodTurn = v.Turn()
		p.buildMood = p.chance(p.P.BuildChance)
	}
	if p.flush(v, me) {
		p.buildMood = true // idle cash burns a hole in any pocket
	}
	if p.prof.style.liftFirst {
		if a, ok := p.lift(v, me); ok {
			return a
		}
	}
	if a, ok := p.build(v, me); ok {
		return a
	}
	if !p.prof.style.liftFirst {
		if a, ok := p.lift(v, me); ok {
			return a
		}
	}
	f := &p.why
	if f.sit == sitNone {
		f.sit = sitPass
	}
	if f.hold != holdCash {
		f.reserve = p.reserve(v)
	}
	return monopoly.Action{Kind: monopoly.ActContinue, Player: me}
}

// flush reports whether its cash exceeds twice the top of its reserve.
func (p *Player) flush(v monopoly.View, me int) bool {
	return v.Cash(me) > 2*max(p.P.ReserveMax, p.P.CashReserve)
}

// lift lifts a mortgage when its cash exceeds rich_factor reserves.
func (p *Player) lift(v monopoly.View, me int) (monopoly.Action, bool) {
	r := v.Rules()
	cash := v.Cash(me)
	rich := int(math.Ceil(p.P.RichFactor * float64(p.reserve(v))))
	for m := v.OwnedMask(me) & v.MortgagedMask(); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if c := r.UnmortgageCost(sq); cash >= c+rich && v.CanUnmortgage(sq) {
			f := &p.why
			f.sit, f.sq, f.amount, f.after, f.reserve = sitUnmortgage, sq, c, cash-c, p.reserve(v)
			return monopoly.Action{Kind: monopoly.ActUnmortgage, Player: me, Arg: sq}, true
		}
	}
	return monopoly.Action{}, false
}

// build puts one house on one of its monopolies, evenly, in the order its
// style prefers, while it keeps its floor; the Shark mortgages elsewhere
// to pay, the Professor builds only what clears its hurdle, the Hustler
// only when in the mood.
func (p *Player) build(v monopoly.View, me int) (monopoly.Action, bool) {
	r := v.Rules()
	cash := v.Cash(me)
	owned := v.OwnedMask(me)
	best, bestScore, bestGroup := -1, math.Inf(-1), -1
	var bestROI float64
	for gi := range r.Groups {
		g := &r.Groups[gi]
		if len(g.Squares) == 0 || owned&g.Mask != g.Mask {
			continue
		}
		low, lowH := -1, 6
		for _, sq := range g.Squares {
			if h := v.Houses(sq); h < lowH {
				low, lowH = sq, h
			}
		}
		if lowH >= 5 || !v.CanBuild(low) {
			continue
		}
		roi := 0.0
		if p.land != nil {
			roi = p.planYield(v, gi)
			if p.P.Hurdle > 0 && roi < p.P.Hurdle {
				p.noteHold(gi, low, g.HouseCost, roi, holdROI)
				continue
			}
		}
		var score float64
		switch p.prof.style.buildOrder {
		case richestFirst:
			score = float64(g.HouseCost)
		case cheapestFirst:
			score = -float64(g.HouseCost)
		case bestYieldFirst:
			score = roi
		}
		if score > bestScore {
			best, bestScore, bestGroup, bestROI = low, score, gi, roi
		}
	}
	if best < 0 {
		return monopoly.Action{}, false
	}
	g := &r.Groups[bestGroup]
	cost := g.HouseCost
	floor := max(p.P.BuildReserve, int(p.P.BuildCover*float64(fullCost(g))))
	if !p.buildMood {
		p.noteHold(bestGroup, best, cost, bestROI, holdMood)
		return monopoly.Action{}, false
	}
	f := &p.why
	if cash-cost >= floor {
		h := v.Houses(best) + 1
		f.sit, f.sq, f.amount, f.after, f.level = sitBuild, best, cost, cash-cost, h
		f.rent, f.roi, f.reserve, f.group = r.Squares[best].Rent[h], bestROI, floor, bestGroup
		if p.land != nil {
			f.prob = p.land.Prob[best]
		}
		return monopoly.Action{Kind: monopoly.ActBuild, Player: me, Arg: best}, true
	}
	if p.P.BuildOnCredit > 0 {
		// Mortgage outside its monopolies, smallest loan first, when the
		// loans it could raise there pay for the house.
		outside := owned &^ v.MortgagedMask() &^ p.completeStreets(v, owned)
		if sq := bots.SmallestMortgage(v, outside); sq >= 0 && cash+loans(v, outside)-cost >= floor {
			f.sit, f.sq, f.amount, f.after, f.group = sitMortgageToBuild, sq, r.Squares[sq].Mortgage, cash+r.Squares[sq].Mortgage, bestGroup
			return monopoly.Action{Kind: monopoly.ActMortgage, Player: me, Arg: sq}, true
		}
	}
	if cash >= cost {
		p.noteHold(bestGroup, best, cost, bestROI, holdCash)
		f.reserve = floor
	}
	return monopoly.Action{}, false
}

// fullCost is what developing a group to hotels costs: five buildings a
// street.
func fullCost(g *monopoly.Group) int { return 5 * g.HouseCost * len(g.Squares) }

// Why it held back from building.
const (
	holdCash = iota + 1 // it would fall below its floor
	holdROI             // the return does not clear the hurdle
	holdMood            // the Hustler is not in the mood
)

func (p *Player) noteHold(group, sq, cost int, roi float64, why int) {
	f := &p.why
	if f.hold != 0 {
		return
	}
	f.hold, f.group, f.sq, f.amount, f.roi = why, group, sq, cost, roi
}

// planYield is the Professor's return on building group gi: the best,
// over the levels it could build the group up to, of the extra rent an
// opponent's turn brings per dollar of houses, by the landing model. (Even building makes the first house on a street a step towards
// the third, where the rent tables jump.)
func (p *Player) planYield(v monopoly.View, gi int) float64 {
	r := v.Rules()
	g := &r.Groups[gi]
	best := 0.0
	for target := 1; target <= 5; target++ {
		gain, houses := 0.0, 0
		for _, sq := range g.Squares {
			h := v.Houses(sq)
			if h >= target {
				continue
			}
			now := v.Rent(sq, 7)
			gain += p.land.PerTurn(sq, r.Squares[sq].Rent[target]-now)
			houses += target - h
		}
		if houses > 0 {
			best = max(best, gain/float64(houses*g.HouseCost))
		}
	}
	return best
}

// completeStreets is the set of streets in its complete colour groups.
func (p *Player) completeStreets(v monopoly.View, owned uint64) uint64 {
	var m uint64
	for gi := range v.Rules().Groups {
		if gm := v.Rules().Groups[gi].Mask; gm != 0 && owned&gm == gm {
			m |= gm
		}
	}
	return m
}

// loans is what mortgaging every square of mask it may mortgage raises.
func loans(v monopoly.View, mask uint64) int {
	total := 0
	for m := mask; m != 0; m &= m - 1 {
		if sq := bits.TrailingZeros64(m); v.CanMortgage(sq) {
			total += v.Rules().Squares[sq].Mortgage
		}
	}
	return total
}

// raiseCash pays a debt: first, perhaps, by selling a property to another
// player; then by mortgaging outside its monopolies, selling buildings
// (evenly, cheapest group first), and mortgaging the rest; bankruptcy only
// when nothing is left.
func (p *Player) raiseCash(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	r := v.Rules()
	f := &p.why
	f.debt, f.partner = d.Amount, v.Counterparty()
	if a, ok := p.propose(v, me, true); ok {
		return a
	}
	owned := v.OwnedMask(me)
	unmortgaged := owned &^ v.MortgagedMask()
	groups := p.completeStreets(v, owned)
	mortgage := func(sq int) monopoly.Action {
		f.sit, f.sq, f.amount, f.after = sitRaiseMortgage, sq, r.Squares[sq].Mortgage, f.cash+r.Squares[sq].Mortgage
		return monopoly.Action{Kind: monopoly.ActMortgage, Player: me, Arg: sq}
	}
	if sq := p.cheapestToMortgage(v, unmortgaged&^groups); sq >= 0 {
		return mortgage(sq)
	}
	if sell, sellCost := bots.CheapestSale(v, owned); sell >= 0 {
		f.sit, f.sq, f.amount, f.after = sitRaiseSell, sell, sellCost/2, f.cash+sellCost/2
		return monopoly.Action{Kind: monopoly.ActSellBuilding, Player: me, Arg: sell}
	}
	if sq := p.cheapestToMortgage(v, unmortgaged&groups); sq >= 0 {
		return mortgage(sq)
	}
	f.sit = sitBankrupt
	return monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: me}
}

// cheapestToMortgage picks what to mortgage first: the smallest loan, or
// for a player with a landing model the square earning least per dollar.
func (p *Player) cheapestToMortgage(v monopoly.View, mask uint64) int {
	if p.land == nil {
		return bots.SmallestMortgage(v, mask)
	}
	best, score := -1, math.Inf(1)
	for m := mask; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		if s := p.land.Yield[sq]; s < score && v.CanMortgage(sq) {
			best, score = sq, s
		}
	}
	return best
}

func (p *Player) mortgagedTransfer(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	r := v.Rules()
	f := &p.why
	lift := d.Amount + r.Squares[d.Square].Mortgage
	f.amount, f.reserve = d.Amount, p.reserve(v)
	f.sit, f.after = sitKeepMortgaged, f.cash-d.Amount
	if f.cash-lift >= f.reserve {
		f.sit, f.after, f.amount = sitLiftMortgaged, f.cash-lift, lift
		return monopoly.Action{Kind: monopoly.ActLiftMortgage, Player: me}
	}
	return monopoly.Action{Kind: monopoly.ActKeepMortgaged, Player: me}
}
