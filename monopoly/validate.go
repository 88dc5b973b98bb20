package monopoly

import "fmt"

// stateError is what validate finds wrong: the field of the saved state
// and why.
type stateError struct{ field, msg string }

func invalid(field, format string, args ...any) *stateError {
	return &stateError{field, fmt.Sprintf(format, args...)}
}

// validSections are the checks of a state read from outside, by section
// of the rules, in the order validate runs them: the first that fails
// names the problem.
var validSections = [...]func(*Game) *stateError{
	(*Game).validPlayers,
	(*Game).validDecks,
	(*Game).validProperties,
	(*Game).validSupply,
	(*Game).validMoney,
	(*Game).validTurn,
	(*Game).validCounters,
	(*Game).validTasks,
	(*Game).validAuction,
	(*Game).validOffer,
	(*Game).validPending,
}

// validate checks that a state read from outside is a position the rules
// can reach, so that playing on can neither panic nor break the books.
func (g *Game) validate() *stateError {
	for _, valid := range validSections {
		if err := valid(g); err != nil {
			return err
		}
	}
	return nil
}

// seat reports whether p is a seat of the game.
func (g *Game) seat(p int8) bool { return p >= 0 && p < g.n }

// finingInJail reports whether player p, in jail, has failed its last roll
// and owes the forced fine (7.8), or did when the game ended: the only
// positions where its count of failed rolls is at the limit.
func (g *Game) finingInJail(p int8) bool {
	if !g.p[p].InJail {
		return false
	}
	if g.over {
		return true
	}
	for _, t := range g.tasks[:g.nt] {
		if t.kind == taskPay && t.player == p && t.reason == ReasonJailFine {
			return true
		}
	}
	return false
}

// validPlayers checks each player: cash, jail, the Get Out of Jail Free
// cards (each held once at most) and the empty hands of the bankrupt.
func (g *Game) validPlayers() *stateError {
	r := g.rules
	var held uint8
	for i := range g.n {
		p := &g.p[i]
		f := fmt.Sprintf("players[%d]", i)
		switch {
		case p.Cash < 0:
			return invalid(f+".Cash", "negative")
		case p.JailTurns < 0 || int(p.JailTurns) > r.JailTurns || int(p.JailTurns) == r.JailTurns && !g.finingInJail(i):
			return invalid(f+".JailTurns", "%d", p.JailTurns)
		case p.InJail && int(p.Pos) != r.JailSquare:
			return invalid(f+".InJail", "in jail away from the jail square")
		case int(p.JailCards)>>len(r.keepCards) != 0 || p.JailCards&held != 0:
			return invalid(f+".JailCards", "unknown or doubly held card")
		case p.Bankrupt && (g.owned[i] != 0 || p.Cash != 0 || p.JailCards != 0):
			return invalid(f+".Bankrupt", "a bankrupt player holds nothing")
		}
		held |= p.JailCards
	}
	return nil
}

// validDecks checks that every card is in its deck once, but for the
// Get Out of Jail Free cards the players hold.
func (g *Game) validDecks() *stateError {
	var held uint8
	for i := range g.n {
		held |= g.p[i].JailCards
	}
	for d, deck := range g.rules.Decks {
		var count [MaxDeckCards]int
		ds := &g.decks[d]
		for k := range int(ds.N) {
			count[ds.Cards[(int(ds.Top)+k)%MaxDeckCards]]++
		}
		for c, card := range deck.Cards {
			want := 1
			if card.Keep && held&(1<<card.keepBit) != 0 {
				want = 0
			}
			if count[c] != want {
				return invalid(fmt.Sprintf("decks[%d]", d), "card %s appears %d times, want %d", card.ID, count[c], want)
			}
		}
	}
	return nil
}

// validProperties checks that buildings stand on owned, unmortgaged
// streets and that only owned squares on the board are mortgaged.
func (g *Game) validProperties() *stateError {
	r := g.rules
	for sq := range r.Squares {
		h, o := g.houses[sq], g.owner[sq]
		if h > 0 && (r.Squares[sq].Kind != KindStreet || o < 0 || g.Mortgaged(sq)) {
			return invalid(fmt.Sprintf("houses[%d]", sq), "buildings need an owned, unmortgaged street")
		}
		if g.Mortgaged(sq) && o < 0 {
			return invalid("mortgaged", "square %d is mortgaged but unowned", sq)
		}
	}
	if g.mortgaged>>len(r.Squares) != 0 {
		return invalid("mortgaged", "squares off the board")
	}
	return nil
}

// validSupply checks the bank's houses and hotels against those standing
// (8.1). A prepared position may hold back part of the supply, never add
// to it.
func (g *Game) validSupply() *stateError {
	r := g.rules
	houses, hotels := 0, 0
	for sq := range r.Squares {
		if g.houses[sq] == 5 {
			hotels++
		} else {
			houses += int(g.houses[sq])
		}
	}
	if g.houseSupply < 0 || houses+int(g.houseSupply) > r.MaxHouses {
		return invalid("house_supply", "%d standing + %d in the bank exceeds the %d houses (8.1)", houses, g.houseSupply, r.MaxHouses)
	}
	if g.hotelSupply < 0 || hotels+int(g.hotelSupply) > r.MaxHotels {
		return invalid("hotel_supply", "%d standing + %d in the bank exceeds the %d hotels (8.1)", hotels, g.hotelSupply, r.MaxHotels)
	}
	return nil
}

// validMoney checks that no money was made or lost: the players' cash
// and the jackpot are the starting money plus what the bank paid out.
func (g *Game) validMoney() *stateError {
	cash := int64(g.jackpot)
	for i := range g.n {
		cash += int64(g.p[i].Cash)
	}
	if g.jackpot < 0 || cash != g.money0+g.bankNet {
		return invalid("bank_net", "money not conserved: cash and pot %d, start plus bank flow %d", cash, g.money0+g.bankNet)
	}
	return nil
}

// validTurn checks that a game going on is not the turn of a bankrupt
// player, unless its turn is ending: a bankrupt current player's turn
// ends once its estate is settled.
func (g *Game) validTurn() *stateError {
	if g.over || !g.p[g.cur].Bankrupt {
		return nil
	}
	for _, t := range g.tasks[:g.nt] {
		if t.kind == taskEndTurn || t.kind == taskGameOver {
			return nil
		}
	}
	return invalid("current", "the current player is bankrupt")
}

// validCounters checks the counts of the turn: doubles, rounds, trade
// proposals and counter-offers, landings, and the last roll's dice.
func (g *Game) validCounters() *stateError {
	if g.winner < -1 || g.winner >= g.n || g.doubles < 0 || g.doubles > 3 || g.round < 1 || g.turn < 0 {
		return invalid("winner", "counters out of range")
	}
	for i := range g.n {
		if g.proposals[i] < 0 || g.turnProps[i] < 0 {
			return invalid("proposals", "counters out of range")
		}
	}
	if g.counters < 0 || int(g.counters) > g.rules.CounterOffers ||
		g.landings < 0 || g.lastRoll[0] < 0 || g.lastRoll[0] > 6 || g.lastRoll[1] < 0 || g.lastRoll[1] > 6 {
		return invalid("proposals", "counters out of range")
	}
	return nil
}

// validTasks checks the parties, amounts and squares of the tasks the
// engine has yet to run.
func (g *Game) validTasks() *stateError {
	for i := range g.nt {
		t := &g.tasks[i]
		f := fmt.Sprintf("tasks[%d]", i)
		switch {
		case !g.seat(t.player):
			return invalid(f, "player %d", t.player)
		case t.kind == taskPay && !(g.seat(t.to) || t.to == Bank || t.to == Jackpot || t.to == each):
			return invalid(f, "creditor %d", t.to)
		case t.kind == taskPay && t.amount < 0, int(t.reason) >= len(reasonNames.list):
			return invalid(f, "amount or reason")
		case t.kind == taskPay && t.reason.Purchase() &&
			(t.to != Bank || !g.rules.Squares[t.sq].Ownable() || g.owner[t.sq] >= 0):
			return invalid(f, "a purchase of square %d, not the bank's", t.sq)
		case t.kind == taskMovement && t.amount != movementBus && t.amount != movementTriples:
			return invalid(f, "movement %d", t.amount)
		case (t.kind == taskBuy || t.kind == taskAuction || t.kind == taskMortgagedTransfer || t.kind == taskDiceRent) &&
			!g.rules.Squares[t.sq].Ownable():
			return invalid(f, "square %d cannot be owned", t.sq)
		}
	}
	return nil
}

// validAuction checks the seats and the square of the auction.
func (g *Game) validAuction() *stateError {
	a, n := &g.auction, g.n
	if a.Bidder < -1 || a.Bidder >= n || a.Next < 0 || a.Next >= n || a.High < 0 || int(a.Out)>>n != 0 ||
		int(a.Square) < 0 || int(a.Square) >= len(g.rules.Squares) {
		return invalid("auction", "out of range")
	}
	return nil
}

// validOffer checks the seats of the trade offer, if any.
func (g *Game) validOffer() *stateError {
	o := &g.offer
	if *o != (TradeOffer{}) && (!g.seat(o.From) || !g.seat(o.To)) {
		return invalid("offer", "seats out of range")
	}
	return nil
}

// askedBy is the task that asks each decision a task asks.
var askedBy = [...]taskKind{DecisionBuy: taskBuy, DecisionBid: taskAuction, DecisionTradeResponse: taskTrade,
	DecisionRaiseCash: taskPay, DecisionMortgagedTransfer: taskMortgagedTransfer, DecisionMovement: taskMovement}

// validPending checks that the pending decision is the one the state
// asks.
func (g *Game) validPending() *stateError {
	switch k := g.pk; {
	case g.over:
		if k != DecisionNone {
			return invalid("pending", "a decision after the game is over")
		}
	case k == DecisionManage || k == DecisionJail:
		if g.nt != 0 || (k == DecisionManage) != (g.phase == PhaseBeforeRoll || g.phase == PhaseAfterRoll) ||
			(k == DecisionJail) != (g.phase == PhaseJail) || g.pp != g.cur {
			return invalid("pending", "%s does not fit phase %s", k, g.phase)
		}
	case k == DecisionNone:
		if g.script == nil && g.topTask() != taskDiceRent {
			return invalid("pending", "no decision pending in a game that goes on")
		}
	default:
		return g.validAsked(k)
	}
	return nil
}

// topTask is the kind of the task the engine runs next; zero when none.
func (g *Game) topTask() taskKind {
	if g.nt == 0 {
		return 0
	}
	return g.tasks[g.nt-1].kind
}

// validAsked checks a decision that a task asks: the task is on top, and
// the decider is the one it asks.
func (g *Game) validAsked(k DecisionKind) *stateError {
	if int(k) >= len(askedBy) || g.topTask() != askedBy[k] {
		return invalid("pending", "%s pending without the task that asks it", k)
	}
	top := &g.tasks[g.nt-1]
	if k == DecisionRaiseCash && int(g.p[g.pp].Cash) >= g.owed(top) {
		return invalid("pending", "raise_cash while the cash covers the debt (8.14)")
	}
	if k == DecisionBid && g.pp != g.auction.Next || k == DecisionTradeResponse && g.pp != g.offer.To ||
		k != DecisionBid && k != DecisionTradeResponse && g.pp != top.player {
		return invalid("decider", "player %d does not decide %s", g.pp, k)
	}
	return nil
}
