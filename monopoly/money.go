package monopoly

import "math/bits"

// Reason says why money moved.
type Reason uint8

// Reasons for payments.
const (
	ReasonNone Reason = iota
	ReasonRent
	ReasonTax
	ReasonCard
	ReasonRepairs
	ReasonJailFine
	ReasonTransferFee
	ReasonJackpot
	ReasonBankruptcy
	ReasonPurchase // the price of a property bought on landing (raise_to_buy)
	ReasonAuction  // a winning bid (raise_to_buy)
)

var reasonNames = names[Reason]{"Reason", []string{"", "rent", "tax", "card", "repairs", "jail_fine", "transfer_fee", "jackpot", "bankruptcy", "purchase", "auction"}}

func (r Reason) String() string { return reasonNames.of(r) }

// Purchase reports whether r is the price of a property: bought on
// landing or won at auction.
func (r Reason) Purchase() bool { return r == ReasonPurchase || r == ReasonAuction }

func popcount(m uint64) int { return bits.OnesCount64(m) }

func popLowest(m uint64) int { return bits.TrailingZeros64(m) }

// transfer moves money between accounts (seats, Bank, Jackpot). Every
// change of cash in the engine goes through here, which is what lets the
// books be checked.
func (g *Game) transfer(from, to int8, amt int) {
	a := int64(amt)
	switch from {
	case Bank:
		g.bankNet += int64(amt)
	case Jackpot:
		g.jackpot -= a
	default:
		g.p[from].Cash -= a
	}
	switch to {
	case Bank:
		g.bankNet -= int64(amt)
	case Jackpot:
		g.jackpot += a
	default:
		g.p[to].Cash += a
	}
}

// finesAccount is where taxes, fines and card charges go: the bank, or
// the Free Parking pot under that rule (8.7 variant).
func (g *Game) finesAccount() int8 {
	if g.rules.FreeParkingJackpot {
		return Jackpot
	}
	return Bank
}

// owed returns the total a taskPay asks for.
func (g *Game) owed(t *task) int {
	if t.to != each {
		return int(t.amount)
	}
	n := 0
	for i := range g.n {
		if i != t.player && !g.p[i].Bankrupt {
			n++
		}
	}
	return n * int(t.amount)
}

// runPay settles a debt if the debtor has the cash; otherwise the debtor
// must raise it (8.14) and the task waits.
func (g *Game) runPay(t *task) bool {
	from := t.player
	if g.p[from].Bankrupt {
		g.pop()
		return true
	}
	amt := g.owed(t)
	if int(g.p[from].Cash) < amt {
		if t.pc == 0 { // announce the debt once, not at every sale
			t.pc = 1
			g.emit(Event{Kind: EvDebt, Player: from, Other: g.creditor(), Square: t.sq, Amount: int64(amt), Reason: t.reason})
		}
		g.pk, g.pp = DecisionRaiseCash, from
		return false
	}
	tt := *t
	g.pop()
	switch tt.reason {
	case ReasonPurchase:
		g.buy(from, int(tt.sq))
		return true
	case ReasonAuction:
		g.winAuction(from, int(tt.sq), amt)
		return true
	}
	if tt.to == each {
		for k := int8(1); k < g.n; k++ {
			j := (from + k) % g.n
			if !g.p[j].Bankrupt {
				g.transfer(from, j, int(tt.amount))
				g.emit(Event{Kind: EvPay, Player: from, Other: j, Amount: tt.amount, Reason: tt.reason})
			}
		}
		return true
	}
	g.transfer(from, tt.to, amt)
	kind := EvPay
	if tt.reason == ReasonRent {
		kind = EvRent
	}
	g.emit(Event{Kind: kind, Player: from, Other: tt.to, Square: tt.sq, Amount: tt.amount, Reason: tt.reason})
	if tt.reason == ReasonJailFine {
		g.leaveJail(from)
	}
	return true
}

// creditor of the debt on top of the stack, for bankruptcy: a player, or
// the bank for anything else (taxes, cards, fees, several players at once).
func (g *Game) creditor() int8 {
	t := &g.tasks[g.nt-1]
	if t.to >= 0 {
		return t.to
	}
	return Bank
}

// declareBankruptcy eliminates p (7.9). To a player: buildings are sold to
// the bank at half price and everything goes to the creditor, who decides
// on each mortgaged property. To the bank: buildings return to the supply,
// properties are unmortgaged and auctioned, jail cards go back to their
// decks and the cash to the bank.
func (g *Game) declareBankruptcy(p, creditor int8) {
	g.emit(Event{Kind: EvBankrupt, Player: p, Other: creditor})
	pl := &g.p[p]
	// Buildings first: sold for the creditor's benefit, or simply returned.
	for m := g.owned[p]; m != 0; m &= m - 1 {
		sq := popLowest(m)
		h := int(g.houses[sq])
		if h == 0 {
			continue
		}
		if h == 5 {
			g.hotelSupply++
		} else {
			g.houseSupply += int16(h)
		}
		g.houses[sq] = 0
		if creditor >= 0 {
			v := h * g.rules.BuildingSalePrice(sq)
			g.transfer(Bank, p, v)
			g.emit(Event{Kind: EvSellBuilding, Player: p, Square: int8(sq), Amount: int64(v)})
		}
	}
	var follow [MaxSquares]task
	nf := 0
	if creditor >= 0 {
		if pl.Cash > 0 {
			g.emit(Event{Kind: EvPay, Player: p, Other: creditor, Amount: pl.Cash, Reason: ReasonBankruptcy})
			g.transfer(p, creditor, int(pl.Cash))
		}
		g.p[creditor].JailCards |= pl.JailCards
		pl.JailCards = 0
		for m := g.owned[p]; m != 0; m &= m - 1 {
			sq := popLowest(m)
			g.setOwner(sq, creditor)
			g.emit(Event{Kind: EvPropertyTransfer, Player: p, Other: creditor, Square: int8(sq)})
			if g.Mortgaged(sq) {
				follow[nf] = task{kind: taskMortgagedTransfer, player: creditor, sq: int8(sq)}
				nf++
			}
		}
	} else {
		if pl.Cash > 0 {
			g.emit(Event{Kind: EvPay, Player: p, Other: Bank, Amount: pl.Cash, Reason: ReasonBankruptcy})
			g.transfer(p, Bank, int(pl.Cash))
		}
		g.returnJailCards(p)
		start := (p + 1) % g.n
		for m := g.owned[p]; m != 0; m &= m - 1 {
			sq := popLowest(m)
			g.setOwner(sq, -1)
			g.mortgaged &^= 1 << sq
			g.emit(Event{Kind: EvPropertyTransfer, Player: p, Other: Bank, Square: int8(sq)})
			if g.rules.Auctions {
				follow[nf] = task{kind: taskAuction, player: start, sq: int8(sq)}
				nf++
			}
		}
	}
	pl.Bankrupt = true
	pl.InJail = false
	pl.JailTurns = 0

	switch g.Active() {
	case 0:
		// The last player fell paying for what it inherited: it stood last.
		g.endGame(p)
		return
	case 1:
		var last int8
		for i := range g.n {
			if !g.p[i].Bankrupt {
				last = i
			}
		}
		if nf == 0 || creditor < 0 {
			g.endGame(last)
			return
		}
		// The winner still settles the mortgaged properties it received
		// (7.9) before the game ends.
		g.clearTasks()
		g.push(task{kind: taskGameOver, player: last})
		for i := nf - 1; i >= 0; i-- {
			g.push(follow[i])
		}
		return
	}
	if p == g.cur {
		g.clearTasks()
		g.push(task{kind: taskEndTurn})
	} else {
		// Drop what the bankrupt player still had to do or decide.
		k := int8(0)
		for i := range g.nt {
			if g.tasks[i].player != p || g.tasks[i].kind == taskEndTurn {
				g.tasks[k] = g.tasks[i]
				k++
			}
		}
		for g.nt > k {
			g.pop()
		}
	}
	for i := nf - 1; i >= 0; i-- {
		g.push(follow[i])
	}
}

// endGame ends the game won by the last player standing.
func (g *Game) endGame(winner int8) {
	g.winner = winner
	g.over = true
	g.clearTasks()
	g.pk = DecisionNone
	g.emit(Event{Kind: EvGameOver, Player: winner})
}

// returnJailCards puts p's Get Out of Jail Free cards back at the bottom
// of their decks (7.9, 8.6).
func (g *Game) returnJailCards(p int8) {
	for m := g.p[p].JailCards; m != 0; m &= m - 1 {
		b := bits.TrailingZeros8(m)
		k := g.rules.keepCards[b]
		g.decks[k.deck].putBottom(k.card)
	}
	g.p[p].JailCards = 0
}

func leadingZeros(m uint64) int { return bits.LeadingZeros64(m) }
