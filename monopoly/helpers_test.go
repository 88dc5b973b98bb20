package monopoly_test

// Shared helpers of the engine's property tests: the invariant checker
// used after every Apply by invariant_test.go and fuzz_test.go, the
// generators of arbitrary and of certainly illegal actions, and the test
// agents.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

// variant is a rule set the property tests play under.
type variant struct {
	name string
	yaml string
}

// variants are the rule variants of the property tests. "scarce" makes
// the housing shortage (8.1, 8.2) frequent.
var variants = []variant{
	{"default", ""},
	{"jackpot", "free_parking_jackpot: true"},
	{"lesser_tax", "income_tax: lesser"},
	{"no_auctions", "auctions: false"},
	{"no_mortgaged_double", "mortgaged_group_double_rent: false\nmortgaged_railroads_count: false"},
	{"all_variants", "free_parking_jackpot: true\nincome_tax: lesser\nauctions: false\nmortgaged_group_double_rent: false\ndeal_protocol: sealed"},
	{"speed_die", "speed_die: true\nspeed_die_faces: [1, 2, 3, mr_monopoly, bus, bus]\nfree_parking_jackpot: true"},
	{"scarce", "max_houses: 10\nmax_hotels: 2\nstarting_cash: 2500\njail_turns: 1\ntrades_per_phase: 3\ntrades_per_turn: 4\ncounter_offers: 3"},
	{"monopyly", "raise_to_buy: true\ndeal_protocol: sealed\nnet_worth: resale"},
}

// src is a source of small integers: a seeded generator in the property
// tests, the fuzzer's bytes in the fuzz tests.
type src interface {
	Intn(n int) int
}

type rngSrc struct{ r *rand.Rand }

func (s rngSrc) Intn(n int) int { return s.r.IntN(n) }

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909)) }

// byteSrc reads integers from fuzzer bytes; it gives zeros when they run
// out.
type byteSrc struct {
	data []byte
	pos  int
}

func (s *byteSrc) byte() byte {
	if s.pos >= len(s.data) {
		return 0
	}
	b := s.data[s.pos]
	s.pos++
	return b
}

func (s *byteSrc) left() bool { return s.pos < len(s.data) }

func (s *byteSrc) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	for range (bits.Len(uint(n-1)) + 7) / 8 {
		v = v<<8 | int(s.byte())
	}
	return v % n
}

// ---------------------------------------------------------------------
// Agents

// chaosAgent plays like the random bot but also proposes arbitrary trades
// (properties, mortgaged ones included, cash and jail cards), bids
// arbitrary amounts and may go bankrupt before selling its buildings, so
// that trades, mortgaged transfers, contested auctions and estates with
// buildings happen often.
type chaosAgent struct {
	rnd   *bots.Random
	rng   *rand.Rand
	offer monopoly.TradeOffer
}

func newChaos(seed uint64) *chaosAgent {
	return &chaosAgent{rnd: bots.NewRandom(seed), rng: newRNG(seed + 1)}
}

func (c *chaosAgent) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	me := d.Player
	switch d.Kind {
	case monopoly.DecisionManage, monopoly.DecisionRaiseCash:
		if d.Kind == monopoly.DecisionRaiseCash && c.rng.IntN(4) == 0 {
			// Gives up as soon as the rules allow, buildings and all.
			a := monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: me}
			if v.Check(a) == nil {
				return a
			}
		}
		if c.rng.IntN(6) == 0 {
			c.offer = randomOffer(rngSrc{c.rng}, v, me)
			a := monopoly.Action{Kind: monopoly.ActProposeTrade, Player: me, Offer: &c.offer}
			if v.Check(a) == nil {
				return a
			}
		}
	case monopoly.DecisionTradeResponse:
		switch c.rng.IntN(3) {
		case 0: // counter, where the rules allow it
			c.offer = randomOfferTo(rngSrc{c.rng}, v, me, v.Counterparty())
			a := monopoly.Action{Kind: monopoly.ActCounterTrade, Player: me, Offer: &c.offer}
			if v.Check(a) == nil {
				return a
			}
		case 1: // a sealed limit anywhere from paying all it has to asking a lot
			if v.Rules().DealProtocol == monopoly.DealsSealed {
				return monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: me, Arg: c.rng.IntN(v.Cash(me)+800) - v.Cash(me)}
			}
		}
	case monopoly.DecisionBid:
		if hi := min(v.Cash(me), 2*v.Rules().Squares[d.Square].Price); hi > d.Amount && c.rng.IntN(2) == 0 {
			return monopoly.Action{Kind: monopoly.ActBid, Player: me, Arg: d.Amount + 1 + c.rng.IntN(hi-d.Amount)}
		}
	}
	return c.rnd.Decide(v, d)
}

// randomOffer makes a plausible offer from me: random parts of what each
// side holds.
func randomOffer(s src, v monopoly.View, me int) monopoly.TradeOffer {
	n := v.Players()
	return randomOfferTo(s, v, me, (me+1+s.Intn(n-1))%n)
}

// randomOfferTo makes a plausible offer from me to to. Under sealed deals
// it sets one cash limit at most, as a legal offer does.
func randomOfferTo(s src, v monopoly.View, me, to int) monopoly.TradeOffer {
	o := monopoly.TradeOffer{To: int8(to)}
	pick := func(m uint64) uint64 {
		var out uint64
		for ; m != 0; m &= m - 1 {
			if s.Intn(3) == 0 {
				out |= m & -m
			}
		}
		return out
	}
	o.GiveSquares = pick(v.OwnedMask(me))
	o.GetSquares = pick(v.OwnedMask(to))
	if s.Intn(3) == 0 {
		o.GiveCash = int64(s.Intn(v.Cash(me)/2 + 1))
	}
	if s.Intn(3) == 0 {
		o.GetCash = int64(s.Intn(v.Cash(to)/2 + 1))
	}
	o.GiveCards = v.JailCardBits(me) & uint8(s.Intn(256))
	o.GetCards = v.JailCardBits(to) & uint8(s.Intn(256))
	if v.Rules().DealProtocol == monopoly.DealsSealed && o.GiveCash != 0 && s.Intn(4) != 0 {
		if s.Intn(2) == 0 {
			o.GiveCash = 0
		} else {
			o.GetCash = 0
		}
	}
	return o
}

// decider is what the tests need of an agent.
type decider interface {
	Decide(v monopoly.View, d monopoly.Decision) monopoly.Action
}

// seatAgents makes one agent per seat; kinds cycles through "random",
// "baseline" and "chaos".
func seatAgents(kinds []string, n int, seed uint64) []decider {
	as := make([]decider, n)
	for i := range as {
		s := seed*1000003 + uint64(i)*7919 + 1
		switch kinds[i%len(kinds)] {
		case "random":
			as[i] = bots.NewRandom(s)
		case "baseline":
			as[i] = bots.NewBaseline(bots.BaselineParams())
		default:
			as[i] = newChaos(s)
		}
	}
	return as
}

// decide asks the agent of the pending decision for its action.
func decide(g *monopoly.Game, as []decider) monopoly.Action {
	d := g.Pending()
	return as[d.Player].Decide(g.View(d.Player), d)
}

// ---------------------------------------------------------------------
// Actions

// arbitraryAction makes any action at all: any kind (kinds beyond the
// last one included when wild), any player, square, amount, deck and
// offer.
func arbitraryAction(s src, g *monopoly.Game, wild bool) monopoly.Action {
	n := g.Players()
	nk := int(monopoly.ActMove) + 1
	if wild {
		nk += 3
	}
	a := monopoly.Action{
		Kind:   monopoly.ActionKind(s.Intn(nk)),
		Player: s.Intn(n+2) - 1,
		Arg:    s.Intn(len(g.Rules().Squares)+4) - 2,
	}
	if s.Intn(2) == 0 {
		a.Player = g.Pending().Player
	}
	switch s.Intn(5) {
	case 0:
		a.Arg = s.Intn(3) - 1
	case 1:
		a.Arg = g.Pending().Amount + s.Intn(5) - 2
	case 2:
		a.Arg = s.Intn(5000)
	case 3:
		a.Arg = []int{-1 << 31, 1<<31 - 1, 1 << 31, -1 << 40, 1 << 40}[s.Intn(5)]
	}
	if a.Kind == monopoly.ActProposeTrade || a.Kind == monopoly.ActCounterTrade || s.Intn(8) == 0 {
		if s.Intn(8) != 0 {
			o := arbitraryOffer(s, g, a.Player)
			a.Offer = &o
		}
	}
	return a
}

// arbitraryOffer makes any trade offer: sometimes plausible, sometimes
// nonsense (squares off the board, negative cash, absent players).
func arbitraryOffer(s src, g *monopoly.Game, from int) monopoly.TradeOffer {
	n := g.Players()
	v := g.View(max(0, min(from, n-1)))
	o := monopoly.TradeOffer{From: int8(s.Intn(n+2) - 1), To: int8(s.Intn(n+2) - 1)}
	if s.Intn(2) == 0 && from >= 0 && from < n {
		o = randomOffer(s, v, from)
	}
	mask := func() uint64 {
		switch s.Intn(4) {
		case 0:
			return 1 << s.Intn(64)
		case 1:
			return uint64(s.Intn(1<<32))<<32 | uint64(s.Intn(1<<32))
		}
		return 0
	}
	if s.Intn(3) == 0 {
		o.GiveSquares ^= mask()
	}
	if s.Intn(3) == 0 {
		o.GetSquares ^= mask()
	}
	cash := func() int64 {
		switch s.Intn(4) {
		case 0:
			return int64(s.Intn(3000))
		case 1:
			return -int64(s.Intn(100)) - 1
		case 2:
			return int64(s.Intn(1 << 31))
		}
		return 0
	}
	if s.Intn(3) == 0 {
		o.GiveCash = cash()
	}
	if s.Intn(3) == 0 {
		o.GetCash = cash()
	}
	if s.Intn(4) == 0 {
		o.GiveCards ^= uint8(s.Intn(256))
	}
	if s.Intn(4) == 0 {
		o.GetCards ^= uint8(s.Intn(256))
	}
	return o
}

// illegalAction makes an action that the rules certainly forbid now, with
// the reason; ok is false when the chosen kind of mistake is not possible
// in this position.
func illegalAction(s src, g *monopoly.Game) (a monopoly.Action, why string, ok bool) {
	d := g.Pending()
	p := d.Player
	n := g.Players()
	r := g.Rules()
	nsq := len(r.Squares)
	v := g.View(p)
	a = monopoly.Action{Player: p}
	switch s.Intn(11) {
	case 0: // the right answer from the wrong player
		legal := g.LegalActions(nil)
		if len(legal) == 0 {
			return a, "", false
		}
		a = legal[s.Intn(len(legal))]
		a.Player = (p + 1 + s.Intn(n+1)) % (n + 2)
		if a.Player == p {
			a.Player = -1
		}
		return a, "another player's decision", true
	case 1: // build on a square the decider does not own
		sq := s.Intn(nsq)
		if g.Owner(sq) == p {
			return a, "", false
		}
		a.Kind, a.Arg = monopoly.ActBuild, sq
		return a, "build on a square not owned", true
	case 2: // a bid not above the high bid, or above the funds
		if d.Kind != monopoly.DecisionBid {
			a.Kind, a.Arg = monopoly.ActBid, 1+s.Intn(100)
			return a, "bid outside an auction", true
		}
		a.Kind = monopoly.ActBid
		if s.Intn(2) == 0 {
			a.Arg = d.Amount - s.Intn(d.Amount+3)
			return a, "bid not above the high bid", true
		}
		a.Arg = funds(g, p) + 1 + s.Intn(1000)
		return a, "bid above the funds", true
	case 3: // an answer to another kind of decision
		other := map[monopoly.ActionKind]monopoly.DecisionKind{
			monopoly.ActBuy:               monopoly.DecisionBuy,
			monopoly.ActDecline:           monopoly.DecisionBuy,
			monopoly.ActDropOut:           monopoly.DecisionBid,
			monopoly.ActAcceptTrade:       monopoly.DecisionTradeResponse,
			monopoly.ActRejectTrade:       monopoly.DecisionTradeResponse,
			monopoly.ActPayJailFine:       monopoly.DecisionJail,
			monopoly.ActRollForDoubles:    monopoly.DecisionJail,
			monopoly.ActKeepMortgaged:     monopoly.DecisionMortgagedTransfer,
			monopoly.ActLiftMortgage:      monopoly.DecisionMortgagedTransfer,
			monopoly.ActDeclareBankruptcy: monopoly.DecisionRaiseCash,
			monopoly.ActContinue:          monopoly.DecisionManage,
		}
		k := monopoly.ActionKind(1 + s.Intn(int(monopoly.ActLiftMortgage)))
		want, ok := other[k]
		if !ok || want == d.Kind {
			return a, "", false
		}
		a.Kind = k
		return a, fmt.Sprintf("%s does not answer %s", k, d.Kind), true
	case 4: // mortgage what is mortgaged or not one's own
		sq := s.Intn(nsq)
		if g.Owner(sq) == p && !g.Mortgaged(sq) {
			return a, "", false
		}
		a.Kind, a.Arg = monopoly.ActMortgage, sq
		return a, "mortgage a mortgaged or foreign square", true
	case 5: // lift a mortgage that is not there
		sq := s.Intn(nsq)
		if g.Mortgaged(sq) && g.Owner(sq) == p {
			return a, "", false
		}
		a.Kind, a.Arg = monopoly.ActUnmortgage, sq
		return a, "unmortgage an unmortgaged or foreign square", true
	case 6: // sell a building that is not there
		sq := s.Intn(nsq+20) - 10
		if sq >= 0 && sq < nsq && g.Houses(sq) > 0 && g.Owner(sq) == p {
			return a, "", false
		}
		a.Kind, a.Arg = monopoly.ActSellBuilding, sq
		return a, "sell a building that is not there", true
	case 7: // trade what one does not have
		o := randomOffer(s, v, p)
		switch s.Intn(5) {
		case 0:
			sq := s.Intn(nsq)
			for k := 0; k < nsq && g.Owner(sq) == p; k++ {
				sq = (sq + 1) % nsq
			}
			if g.Owner(sq) == p {
				return a, "", false
			}
			o.GiveSquares |= 1 << sq
		case 1:
			o.To = int8(p)
		case 2:
			o.GiveCash = int64(v.Cash(p)) + 1 + int64(s.Intn(100))
		case 3:
			o.GetCash = -1 - int64(s.Intn(100))
		case 4:
			o = monopoly.TradeOffer{To: o.To}
		}
		a.Kind, a.Offer = monopoly.ActProposeTrade, &o
		return a, "trade what one cannot", true
	case 8: // a jail card one does not hold
		for dk := range r.Decks {
			if b, ok := r.JailCardBit(dk); ok && v.JailCardBits(p)&b == 0 {
				a.Kind, a.Arg = monopoly.ActUseJailCard, dk
				return a, "use a jail card not held", true
			}
		}
		return a, "", false
	case 9: // bankruptcy while selling and mortgaging would pay
		if d.Kind == monopoly.DecisionRaiseCash && g.LiquidationValue(p) < d.Amount {
			return a, "", false
		}
		a.Kind = monopoly.ActDeclareBankruptcy
		return a, "bankruptcy while solvent", true
	default: // no kind at all
		a.Kind = monopoly.ActNone
		return a, "no action", true
	}
}

// ---------------------------------------------------------------------
// The checker

// checker checks every Apply of one game: refused actions change nothing;
// accepted ones move money exactly as their events say and leave every
// invariant of the rules standing.
type checker struct {
	r        *monopoly.Rules
	uneven   []bool // per group: left uneven by a hotel sale in a housing shortage (8.2)
	keepDeck []int  // per jail-card bit: its deck
	keepCard []int  // per jail-card bit: its card
	scratch  bool   // checking a copy: events are not counted
	steps    int    // actions applied
	refused  int    // actions refused
	events   map[monopoly.EventKind]int
	flagged  map[monopoly.EventKind]int // events with Flag set: counter-offers, sealed limits that did not meet
	debts    map[monopoly.Reason]int    // debts to raise cash for, by reason
	shortage int                        // hotel sales in a housing shortage
	estates  int                        // streets with buildings sold in a bankruptcy
	rentSeen int                        // rents checked against the rent tables
}

func newChecker(g *monopoly.Game) *checker {
	r := g.Rules()
	c := &checker{r: r, uneven: make([]bool, len(r.Groups)), events: map[monopoly.EventKind]int{}, flagged: map[monopoly.EventKind]int{},
		debts: map[monopoly.Reason]int{}}
	for d, deck := range r.Decks {
		for i, card := range deck.Cards {
			if card.Keep {
				c.keepDeck = append(c.keepDeck, d)
				c.keepCard = append(c.keepCard, i)
			}
		}
	}
	return c
}

// try applies a to g (which records events) and checks the result: an
// error must leave the state as it was, with no event, and agree with
// Check; a success must keep every invariant. applied reports whether a
// was carried out; bad is the first broken invariant.
func (c *checker) try(g *monopoly.Game, a monopoly.Action) (applied bool, bad error) {
	pre := g.Clone()
	g.TakeEvents()
	checkErr := g.Check(a)
	err := g.Apply(a)
	evs := g.TakeEvents()
	if (checkErr == nil) != (err == nil) {
		return err == nil, fmt.Errorf("%s: Check says %v but Apply says %v", showAction(a), checkErr, err)
	}
	if err != nil {
		c.refused++
		if !g.SameState(pre) {
			return false, fmt.Errorf("%s: refused (%v) but the state changed", showAction(a), err)
		}
		if len(evs) != 0 {
			return false, fmt.Errorf("%s: refused (%v) but emitted %d events", showAction(a), err, len(evs))
		}
		msg := err.Error()
		var re *monopoly.RuleError
		switch {
		case msg == "" || strings.Contains(msg, "%!"):
			return false, fmt.Errorf("%s: malformed error message %q", showAction(a), msg)
		case !errors.As(err, &re) && !errors.Is(err, monopoly.ErrGameOver) && !errors.Is(err, monopoly.ErrNoDice):
			return false, fmt.Errorf("%s: error %v is not a *RuleError", showAction(a), err)
		case re != nil && (re.Code == monopoly.RefusalNone || !strings.HasPrefix(re.Rule, re.Code.Rule()) && !strings.Contains(re.Rule, ": "+re.Code.Rule())):
			return false, fmt.Errorf("%s: code %s does not match the rule %q", showAction(a), re.Code, re.Rule)
		}
		return false, nil
	}
	c.steps++
	if err := c.applied(pre, g, a, evs); err != nil {
		return true, fmt.Errorf("after %s (step %d, %s): %w", showAction(a), c.steps, pre.Pending().Kind, err)
	}
	return true, nil
}

func showAction(a monopoly.Action) string {
	s := fmt.Sprintf("{%d %d arg=%d", a.Kind, a.Player, a.Arg)
	if a.Offer != nil {
		s += fmt.Sprintf(" offer=%+v", *a.Offer)
	}
	return s + "}"
}

// tryIllegal applies a, which must be refused, to a copy of g.
func (c *checker) tryIllegal(g *monopoly.Game, a monopoly.Action, why string) error {
	h := g.Clone()
	applied, bad := c.tryOn(h, a)
	if bad != nil {
		return bad
	}
	if applied {
		return fmt.Errorf("illegal action (%s) %s was accepted in %+v", why, showAction(a), g.Pending())
	}
	if !h.SameState(g) {
		return fmt.Errorf("illegal action (%s) changed the game", why)
	}
	return nil
}

// tryOn is try on a scratch copy: the checker's memory (uneven groups,
// counts) is not advanced.
func (c *checker) tryOn(h *monopoly.Game, a monopoly.Action) (bool, error) {
	saved := *c
	saved.uneven = append([]bool(nil), c.uneven...)
	c.scratch = true
	applied, bad := c.try(h, a)
	refused := c.refused
	*c = saved
	c.refused = refused
	return applied, bad
}

// applied checks an accepted action that took pre to g emitting evs.
func (c *checker) applied(pre, g *monopoly.Game, a monopoly.Action, evs []monopoly.Event) error {
	if !c.scratch {
		for _, e := range evs {
			c.events[e.Kind]++
			if e.Flag {
				c.flagged[e.Kind]++
			}
			if e.Kind == monopoly.EvDebt {
				c.debts[e.Reason]++
			}
		}
	}
	if err := c.checkLedger(pre, g, a, evs); err != nil {
		return err
	}
	shortageGroups, err := c.checkBuildingEvents(pre, g, evs)
	if err != nil {
		return err
	}
	if err := c.checkRents(pre, evs); err != nil {
		return err
	}
	if err := checkSpeedDie(pre, g, a, evs); err != nil {
		return err
	}
	if a.Kind == monopoly.ActDeclareBankruptcy {
		if !g.Bankrupt(a.Player) {
			return fmt.Errorf("player %d declared bankruptcy but is not bankrupt", a.Player)
		}
		if owed := pre.Pending().Amount; pre.LiquidationValue(a.Player) >= owed {
			return fmt.Errorf("bankruptcy allowed with liquidation value %d for a debt of %d (7.9)", pre.LiquidationValue(a.Player), owed)
		}
	}
	if err := c.checkEvenBuilding(pre, g, shortageGroups); err != nil {
		return err
	}
	if err := checkState(g); err != nil {
		return err
	}
	if c.steps%61 == 0 || g.Over() {
		if err := c.checkDecks(g); err != nil {
			return err
		}
	}
	if k := g.Pending().Kind; g.Over() || c.steps%11 == 0 && k != monopoly.DecisionManage && k != monopoly.DecisionBuy {
		return checkSaved(g)
	}
	return nil
}

// checkSaved checks that g, saved, reads back as the same position: the
// rarer decisions (raising cash, auctions, negotiations, mortgaged
// transfers, jail) and every finished game are where a saved game could
// hold what validation does not expect.
func checkSaved(g *monopoly.Game) error {
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("saving: %v", err)
	}
	h, err := monopoly.UnmarshalGame(data)
	if err != nil {
		return fmt.Errorf("a saved game does not load: %v", err)
	}
	if !h.SameState(g) {
		return fmt.Errorf("a saved game loads as another position")
	}
	return nil
}

// checkLedger replays the money movements the events describe onto the
// accounts before the action and compares with the accounts after it.
func (c *checker) checkLedger(pre, g *monopoly.Game, a monopoly.Action, evs []monopoly.Event) error {
	n := g.Players()
	cash := make([]int64, n)
	for i := range cash {
		cash[i] = int64(pre.Cash(i))
	}
	jackpot, bank := int64(pre.JackpotCash()), pre.BankFlow()
	account := func(who int8) (*int64, error) {
		switch {
		case who == monopoly.Bank:
			return &bank, nil
		case who == monopoly.Jackpot:
			return &jackpot, nil
		case who >= 0 && int(who) < n:
			return &cash[who], nil
		}
		return nil, fmt.Errorf("no account %d", who)
	}
	// bank counts money paid out by the bank, so it moves the other way.
	move := func(from, to int8, amt int64) error {
		if amt < 0 {
			return fmt.Errorf("negative amount %d from %d to %d", amt, from, to)
		}
		f, err := account(from)
		if err != nil {
			return err
		}
		t, err := account(to)
		if err != nil {
			return err
		}
		if from == monopoly.Bank {
			*f += amt
		} else {
			*f -= amt
		}
		if to == monopoly.Bank {
			*t -= amt
		} else {
			*t += amt
		}
		return nil
	}
	r := c.r
	for i, e := range evs {
		var err error
		amt := int64(e.Amount)
		switch e.Kind {
		case monopoly.EvSalary:
			if e.Amount != int64(r.GoSalary) {
				return fmt.Errorf("salary %d, want %d (8.5)", e.Amount, r.GoSalary)
			}
			err = move(monopoly.Bank, e.Player, amt)
		case monopoly.EvBuy:
			if int(e.Amount) != r.Squares[e.Square].Price {
				return fmt.Errorf("bought %s for %d, price %d (7.4)", r.Squares[e.Square].Name, e.Amount, r.Squares[e.Square].Price)
			}
			err = move(e.Player, monopoly.Bank, amt)
		case monopoly.EvAuctionWon:
			if e.Amount < 1 {
				return fmt.Errorf("auction won for %d (8.3: at least 1)", e.Amount)
			}
			err = move(e.Player, monopoly.Bank, amt)
		case monopoly.EvBuild:
			if int(e.Amount) != r.HouseCost(int(e.Square)) {
				return fmt.Errorf("building on %s cost %d, want %d", r.Squares[e.Square].Name, e.Amount, r.HouseCost(int(e.Square)))
			}
			err = move(e.Player, monopoly.Bank, amt)
		case monopoly.EvUnmortgage:
			if int(e.Amount) != r.UnmortgageCost(int(e.Square)) {
				return fmt.Errorf("unmortgage of %s cost %d, want %d (7.6)", r.Squares[e.Square].Name, e.Amount, r.UnmortgageCost(int(e.Square)))
			}
			err = move(e.Player, monopoly.Bank, amt)
		case monopoly.EvSellBuilding:
			err = move(monopoly.Bank, e.Player, amt)
		case monopoly.EvMortgage:
			if int(e.Amount) != r.Squares[e.Square].Mortgage {
				return fmt.Errorf("mortgage of %s paid %d, want %d (7.6)", r.Squares[e.Square].Name, e.Amount, r.Squares[e.Square].Mortgage)
			}
			err = move(monopoly.Bank, e.Player, amt)
		case monopoly.EvRent, monopoly.EvPay:
			err = move(e.Player, e.Other, amt)
		case monopoly.EvTradeAccepted:
			o := e.Trade
			if err = move(o.From, o.To, int64(o.GiveCash)); err == nil {
				err = move(o.To, o.From, int64(o.GetCash))
			}
		case monopoly.EvMortgagedTransfer:
			fee := r.TransferFee(int(e.Square))
			if e.Flag {
				if want := fee + r.Squares[e.Square].Mortgage; int(e.Amount) != want {
					return fmt.Errorf("lifting the mortgage of a received %s cost %d, want %d (7.7)", r.Squares[e.Square].Name, e.Amount, want)
				}
				err = move(e.Player, monopoly.Bank, amt)
			} else if int(e.Amount) != fee {
				return fmt.Errorf("transfer fee on %s is %d, want %d (7.7)", r.Squares[e.Square].Name, e.Amount, fee)
			}
		case monopoly.EvBankrupt:
			if a.Kind != monopoly.ActDeclareBankruptcy || i != 0 {
				return fmt.Errorf("bankruptcy (event %d) not at the start of a declare_bankruptcy action", i)
			}
		}
		if err != nil {
			return fmt.Errorf("event %d %s: %w", i, e.Kind, err)
		}
	}
	// The estate's money moves as the events after the bankruptcy:
	// buildings sold (checked in checkBuildingEvents) and the cash handed
	// over, which leaves the bankrupt with nothing.
	if a.Kind == monopoly.ActDeclareBankruptcy && cash[a.Player] != 0 {
		return fmt.Errorf("bankrupt player %d kept %d by the events (7.9)", a.Player, cash[a.Player])
	}
	for i := range cash {
		if cash[i] != int64(g.Cash(i)) {
			return fmt.Errorf("player %d has %d; the events say %d", i, g.Cash(i), cash[i])
		}
	}
	if jackpot != int64(g.JackpotCash()) {
		return fmt.Errorf("jackpot %d; the events say %d", g.JackpotCash(), jackpot)
	}
	if bank != g.BankFlow() {
		return fmt.Errorf("bank flow %d; the events say %d", g.BankFlow(), bank)
	}
	return nil
}

// groupSpread returns the fewest and most buildings in a group.
func groupSpread(g *monopoly.Game, grp *monopoly.Group) (lo, hi int) {
	lo, hi = 5, 0
	for _, sq := range grp.Squares {
		lo, hi = min(lo, g.Houses(sq)), max(hi, g.Houses(sq))
	}
	return lo, hi
}

// checkBuildingEvents checks each build and sale against the position
// before it (7.5: build on the fewest, sell from the most; 7.6, 8.2: a
// hotel goes back to four houses, or, when the bank has fewer, to what it
// has) and returns the groups where a hotel was sold in a shortage.
func (c *checker) checkBuildingEvents(pre, g *monopoly.Game, evs []monopoly.Event) (shortage []int, err error) {
	r := c.r
	liquidation := false
	for _, e := range evs {
		liquidation = liquidation || e.Kind == monopoly.EvBankrupt
		if e.Kind != monopoly.EvBuild && e.Kind != monopoly.EvSellBuilding {
			continue
		}
		sq := int(e.Square)
		s := &r.Squares[sq]
		if s.Kind != monopoly.KindStreet {
			return nil, fmt.Errorf("%s on %s, not a street", e.Kind, s.Name)
		}
		grp := &r.Groups[s.Group]
		lo, hi := groupSpread(pre, grp)
		before, after := pre.Houses(sq), g.Houses(sq)
		if int(e.Other) != after {
			return nil, fmt.Errorf("%s on %s says %d buildings, there are %d", e.Kind, s.Name, e.Other, after)
		}
		half := r.HouseCost(sq) / 2
		if liquidation {
			// 7.9: a bankrupt's buildings all go to the bank at half
			// their cost, so evenness no longer applies.
			if e.Kind != monopoly.EvSellBuilding || after != 0 || int(e.Amount) != before*half {
				return nil, fmt.Errorf("bankrupt's %s on %s: %d -> %d buildings for %d, want all %d for %d (7.9)",
					e.Kind, s.Name, before, after, e.Amount, before, before*half)
			}
			c.estates++
			continue
		}
		if e.Kind == monopoly.EvBuild {
			if before != lo || after != before+1 {
				return nil, fmt.Errorf("built on %s from %d to %d; the group's fewest was %d (7.5)", s.Name, before, after, lo)
			}
			continue
		}
		if before != hi {
			return nil, fmt.Errorf("sold on %s at %d; the group's most was %d (7.5)", s.Name, before, hi)
		}
		switch {
		case before < 5:
			if after != before-1 || int(e.Amount) != half {
				return nil, fmt.Errorf("sold a house on %s: %d -> %d for %d, want one for %d (7.6)", s.Name, before, after, e.Amount, half)
			}
		case pre.HouseSupply() >= 4:
			if after != 4 || int(e.Amount) != half {
				return nil, fmt.Errorf("sold a hotel on %s with %d houses in the bank: %d houses for %d, want 4 for %d (7.6)", s.Name, pre.HouseSupply(), after, e.Amount, half)
			}
		default:
			if after != pre.HouseSupply() || int(e.Amount) != (5-after)*half {
				return nil, fmt.Errorf("sold a hotel on %s with %d houses in the bank: %d houses for %d, want %d for %d (8.2)",
					s.Name, pre.HouseSupply(), after, e.Amount, pre.HouseSupply(), (5-pre.HouseSupply())*half)
			}
			c.shortage++
			shortage = append(shortage, s.Group)
		}
	}
	return shortage, nil
}

// checkEvenBuilding checks that every group is built evenly (7.5), except
// a group left uneven by a hotel sold in a housing shortage (8.2): that
// group may stay uneven, but no action other than another such sale may
// widen its spread, and it is even again once the spread is at most 1.
func (c *checker) checkEvenBuilding(pre, g *monopoly.Game, shortage []int) error {
	for gi := range c.r.Groups {
		grp := &c.r.Groups[gi]
		lo, hi := groupSpread(g, grp)
		if hi-lo <= 1 {
			c.uneven[gi] = false
			continue
		}
		preLo, preHi := groupSpread(pre, grp)
		switch {
		case containsInt(shortage, gi):
			c.uneven[gi] = true
		case c.uneven[gi] && hi-lo <= preHi-preLo:
		default:
			return fmt.Errorf("group %s built unevenly: %d to %d (7.5)", grp.Name, lo, hi)
		}
	}
	return nil
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// expectedRent is the rent of sections 2-4, computed here from the tables
// independently of the engine.
func expectedRent(g *monopoly.Game, sq, dice int) int {
	r := g.Rules()
	s := &r.Squares[sq]
	o := g.Owner(sq)
	count := func(mask uint64, skipMortgaged bool) int {
		n := 0
		for m := mask & g.OwnedMask(o); m != 0; m &= m - 1 {
			if !skipMortgaged || !g.Mortgaged(bits.TrailingZeros64(m)) {
				n++
			}
		}
		return n
	}
	at := func(t []int, n int) int { return t[min(n, len(t))-1] }
	switch s.Kind {
	case monopoly.KindStreet:
		if h := g.Houses(sq); h > 0 {
			return s.Rent[h]
		}
		grp := &r.Groups[s.Group]
		whole, anyMortgaged := true, false
		for _, q := range grp.Squares {
			whole = whole && g.Owner(q) == o
			anyMortgaged = anyMortgaged || g.Mortgaged(q)
		}
		if whole && (r.MortgagedGroupDoubleRent || !anyMortgaged) {
			return 2 * s.Rent[0]
		}
		return s.Rent[0]
	case monopoly.KindRailroad:
		return at(r.RailroadRent, count(r.GroupMask(sq), !r.MortgagedRailroadsCount))
	case monopoly.KindUtility:
		return dice * at(r.UtilityMultiplier, count(r.GroupMask(sq), false))
	}
	return -1
}

// checkRents checks each rent owed on the square the dice moved to, paid
// in the action that rolled them, against the tables; rents after a card
// or a square's program moved the player are left to the conformance
// scenarios (their multipliers change the rent).
func (c *checker) checkRents(pre *monopoly.Game, evs []monopoly.Event) error {
	dice, moves, dest, card := -1, 0, -1, false
	for _, e := range evs {
		switch e.Kind {
		case monopoly.EvRoll:
			dice, moves, dest = int(e.Dice[0]+e.Dice[1]), 0, -1
		case monopoly.EvSpeedDie:
			// Utilities count all three dice, the Bus and Mr. Monopoly as 0.
			if f := monopoly.SpeedFace(e.Amount); f.Number() {
				dice += int(f)
			}
		case monopoly.EvMove:
			moves++
			dest = int(e.Square)
		case monopoly.EvCard:
			card = true
		case monopoly.EvRent:
			// A rent raised over several actions is owed to whoever owned
			// the square at the landing, even if it changed hands since.
			sq := int(e.Square)
			if dice < 0 || card || moves != 1 || dest != sq {
				continue
			}
			if pre.Mortgaged(sq) || pre.Owner(sq) != int(e.Other) || e.Player == e.Other {
				return fmt.Errorf("rent on %s paid by %d to %d (owner %d, mortgaged %v) (8.4)",
					c.r.Squares[sq].Name, e.Player, e.Other, pre.Owner(sq), pre.Mortgaged(sq))
			}
			c.rentSeen++
			if want := expectedRent(pre, sq, dice); int(e.Amount) != want {
				return fmt.Errorf("rent on %s with dice %d: paid %d, the tables say %d", c.r.Squares[sq].Name, dice, e.Amount, want)
			}
		}
	}
	return nil
}

// checkState checks the invariants of a single position.
func checkState(g *monopoly.Game) error {
	r := g.Rules()
	n := g.Players()
	// Money: the books close, and nobody holds a negative amount. Debts are
	// not deducted before they are paid, so cash never goes below zero,
	// not even while raising cash.
	total := int64(g.JackpotCash())
	for i := range n {
		if g.Cash(i) < 0 {
			return fmt.Errorf("player %d has negative cash %d", i, g.Cash(i))
		}
		total += int64(g.Cash(i))
	}
	if g.JackpotCash() < 0 {
		return fmt.Errorf("negative jackpot %d", g.JackpotCash())
	}
	if want := g.StartingMoney() + g.BankFlow(); total != want {
		return fmt.Errorf("money not conserved: cash and pot %d, start plus bank flow %d", total, want)
	}

	// Ownership, buildings and the supply.
	var union, mortgaged uint64
	houses, hotels := 0, 0
	masks := make([]uint64, n)
	for sq, s := range r.Squares {
		o := g.Owner(sq)
		if o < -1 || o >= n {
			return fmt.Errorf("%s: owner %d out of range", s.Name, o)
		}
		if o >= 0 {
			if !s.Ownable() {
				return fmt.Errorf("%s cannot be owned but is owned by %d", s.Name, o)
			}
			if g.Bankrupt(o) {
				return fmt.Errorf("%s owned by bankrupt player %d (7.9)", s.Name, o)
			}
			masks[o] |= 1 << sq
		}
		if g.Mortgaged(sq) {
			mortgaged |= 1 << sq
			if o < 0 {
				return fmt.Errorf("%s is mortgaged but unowned", s.Name)
			}
		}
		h := g.Houses(sq)
		switch {
		case h < 0 || h > 5:
			return fmt.Errorf("%s: %d buildings", s.Name, h)
		case h == 0:
			continue
		case s.Kind != monopoly.KindStreet:
			return fmt.Errorf("%s: buildings on a %s", s.Name, s.Kind)
		case o < 0:
			return fmt.Errorf("%s: buildings on an unowned street", s.Name)
		case !g.Monopoly(o, sq):
			return fmt.Errorf("%s: buildings without the whole group (7.5)", s.Name)
		case g.MortgagedMask()&r.Groups[s.Group].Mask != 0:
			return fmt.Errorf("%s: buildings in a group with a mortgaged street (7.5, 7.6)", s.Name)
		case h == 5:
			hotels++
		default:
			houses += h
		}
	}
	if g.MortgagedMask() != mortgaged {
		return fmt.Errorf("mortgaged mask %#x, squares say %#x", g.MortgagedMask(), mortgaged)
	}
	for i := range n {
		m := g.OwnedMask(i)
		if m != masks[i] {
			return fmt.Errorf("player %d: owned mask %#x, owners say %#x", i, m, masks[i])
		}
		if union&m != 0 {
			return fmt.Errorf("player %d owns squares another player owns", i)
		}
		union |= m
	}
	if houses+g.HouseSupply() != r.MaxHouses || g.HouseSupply() < 0 {
		return fmt.Errorf("houses: %d standing + %d in the bank != %d (8.1)", houses, g.HouseSupply(), r.MaxHouses)
	}
	if hotels+g.HotelSupply() != r.MaxHotels || g.HotelSupply() < 0 {
		return fmt.Errorf("hotels: %d standing + %d in the bank != %d (8.1)", hotels, g.HotelSupply(), r.MaxHotels)
	}

	// Players and jail cards: every card is in its deck or held by one
	// player.
	var held uint8
	heldPerDeck := make([]int, len(r.Decks))
	for i := range n {
		v := g.View(i)
		b := v.JailCardBits(i)
		if held&b != 0 {
			return fmt.Errorf("player %d holds a jail card another player holds", i)
		}
		held |= b
		for _, d := range g.JailCards(i) {
			heldPerDeck[d]++
		}
		if g.Position(i) < 0 || g.Position(i) >= len(r.Squares) {
			return fmt.Errorf("player %d off the board at %d", i, g.Position(i))
		}
		if g.InJail(i) && g.Position(i) != r.JailSquare {
			return fmt.Errorf("player %d in jail on square %d", i, g.Position(i))
		}
		// The last failed roll leaves the count at the limit while the
		// forced fine is raised, during the resolution of that roll, and
		// if the game ends meanwhile (7.8).
		limit := r.JailTurns - 1
		if g.InJail(i) && (i == g.Current() && g.Phase() == monopoly.PhaseResolve || g.Over()) {
			limit++
		}
		if g.JailTurns(i) < 0 || g.JailTurns(i) > limit || (!g.InJail(i) && g.JailTurns(i) != 0) {
			return fmt.Errorf("player %d: %d jail turns (in jail %v) (7.8)", i, g.JailTurns(i), g.InJail(i))
		}
		if g.Bankrupt(i) && (g.Cash(i) != 0 || b != 0 || g.InJail(i)) {
			return fmt.Errorf("bankrupt player %d keeps cash %d, jail cards %#x or a cell (7.9)", i, g.Cash(i), b)
		}
	}
	for d, deck := range r.Decks {
		if g.DeckSize(d)+heldPerDeck[d] != len(deck.Cards) {
			return fmt.Errorf("deck %s: %d cards and %d held, want %d", deck.Name, g.DeckSize(d), heldPerDeck[d], len(deck.Cards))
		}
	}

	// The decision.
	d := g.Pending()
	if g.Over() {
		if d.Kind != monopoly.DecisionNone {
			return fmt.Errorf("game over with %s pending", d.Kind)
		}
		w := g.Winner()
		if w < -1 || w >= n {
			return fmt.Errorf("winner %d out of range", w)
		}
		// Without a round limit the last player standing wins (7.10); when
		// that player fell too, settling what it inherited, it still won.
		if !g.Capped() && (w < 0 || g.Active() > 1 || (g.Active() == 1 && g.Bankrupt(w))) {
			return fmt.Errorf("game over without a round limit: winner %d, %d players left (7.10)", w, g.Active())
		}
		return nil
	}
	if d.Kind == monopoly.DecisionNone {
		return fmt.Errorf("no decision pending in a game that goes on")
	}
	// A bankruptcy is settled before the game or the turn moves on: the
	// creditor decides on the mortgaged properties it received (7.9), the
	// bank auctions what it took back.
	// Keeping such a property mortgaged costs a fee that may need raising,
	// and raising cash may take trades.
	fee := d.Kind == monopoly.DecisionRaiseCash && g.Counterparty() == monopoly.Bank && d.Player >= 0 && d.Player < n &&
		g.Owner(d.Square) == d.Player && g.Mortgaged(d.Square)
	settling := d.Kind == monopoly.DecisionMortgagedTransfer || d.Kind == monopoly.DecisionBid || fee ||
		d.Kind == monopoly.DecisionRaiseCash || d.Kind == monopoly.DecisionTradeResponse
	if g.Active() < 2 && !(g.Active() == 1 && (d.Kind == monopoly.DecisionMortgagedTransfer || fee)) {
		return fmt.Errorf("game goes on with %d players (%s pending)", g.Active(), d.Kind)
	}
	if r.MaxRounds > 0 && g.Round() > r.MaxRounds {
		return fmt.Errorf("round %d beyond the limit %d", g.Round(), r.MaxRounds)
	}
	cur := g.Current()
	if cur < 0 || cur >= n || (g.Bankrupt(cur) && !settling) {
		return fmt.Errorf("current player %d is not in the game (%s pending)", cur, d.Kind)
	}
	p := d.Player
	if p < 0 || p >= n || g.Bankrupt(p) {
		return fmt.Errorf("%s pending for player %d, who is not in the game", d.Kind, p)
	}
	if len(g.LegalActions(nil)) == 0 {
		return fmt.Errorf("%s pending for player %d with no legal action", d.Kind, p)
	}
	switch d.Kind {
	case monopoly.DecisionBuy, monopoly.DecisionBid, monopoly.DecisionMortgagedTransfer:
		if d.Square < 0 || d.Square >= len(r.Squares) || !r.Squares[d.Square].Ownable() {
			return fmt.Errorf("%s pending for square %d, which cannot be owned", d.Kind, d.Square)
		}
	}
	switch d.Kind {
	case monopoly.DecisionManage:
		if p != cur {
			return fmt.Errorf("manage pending for %d on %d's turn", p, cur)
		}
	case monopoly.DecisionJail:
		if p != cur || !g.InJail(p) {
			return fmt.Errorf("jail decision for %d (current %d, in jail %v)", p, cur, g.InJail(p))
		}
	case monopoly.DecisionBuy:
		if g.Owner(d.Square) != -1 || funds(g, p) < d.Amount || d.Amount != r.Squares[d.Square].Price {
			return fmt.Errorf("buy %s for %d: owner %d, cash %d, funds %d (7.4)", r.Squares[d.Square].Name, d.Amount, g.Owner(d.Square), g.Cash(p), funds(g, p))
		}
	case monopoly.DecisionBid:
		if g.Owner(d.Square) != -1 || funds(g, p) <= d.Amount || g.Counterparty() == p {
			return fmt.Errorf("bid on %s at %d for %d with cash %d, funds %d, high bidder %d (8.3)", r.Squares[d.Square].Name, d.Amount, p, g.Cash(p), funds(g, p), g.Counterparty())
		}
	case monopoly.DecisionRaiseCash:
		if d.Amount <= g.Cash(p) {
			return fmt.Errorf("raise_cash for a debt of %d with cash %d (8.14)", d.Amount, g.Cash(p))
		}
	case monopoly.DecisionMortgagedTransfer:
		if g.Owner(d.Square) != p || !g.Mortgaged(d.Square) {
			return fmt.Errorf("mortgaged_transfer of %s for %d: owner %d, mortgaged %v", r.Squares[d.Square].Name, p, g.Owner(d.Square), g.Mortgaged(d.Square))
		}
	case monopoly.DecisionTradeResponse:
		o := g.PendingOffer()
		if int(o.To) != p || int(o.From) == p || o.From < 0 || int(o.From) >= n || g.Bankrupt(int(o.From)) {
			return fmt.Errorf("trade_response for %d on offer %+v", p, o)
		}
	}
	return nil
}

// funds is the most p may pay for a purchase or a bid: its cash, or under
// raise_to_buy its cash with what selling every building at half its cost
// and mortgaging every property would bring. It is worked out here, not
// asked of the engine (Game.Funds), so that the checks stay independent.
func funds(g *monopoly.Game, p int) int {
	r := g.Rules()
	v := g.Cash(p)
	if !r.RaiseToBuy {
		return v
	}
	for sq := range r.Squares {
		if g.Owner(sq) != p {
			continue
		}
		v += g.Houses(sq) * r.HouseCost(sq) / 2
		if !g.Mortgaged(sq) {
			v += r.Squares[sq].Mortgage
		}
	}
	return v
}

// deckJSON is the part of the state JSON that shows the order of the
// decks, which the API does not.
type deckJSON struct {
	Decks []struct {
		Cards []int
		Top   int
		N     int
	} `json:"decks"`
	Players []struct {
		JailCards uint8
	} `json:"players"`
}

// checkDecks checks through the state JSON that each deck and the held
// jail cards are exactly the deck's cards, each once.
func (c *checker) checkDecks(g *monopoly.Game) error {
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("marshal: %v", err)
	}
	var st deckJSON
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("state JSON: %v", err)
	}
	if len(st.Decks) != len(c.r.Decks) {
		return fmt.Errorf("%d decks in the state, %d in the rules", len(st.Decks), len(c.r.Decks))
	}
	for d, ds := range st.Decks {
		seen := make([]int, len(c.r.Decks[d].Cards))
		for k := range ds.N {
			card := ds.Cards[(ds.Top+k)%len(ds.Cards)]
			if card < 0 || card >= len(seen) {
				return fmt.Errorf("deck %d holds unknown card %d", d, card)
			}
			seen[card]++
		}
		for _, p := range st.Players {
			for b := range c.keepDeck {
				if p.JailCards&(1<<b) != 0 && c.keepDeck[b] == d {
					seen[c.keepCard[b]]++
				}
			}
		}
		for card, k := range seen {
			if k != 1 {
				return fmt.Errorf("deck %s: card %d (%s) is there %d times counting held cards", c.r.Decks[d].Name, card, c.r.Decks[d].Cards[card].ID, k)
			}
		}
	}
	return nil
}
