package monopoly

import (
	"fmt"
	"math/bits"
)

// DecisionKind is the kind of choice the engine waits for. The names are
// the same everywhere: engine, logs, MCP, web and LLM prompts.
type DecisionKind uint8

// Decision kinds.
const (
	DecisionNone              DecisionKind = iota // the game is over, or waits for scripted dice
	DecisionManage                                // before or after the roll: build, sell, mortgage, trade, or go on
	DecisionJail                                  // how to leave jail
	DecisionBuy                                   // buy the property landed on, or send it to auction
	DecisionBid                                   // raise the high bid or drop out
	DecisionTradeResponse                         // accept or reject a proposed trade
	DecisionRaiseCash                             // a debt larger than the cash: sell, mortgage, trade, or go bankrupt
	DecisionMortgagedTransfer                     // keep a received mortgaged property mortgaged, or lift it
)

var decisionNames = [...]string{"none", "manage", "jail", "buy", "bid", "trade_response", "raise_cash", "mortgaged_transfer"}

func (k DecisionKind) String() string {
	if int(k) < len(decisionNames) {
		return decisionNames[k]
	}
	return fmt.Sprintf("DecisionKind(%d)", k)
}

// Decision is the pending choice: who decides, what kind, and its terms.
// It is kept to six words so that it travels in registers through an
// agent's Decide; whether going on after a roll means rolling again is
// asked of the game (RollsAgain).
type Decision struct {
	Kind   DecisionKind
	Player int
	Phase  Phase // manage: before or after the roll
	Square int   // buy, bid, mortgaged_transfer: the property
	Amount int   // buy: price; bid: high bid; raise_cash: the debt; mortgaged_transfer: the fee
	Other  int   // bid: high bidder (-1 none); raise_cash: creditor (Bank for the bank); trade_response: proposer
}

// Pending returns the decision the game waits for (Kind DecisionNone when
// it is over or waits for scripted dice).
func (g *Game) Pending() Decision {
	if g.pk == DecisionManage { // most decisions: keep it short
		return Decision{Kind: DecisionManage, Player: int(g.pp), Phase: g.phase, Other: -1}
	}
	d := Decision{Kind: g.pk, Player: int(g.pp), Phase: g.phase, Other: -1}
	switch g.pk {
	case DecisionBuy:
		t := &g.tasks[g.nt-1]
		d.Square = int(t.sq)
		d.Amount = g.rules.Squares[t.sq].Price
	case DecisionBid:
		d.Square = int(g.auction.Square)
		d.Amount = int(g.auction.High)
		d.Other = int(g.auction.Bidder)
	case DecisionRaiseCash:
		t := &g.tasks[g.nt-1]
		d.Amount = g.owed(t)
		d.Other = int(g.creditor())
		d.Square = int(t.sq)
	case DecisionMortgagedTransfer:
		t := &g.tasks[g.nt-1]
		d.Square = int(t.sq)
		d.Amount = g.rules.TransferFee(int(t.sq))
	case DecisionTradeResponse:
		d.Other = int(g.offer.From)
	}
	return d
}

// RollsAgain reports whether the current player, managing after a roll,
// rolls again when it goes on (it rolled doubles, not to leave jail).
func (g *Game) RollsAgain() bool { return g.phase == PhaseAfterRoll && g.rollAgain }

// PendingOffer returns the trade offer awaiting an answer (meaningful
// while the pending decision is trade_response).
func (g *Game) PendingOffer() TradeOffer { return g.offer }

// ActionKind is the kind of an answer.
type ActionKind uint8

// Action kinds, by the decisions that take them.
const (
	ActNone ActionKind = iota
	// manage (and raise_cash where noted)
	ActContinue     // go on: roll, roll again, or end the turn
	ActBuild        // one house, or a hotel on four houses
	ActSellBuilding // one house, or a hotel (also raise_cash)
	ActMortgage     // (also raise_cash)
	ActUnmortgage
	ActProposeTrade // (also raise_cash)
	// jail
	ActPayJailFine
	ActUseJailCard
	ActRollForDoubles
	// buy
	ActBuy
	ActDecline
	// bid
	ActBid
	ActDropOut
	// trade_response
	ActAcceptTrade
	ActRejectTrade
	// raise_cash
	ActDeclareBankruptcy
	// mortgaged_transfer
	ActKeepMortgaged
	ActLiftMortgage
)

var actionNames = [...]string{"none", "continue", "build", "sell_building", "mortgage", "unmortgage", "propose_trade",
	"pay_jail_fine", "use_jail_card", "roll_for_doubles", "buy", "decline", "bid", "drop_out",
	"accept_trade", "reject_trade", "declare_bankruptcy", "keep_mortgaged", "lift_mortgage"}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return fmt.Sprintf("ActionKind(%d)", k)
}

// ParseActionKind returns the kind named s.
func ParseActionKind(s string) (ActionKind, bool) {
	for i, n := range actionNames {
		if n == s && i > 0 {
			return ActionKind(i), true
		}
	}
	return ActNone, false
}

// Action is an answer to a decision.
type Action struct {
	Kind   ActionKind
	Player int
	Square int         // build, sell_building, mortgage, unmortgage
	Amount int         // bid
	Deck   int         // use_jail_card: the deck of the card to use
	Offer  *TradeOffer // propose_trade; copied by Apply (From is set from Player)
}

// RuleError is an illegal action: the rule it breaks. Apply returns it and
// changes nothing.
type RuleError struct {
	Action Action
	Rule   string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("monopoly: illegal %s by player %d: %s", e.Action.Kind, e.Action.Player, e.Rule)
}

// ErrGameOver is returned by Apply once the game has ended.
var ErrGameOver = fmt.Errorf("monopoly: the game is over")

func (g *Game) illegal(a Action, format string, args ...any) error {
	return &RuleError{Action: a, Rule: fmt.Sprintf(format, args...)}
}

// Check validates a without applying it.
func (g *Game) Check(a Action) error {
	if g.over {
		return ErrGameOver
	}
	if g.pk == DecisionNone {
		return ErrNoDice
	}
	if a.Player != int(g.pp) {
		return g.illegal(a, "player %d decides now (%s)", g.pp, g.pk)
	}
	p := int8(a.Player)
	sqOK := a.Square >= 0 && a.Square < len(g.rules.Squares)
	switch g.pk {
	case DecisionManage:
		switch a.Kind {
		case ActContinue:
			before := g.phase == PhaseBeforeRoll && !g.p[p].InJail
			if (before || g.phase == PhaseAfterRoll && g.rollAgain) && !g.canRoll() {
				return ErrNoDice
			}
			return nil
		case ActBuild:
			if !sqOK {
				return g.illegal(a, "no square %d", a.Square)
			}
			if r := g.canBuild(p, a.Square); r != "" {
				return g.illegal(a, "%s: %s", g.rules.Squares[a.Square].Name, r)
			}
			return nil
		case ActUnmortgage:
			if !sqOK {
				return g.illegal(a, "no square %d", a.Square)
			}
			if r := g.canUnmortgage(p, a.Square); r != "" {
				return g.illegal(a, "%s: %s", g.rules.Squares[a.Square].Name, r)
			}
			return nil
		case ActSellBuilding, ActMortgage, ActProposeTrade:
			return g.checkRaising(a)
		}
	case DecisionRaiseCash:
		switch a.Kind {
		case ActSellBuilding, ActMortgage, ActProposeTrade:
			return g.checkRaising(a)
		case ActDeclareBankruptcy:
			if owed := g.owed(&g.tasks[g.nt-1]); g.LiquidationValue(a.Player) >= owed {
				return g.illegal(a, "selling and mortgaging would raise the %d owed: bankruptcy only when they cannot (7.9, 8.15)", owed)
			}
			return nil
		}
	case DecisionJail:
		switch a.Kind {
		case ActPayJailFine:
			if int(g.p[p].Cash) < g.rules.JailFine {
				return g.illegal(a, "not enough cash for the fine")
			}
		case ActUseJailCard:
			if g.jailCardBit(p, a.Deck) < 0 {
				return g.illegal(a, "no Get Out of Jail Free card from that deck")
			}
		case ActRollForDoubles:
		default:
			return g.illegal(a, "not an answer to %s", g.pk)
		}
		if !g.canRoll() {
			return ErrNoDice
		}
		return nil
	case DecisionBuy:
		switch a.Kind {
		case ActBuy:
			t := &g.tasks[g.nt-1]
			if int(g.p[p].Cash) < g.rules.Squares[t.sq].Price {
				return g.illegal(a, "not enough cash (7.4)")
			}
			return nil
		case ActDecline:
			return nil
		}
	case DecisionBid:
		switch a.Kind {
		case ActBid:
			if a.Amount <= int(g.auction.High) || a.Amount < 1 {
				return g.illegal(a, "a bid must be at least $1 and above the high bid of %d (8.3)", g.auction.High)
			}
			if a.Amount > int(g.p[p].Cash) {
				return g.illegal(a, "a bid cannot exceed your cash (8.3)")
			}
			return nil
		case ActDropOut:
			return nil
		}
	case DecisionTradeResponse:
		if a.Kind == ActAcceptTrade || a.Kind == ActRejectTrade {
			return nil
		}
	case DecisionMortgagedTransfer:
		switch a.Kind {
		case ActKeepMortgaged:
			return nil
		case ActLiftMortgage:
			sq := int(g.tasks[g.nt-1].sq)
			if int(g.p[p].Cash) < g.rules.TransferFee(sq)+g.rules.Squares[sq].Mortgage {
				return g.illegal(a, "not enough cash for the fee and the mortgage (7.7)")
			}
			return nil
		}
	}
	return g.illegal(a, "not an answer to %s", g.pk)
}

// checkRaising validates the actions shared by manage and raise_cash.
func (g *Game) checkRaising(a Action) error {
	p := int8(a.Player)
	if a.Kind == ActProposeTrade {
		if a.Offer == nil {
			return g.illegal(a, "no offer")
		}
		o := *a.Offer
		o.From = p
		if r := g.checkOffer(&o); r != "" {
			return g.illegal(a, "%s", r)
		}
		return nil
	}
	if a.Square < 0 || a.Square >= len(g.rules.Squares) {
		return g.illegal(a, "no square %d", a.Square)
	}
	var r string
	if a.Kind == ActSellBuilding {
		r = g.canSell(p, a.Square)
	} else {
		r = g.canMortgage(p, a.Square)
	}
	if r != "" {
		return g.illegal(a, "%s: %s", g.rules.Squares[a.Square].Name, r)
	}
	return nil
}

// jailCardBit finds p's card from deck d (any deck for d < 0).
func (g *Game) jailCardBit(p int8, d int) int {
	for m := g.p[p].JailCards; m != 0; m &= m - 1 {
		b := bits.TrailingZeros8(m)
		if d < 0 || g.rules.keepCards[b].deck == d {
			return b
		}
	}
	return -1
}

// Apply answers the pending decision with a. An illegal action returns an
// error naming the rule and changes nothing; a legal one is carried out
// and the game advances to the next decision.
func (g *Game) Apply(a Action) error {
	p := int8(a.Player)
	if a.Kind == ActContinue && g.pk == DecisionManage && p == g.pp && !g.over && g.phase != PhaseBeforeRoll && !g.rollAgain {
		// Ending the turn: the commonest action, and always legal.
		g.endTurn()
		g.advance()
		return nil
	}
	if err := g.Check(a); err != nil {
		return err
	}
	switch a.Kind {
	case ActContinue:
		switch {
		case g.phase == PhaseBeforeRoll && g.p[p].InJail:
			g.setPhase(PhaseJail)
		case g.phase == PhaseBeforeRoll || g.rollAgain:
			g.rollAndMove()
		default:
			g.endTurn()
		}
	case ActBuild:
		g.build(p, a.Square)
	case ActSellBuilding:
		g.sellBuilding(p, a.Square)
	case ActMortgage:
		g.mortgage(p, a.Square)
	case ActUnmortgage:
		g.unmortgage(p, a.Square)
	case ActProposeTrade:
		g.offer = *a.Offer
		g.offer.From = p
		g.proposals++
		g.emit(Event{Kind: EvTradeProposed, Player: p, Other: g.offer.To, Trade: g.offer})
		g.push(task{kind: taskTrade, player: p})
	case ActPayJailFine:
		g.transfer(p, g.bankFor(ReasonJailFine), g.rules.JailFine)
		g.emit(Event{Kind: EvPay, Player: p, Other: g.bankFor(ReasonJailFine), Amount: int64(g.rules.JailFine), Reason: ReasonJailFine})
		g.leaveJail(p)
		g.rollAndMove()
	case ActUseJailCard:
		b := g.jailCardBit(p, a.Deck)
		g.p[p].JailCards &^= 1 << b
		k := g.rules.keepCards[b]
		g.decks[k.deck].putBottom(k.card)
		g.emit(Event{Kind: EvUseJailCard, Player: p, Deck: int8(k.deck)})
		g.leaveJail(p)
		g.rollAndMove()
	case ActRollForDoubles:
		g.rollInJail()
	case ActBuy:
		sq := int(g.tasks[g.nt-1].sq)
		g.pop()
		price := g.rules.Squares[sq].Price
		g.transfer(p, Bank, price)
		g.setOwner(sq, p)
		g.emit(Event{Kind: EvBuy, Player: p, Square: int8(sq), Amount: int64(price)})
	case ActDecline:
		sq := int(g.tasks[g.nt-1].sq)
		g.pop()
		g.emit(Event{Kind: EvDecline, Player: p, Square: int8(sq)})
		g.startAuction(sq, g.cur)
	case ActBid:
		g.auction.High = int64(a.Amount)
		g.auction.Bidder = p
		g.auction.Next = (p + 1) % g.n
		g.emit(Event{Kind: EvBid, Player: p, Square: g.auction.Square, Amount: int64(a.Amount)})
	case ActDropOut:
		g.auction.Out |= 1 << p
		g.auction.Next = (p + 1) % g.n
		g.emit(Event{Kind: EvDropOut, Player: p, Square: g.auction.Square})
	case ActAcceptTrade:
		g.pop()
		g.executeTrade(g.offer)
	case ActRejectTrade:
		g.pop()
		g.emit(Event{Kind: EvTradeRejected, Player: g.offer.From, Other: g.offer.To, Trade: g.offer})
	case ActDeclareBankruptcy:
		c := g.creditor()
		g.pop()
		g.declareBankruptcy(p, c)
	case ActKeepMortgaged, ActLiftMortgage:
		sq := g.tasks[g.nt-1].sq
		g.pop()
		fee := g.rules.TransferFee(int(sq))
		if a.Kind == ActLiftMortgage {
			mv := g.rules.Squares[sq].Mortgage
			g.transfer(p, Bank, fee+mv)
			g.mortgaged &^= 1 << sq
			g.emit(Event{Kind: EvMortgagedTransfer, Player: p, Square: sq, Amount: int64(fee + mv), Flag: true})
		} else {
			g.emit(Event{Kind: EvMortgagedTransfer, Player: p, Square: sq, Amount: int64(fee)})
			g.push(task{kind: taskPay, player: p, to: Bank, sq: sq, reason: ReasonTransferFee, amount: int64(fee)})
		}
	}
	g.advance()
	return nil
}

// LegalActions appends the legal answers to the pending decision to buf
// and returns it. Parametric answers are represented: a bid by the lowest
// raise only, and trade proposals not at all (any offer passing Check is
// legal).
func (g *Game) LegalActions(buf []Action) []Action {
	if g.over || g.pk == DecisionNone {
		return buf
	}
	p := int(g.pp)
	switch g.pk {
	case DecisionManage, DecisionRaiseCash:
		if g.pk == DecisionManage {
			buf = g.addLegal(buf, Action{Kind: ActContinue})
		} else {
			buf = g.addLegal(buf, Action{Kind: ActDeclareBankruptcy})
		}
		for m := g.owned[p]; m != 0; m &= m - 1 {
			sq := popLowest(m)
			if g.pk == DecisionManage {
				buf = g.addLegal(buf, Action{Kind: ActBuild, Square: sq})
				buf = g.addLegal(buf, Action{Kind: ActUnmortgage, Square: sq})
			}
			buf = g.addLegal(buf, Action{Kind: ActSellBuilding, Square: sq})
			buf = g.addLegal(buf, Action{Kind: ActMortgage, Square: sq})
		}
	case DecisionJail:
		buf = g.addLegal(buf, Action{Kind: ActPayJailFine})
		for m := g.p[p].JailCards; m != 0; m &= m - 1 {
			buf = g.addLegal(buf, Action{Kind: ActUseJailCard, Deck: g.rules.keepCards[bits.TrailingZeros8(m)].deck})
		}
		buf = g.addLegal(buf, Action{Kind: ActRollForDoubles})
	case DecisionBuy:
		buf = g.addLegal(buf, Action{Kind: ActBuy})
		buf = g.addLegal(buf, Action{Kind: ActDecline})
	case DecisionBid:
		buf = g.addLegal(buf, Action{Kind: ActBid, Amount: int(g.auction.High) + 1})
		buf = g.addLegal(buf, Action{Kind: ActDropOut})
	case DecisionTradeResponse:
		buf = g.addLegal(buf, Action{Kind: ActAcceptTrade})
		buf = g.addLegal(buf, Action{Kind: ActRejectTrade})
	case DecisionMortgagedTransfer:
		buf = g.addLegal(buf, Action{Kind: ActKeepMortgaged})
		buf = g.addLegal(buf, Action{Kind: ActLiftMortgage})
	}
	return buf
}

// addLegal appends a for the pending decider if it is legal. The rules
// that can refuse these candidates are checked without building an error,
// so enumerating costs no allocation.
func (g *Game) addLegal(buf []Action, a Action) []Action {
	a.Player = int(g.pp)
	p := g.pp
	ok := true
	switch a.Kind {
	case ActBuild:
		ok = g.canBuild(p, a.Square) == ""
	case ActUnmortgage:
		ok = g.canUnmortgage(p, a.Square) == ""
	case ActSellBuilding:
		ok = g.canSell(p, a.Square) == ""
	case ActMortgage:
		ok = g.canMortgage(p, a.Square) == ""
	case ActDeclareBankruptcy:
		ok = g.LiquidationValue(int(p)) < g.owed(&g.tasks[g.nt-1])
	case ActPayJailFine:
		ok = int(g.p[p].Cash) >= g.rules.JailFine && g.canRoll()
	case ActUseJailCard, ActRollForDoubles:
		ok = g.canRoll()
	case ActBuy:
		ok = int(g.p[p].Cash) >= g.rules.Squares[g.tasks[g.nt-1].sq].Price
	case ActBid:
		ok = a.Amount <= int(g.p[p].Cash)
	case ActLiftMortgage:
		sq := int(g.tasks[g.nt-1].sq)
		ok = int(g.p[p].Cash) >= g.rules.TransferFee(sq)+g.rules.Squares[sq].Mortgage
	case ActContinue:
		before := g.phase == PhaseBeforeRoll && !g.p[p].InJail
		ok = !(before || g.phase == PhaseAfterRoll && g.rollAgain) || g.canRoll()
	}
	if ok {
		buf = append(buf, a)
	}
	return buf
}
