package monopoly

import (
	"fmt"
	"math/bits"
	"slices"
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
	DecisionMovement                              // where to move: the speed die's Bus, or triples
)

var decisionNames = names[DecisionKind]{"DecisionKind", []string{"none", "manage", "jail", "buy", "bid", "trade_response", "raise_cash", "mortgaged_transfer", "movement"}}

func (k DecisionKind) String() string { return decisionNames.of(k) }

// Decision is the pending choice: who decides, what kind, and its terms.
// It has four words so that it lives in registers: a bigger struct is
// copied through memory at every call, and those copies stalled the
// decision loop. The rest of the context is asked of the
// game: the phase (Phase), whether going on rolls again (RollsAgain), and
// the other party (Counterparty).
type Decision struct {
	Kind   DecisionKind
	Player int
	Square int // the property to buy, bid on or keep mortgaged; raise_cash: where the debt arose; movement: where the player stands; -1: none
	Amount int // buy: price; bid: high bid; raise_cash: the debt; mortgaged_transfer: the fee; movement: the white dice's total for the Bus, 0 for triples (any square)
}

// Pending returns the decision the game waits for (Kind DecisionNone when
// it is over or waits for scripted dice).
func (g *Game) Pending() Decision {
	d := Decision{Kind: g.pk, Player: int(g.pp), Square: -1}
	switch g.pk {
	case DecisionBuy:
		t := &g.tasks[g.nt-1]
		d.Square = int(t.sq)
		d.Amount = g.rules.Squares[t.sq].Price
	case DecisionBid:
		d.Square = int(g.auction.Square)
		d.Amount = int(g.auction.High)
	case DecisionRaiseCash:
		t := &g.tasks[g.nt-1]
		d.Amount = g.owed(t)
		d.Square = int(t.sq)
	case DecisionMortgagedTransfer:
		t := &g.tasks[g.nt-1]
		d.Square = int(t.sq)
		d.Amount = g.rules.TransferFee(int(t.sq))
	case DecisionMovement:
		t := &g.tasks[g.nt-1]
		d.Square = int(t.sq)
		if t.amount == movementBus {
			d.Amount = int(g.lastRoll[0]) + int(g.lastRoll[1])
		}
	}
	return d
}

// Counterparty returns the other party of the pending decision: a bid's
// high bidder (-1 before the first bid), a raise_cash debt's creditor
// (Bank for the bank), a trade_response's proposer; -1 otherwise.
func (g *Game) Counterparty() int {
	switch g.pk {
	case DecisionBid:
		return int(g.auction.Bidder)
	case DecisionRaiseCash:
		return int(g.creditor())
	case DecisionTradeResponse:
		return int(g.offer.From)
	}
	return -1
}

// DebtReason returns why the debt of a pending raise_cash decision is
// owed (rent, a tax, a purchase ...); ReasonNone for other decisions.
func (g *Game) DebtReason() Reason {
	if g.pk != DecisionRaiseCash {
		return ReasonNone
	}
	return g.tasks[g.nt-1].reason
}

// Decider returns the seat the pending decision waits for, or -1 when
// none does (the game is over or waits for scripted dice). It is Pending's
// Player without building the decision.
func (g *Game) Decider() int {
	if g.pk == DecisionNone {
		return -1
	}
	return int(g.pp)
}

// RollsAgain reports whether the current player, managing after a roll,
// rolls again when it goes on (it rolled doubles, not to leave jail).
func (g *Game) RollsAgain() bool { return g.phase == PhaseAfterRoll && g.rollAgain }

// PendingOffer returns the trade offer awaiting an answer (meaningful
// while the pending decision is trade_response), cash limits included.
func (g *Game) PendingOffer() TradeOffer { return g.offer }

// TradeRound returns how many counter-offers the negotiation in progress
// has had.
func (g *Game) TradeRound() int { return int(g.counters) }

// ProposalsLeft returns how many more trades player p may propose in the
// current phase and turn (trades_per_phase, trades_per_turn); whether it
// may propose now at all depends on the decision pending.
func (g *Game) ProposalsLeft(p int) int {
	left := g.rules.TradesPerPhase - int(g.proposals[p])
	if g.rules.TradesPerTurn > 0 {
		left = min(left, g.rules.TradesPerTurn-int(g.turnProps[p]))
	}
	return max(0, left)
}

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
	// trade_response, when the rules allow counter-offers
	ActCounterTrade
	// movement
	ActMove
)

var actionNames = names[ActionKind]{"ActionKind", []string{"none", "continue", "build", "sell_building", "mortgage", "unmortgage", "propose_trade",
	"pay_jail_fine", "use_jail_card", "roll_for_doubles", "buy", "decline", "bid", "drop_out",
	"accept_trade", "reject_trade", "declare_bankruptcy", "keep_mortgaged", "lift_mortgage", "counter_trade", "move"}}

func (k ActionKind) String() string { return actionNames.of(k) }

// Action is an answer to a decision. Like Decision it has four words, so
// that it lives in registers.
type Action struct {
	Kind   ActionKind
	Player int
	// Arg is the action's argument: the square for build, sell_building,
	// mortgage, unmortgage and move (where to); the amount for bid; the deck of the card
	// for use_jail_card (-1: any); under sealed deals, accept_trade's
	// limit: the least net cash the target takes from the proposer, or,
	// negative, the most it pays.
	Arg   int
	Offer *TradeOffer // propose_trade, counter_trade; copied by Apply (From is set from Player)
}

// RuleError is an illegal action: the rule it breaks, by its stable code
// and as a sentence with the particulars of the position. Apply returns it
// and changes nothing.
type RuleError struct {
	Action Action
	Code   Refusal
	Rule   string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("monopoly: illegal %s by player %d: %s", e.Action.Kind, e.Action.Player, e.Rule)
}

// ErrGameOver is returned by Apply once the game has ended.
var ErrGameOver = fmt.Errorf("monopoly: the game is over")

// Check validates a without applying it.
func (g *Game) Check(a Action) error {
	rule := g.refusal(a)
	switch {
	case rule == RefusalNone:
		return nil
	case rule == RefusalGameOver:
		return ErrGameOver
	case rule == RefusalNoDice:
		return ErrNoDice
	}
	return &RuleError{Action: a, Code: rule, Rule: g.explain(a, rule)}
}

// Refusal is the rule that refuses a: Check's code without the error and
// its explanation, for callers that try many answers (RefusalNone when a
// is legal; RefusalGameOver and RefusalNoDice for ErrGameOver and
// ErrNoDice).
func (g *Game) Refusal(a Action) Refusal { return g.refusal(a) }

// legal reports whether a would be accepted, without building an error.
func (g *Game) legal(a Action) bool { return g.refusal(a) == RefusalNone }

// explain adds to a broken rule the particulars of the position.
func (g *Game) explain(a Action, r Refusal) string {
	rule := r.Rule()
	switch {
	case r == RefusalNotYourDecision || r == RefusalNotAnAnswer:
		return fmt.Sprintf("%s (player %d decides %s)", rule, g.pp, g.pk)
	case r == RefusalNoSuchSquare:
		return fmt.Sprintf("%s: %d", rule, a.Arg)
	case a.Kind == ActBid:
		return fmt.Sprintf("%s: high bid $%d", rule, g.auction.High)
	case a.Kind == ActDeclareBankruptcy:
		return fmt.Sprintf("%s: owed $%d", rule, g.owed(&g.tasks[g.nt-1]))
	case a.Kind == ActBuild || a.Kind == ActSellBuilding || a.Kind == ActMortgage || a.Kind == ActUnmortgage:
		return g.rules.Squares[a.Arg].Name + ": " + rule
	}
	return rule
}

// endsTurn reports whether a is the current player going on after its last
// roll: the commonest action of all, always legal, and given a short path.
func (g *Game) endsTurn(kind ActionKind, player int) bool {
	return kind == ActContinue && g.pk == DecisionManage && player == int(g.pp) &&
		g.phase == PhaseAfterRoll && !g.rollAgain && !g.over
}

// refusal returns the rule a breaks (RefusalNone when a is legal).
func (g *Game) refusal(a Action) Refusal {
	if g.over {
		return RefusalGameOver
	}
	if g.pk == DecisionNone {
		return RefusalNoDice
	}
	if a.Player != int(g.pp) {
		return RefusalNotYourDecision
	}
	p := int8(a.Player)
	onBoard := a.Arg >= 0 && a.Arg < len(g.rules.Squares)
	switch g.pk {
	case DecisionManage:
		switch a.Kind {
		case ActContinue:
			before := g.phase == PhaseBeforeRoll && !g.p[p].InJail
			if (before || g.phase == PhaseAfterRoll && g.rollAgain) && !g.canTurnRoll(p) {
				return RefusalNoDice
			}
			return RefusalNone
		case ActBuild:
			if !onBoard {
				return RefusalNoSuchSquare
			}
			return g.canBuild(p, a.Arg)
		case ActUnmortgage:
			if !onBoard {
				return RefusalNoSuchSquare
			}
			return g.canUnmortgage(p, a.Arg)
		case ActSellBuilding, ActMortgage, ActProposeTrade:
			return g.raisingRefusal(a)
		}
	case DecisionRaiseCash:
		switch a.Kind {
		case ActSellBuilding, ActMortgage, ActProposeTrade:
			return g.raisingRefusal(a)
		case ActDeclareBankruptcy:
			if g.LiquidationValue(a.Player) >= g.owed(&g.tasks[g.nt-1]) {
				return RefusalBankruptcyAvoidable
			}
			return RefusalNone
		}
	case DecisionJail:
		switch a.Kind {
		case ActPayJailFine:
			if int(g.p[p].Cash) < g.rules.JailFine {
				return RefusalFineCash
			}
		case ActUseJailCard:
			if g.jailCardBit(p, a.Arg) < 0 {
				return RefusalNoJailCard
			}
		case ActRollForDoubles:
			if !g.canRoll() { // the white dice alone (7.8)
				return RefusalNoDice
			}
			return RefusalNone
		default:
			return RefusalNotAnAnswer
		}
		if !g.canTurnRoll(p) { // out of jail, the roll is a turn roll
			return RefusalNoDice
		}
		return RefusalNone
	case DecisionBuy:
		switch a.Kind {
		case ActBuy:
			if g.Funds(int(p)) < g.rules.Squares[g.tasks[g.nt-1].sq].Price {
				return RefusalInsufficientCash
			}
			return RefusalNone
		case ActDecline:
			return RefusalNone
		}
	case DecisionBid:
		switch a.Kind {
		case ActBid:
			if a.Arg <= int(g.auction.High) || a.Arg < 1 {
				return RefusalBidTooLow
			}
			if a.Arg > g.Funds(int(p)) {
				return RefusalBidAboveCash
			}
			return RefusalNone
		case ActDropOut:
			return RefusalNone
		}
	case DecisionTradeResponse:
		switch a.Kind {
		case ActAcceptTrade:
			if g.rules.DealProtocol == DealsSealed && (a.Arg < -int(g.p[p].Cash) || a.Arg > MaxAmount*MaxPlayers) {
				return RefusalSealedLimitCash
			}
			return RefusalNone
		case ActRejectTrade:
			return RefusalNone
		case ActCounterTrade:
			if g.rules.DealProtocol != DealsOpen || int(g.counters) >= g.rules.CounterOffers {
				return RefusalNoCounterOffer
			}
			if a.Offer == nil {
				return RefusalNoOffer
			}
			if a.Offer.To != g.offer.From {
				return RefusalCounterToProposer
			}
			o := *a.Offer
			o.From = p
			return g.checkOffer(&o, true)
		}
	case DecisionMovement:
		if a.Kind != ActMove {
			break
		}
		if !onBoard {
			return RefusalNoSuchSquare
		}
		if g.movementSteps(&g.tasks[g.nt-1], a.Arg) < 0 {
			return RefusalUnreachableSquare
		}
		return RefusalNone
	case DecisionMortgagedTransfer:
		switch a.Kind {
		case ActKeepMortgaged:
			return RefusalNone
		case ActLiftMortgage:
			sq := int(g.tasks[g.nt-1].sq)
			if int(g.p[p].Cash) < g.rules.TransferFee(sq)+g.rules.Squares[sq].Mortgage {
				return RefusalLiftCash
			}
			return RefusalNone
		}
	}
	return RefusalNotAnAnswer
}

// raisingRefusal checks the actions shared by manage and raise_cash.
func (g *Game) raisingRefusal(a Action) Refusal {
	p := int8(a.Player)
	if a.Kind == ActProposeTrade {
		if a.Offer == nil {
			return RefusalNoOffer
		}
		o := *a.Offer
		o.From = p
		return g.checkOffer(&o, false)
	}
	if a.Arg < 0 || a.Arg >= len(g.rules.Squares) {
		return RefusalNoSuchSquare
	}
	if a.Kind == ActSellBuilding {
		return g.canSell(p, a.Arg)
	}
	return g.canMortgage(p, a.Arg)
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
	if g.endsTurn(a.Kind, a.Player) {
		g.endTurn()
		g.advance()
		return nil
	}
	if err := g.Check(a); err != nil {
		return err
	}
	p := int8(a.Player)
	switch a.Kind {
	case ActContinue: // before the roll, or rolling again after doubles
		if g.phase == PhaseBeforeRoll && g.p[p].InJail {
			g.setPhase(PhaseJail)
		} else {
			g.rollAndMove()
		}
	case ActBuild:
		g.build(p, a.Arg)
	case ActSellBuilding:
		g.sellBuilding(p, a.Arg)
	case ActMortgage:
		g.mortgage(p, a.Arg)
	case ActUnmortgage:
		g.unmortgage(p, a.Arg)
	case ActProposeTrade:
		g.offer = *a.Offer
		g.offer.From = p
		g.proposals[p]++
		g.turnProps[p]++
		g.counters = 0
		g.emit(Event{Kind: EvTradeProposed, Player: p, Other: g.offer.To, Trade: g.offer})
		g.push(task{kind: taskTrade, player: p})
	case ActCounterTrade: // the trade task stays: the other side answers now
		g.offer = *a.Offer
		g.offer.From = p
		g.counters++
		g.emit(Event{Kind: EvTradeProposed, Player: p, Other: g.offer.To, Trade: g.offer, Flag: true})
	case ActPayJailFine:
		to := g.finesAccount()
		g.transfer(p, to, g.rules.JailFine)
		g.emit(Event{Kind: EvPay, Player: p, Other: to, Amount: int64(g.rules.JailFine), Reason: ReasonJailFine})
		g.leaveJail(p)
		g.rollAndMove()
	case ActUseJailCard:
		b := g.jailCardBit(p, a.Arg)
		g.p[p].JailCards &^= 1 << b
		k := g.rules.keepCards[b]
		g.decks[k.deck].putBottom(k.card)
		g.emit(Event{Kind: EvUseJailCard, Player: p, Deck: int8(k.deck)})
		g.leaveJail(p)
		g.rollAndMove()
	case ActRollForDoubles:
		g.rollInJail()
	case ActBuy:
		// The price is a debt to the bank: short of it (raise_to_buy),
		// the buyer raises it as any other.
		sq := g.tasks[g.nt-1].sq
		g.pop()
		g.push(task{kind: taskPay, player: p, to: Bank, sq: sq, reason: ReasonPurchase, amount: int64(g.rules.Squares[sq].Price)})
	case ActDecline:
		sq := int(g.tasks[g.nt-1].sq)
		g.pop()
		g.emit(Event{Kind: EvDecline, Player: p, Square: int8(sq)})
		g.startAuction(sq, g.cur)
	case ActBid:
		g.auction.High = int64(a.Arg)
		g.auction.Bidder = p
		g.auction.Next = (p + 1) % g.n
		g.emit(Event{Kind: EvBid, Player: p, Square: g.auction.Square, Amount: int64(a.Arg)})
	case ActDropOut:
		g.auction.Out |= 1 << p
		g.auction.Next = (p + 1) % g.n
		g.emit(Event{Kind: EvDropOut, Player: p, Square: g.auction.Square})
	case ActAcceptTrade:
		g.pop()
		if g.rules.DealProtocol == DealsSealed {
			g.settleSealed(int64(a.Arg))
		} else {
			g.executeTrade(g.offer)
		}
	case ActRejectTrade:
		g.pop()
		g.emit(Event{Kind: EvTradeRejected, Player: g.offer.From, Other: g.offer.To, Trade: g.offer})
	case ActDeclareBankruptcy:
		c := g.creditor()
		g.pop()
		g.declareBankruptcy(p, c)
	case ActMove:
		g.move(p, a.Arg)
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
				buf = g.addLegal(buf, Action{Kind: ActBuild, Arg: sq})
				buf = g.addLegal(buf, Action{Kind: ActUnmortgage, Arg: sq})
			}
			buf = g.addLegal(buf, Action{Kind: ActSellBuilding, Arg: sq})
			buf = g.addLegal(buf, Action{Kind: ActMortgage, Arg: sq})
		}
	case DecisionJail:
		buf = g.addLegal(buf, Action{Kind: ActPayJailFine})
		for m := g.p[p].JailCards; m != 0; m &= m - 1 {
			buf = g.addLegal(buf, Action{Kind: ActUseJailCard, Arg: g.rules.keepCards[bits.TrailingZeros8(m)].deck})
		}
		buf = g.addLegal(buf, Action{Kind: ActRollForDoubles})
	case DecisionBuy:
		buf = g.addLegal(buf, Action{Kind: ActBuy})
		buf = g.addLegal(buf, Action{Kind: ActDecline})
	case DecisionBid:
		buf = g.addLegal(buf, Action{Kind: ActBid, Arg: int(g.auction.High) + 1})
		buf = g.addLegal(buf, Action{Kind: ActDropOut})
	case DecisionTradeResponse:
		buf = g.addLegal(buf, Action{Kind: ActAcceptTrade})
		buf = g.addLegal(buf, Action{Kind: ActRejectTrade})
	case DecisionMortgagedTransfer:
		buf = g.addLegal(buf, Action{Kind: ActKeepMortgaged})
		buf = g.addLegal(buf, Action{Kind: ActLiftMortgage})
	case DecisionMovement:
		t := &g.tasks[g.nt-1]
		if t.amount == movementTriples {
			for sq := range g.rules.Squares {
				buf = g.addLegal(buf, Action{Kind: ActMove, Arg: sq})
			}
			break
		}
		// The Bus: the squares of its three moves, in board order, once each.
		to := BusSquares(int(t.sq), int(g.lastRoll[0]), int(g.lastRoll[1]), len(g.rules.Squares))
		slices.Sort(to[:])
		for i, sq := range to {
			if i == 0 || sq != to[i-1] {
				buf = g.addLegal(buf, Action{Kind: ActMove, Arg: sq})
			}
		}
	}
	return buf
}

// addLegal appends a, made by the pending decider, if it is legal.
func (g *Game) addLegal(buf []Action, a Action) []Action {
	a.Player = int(g.pp)
	if g.legal(a) {
		buf = append(buf, a)
	}
	return buf
}
