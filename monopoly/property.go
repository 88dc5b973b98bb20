package monopoly

// auctionState is the open ascending auction in progress (8.3).
type auctionState struct {
	Square int8
	High   int64 // highest bid so far (0: none)
	Bidder int8  // highest bidder, -1: none
	Next   int8  // seat to call next
	Out    uint8 // seats that dropped out (bankrupt seats start out)
}

func (g *Game) startAuction(sq int, start int8) {
	if !g.rules.Auctions {
		return // the property stays with the bank
	}
	g.push(task{kind: taskAuction, player: start, sq: int8(sq)})
}

// runAuction calls bidders in seating order until one is left after a
// bid, or everyone drops out before any bid. A player who cannot raise the
// high bid has only one legal answer, so the engine gives it.
func (g *Game) runAuction(t *task) bool {
	a := &g.auction
	if t.pc == 0 {
		t.pc = 1
		*a = auctionState{Square: t.sq, Bidder: -1, Next: t.player}
		for i := range g.n {
			if g.p[i].Bankrupt {
				a.Out |= 1 << i
			}
		}
		g.emit(Event{Kind: EvAuctionStart, Square: t.sq, Player: t.player})
	}
	for {
		in := ^a.Out & (1<<g.n - 1)
		if a.Bidder >= 0 && in == 1<<a.Bidder {
			// The bid is a debt to the bank: short of it (raise_to_buy),
			// the winner raises it as any other.
			g.pop()
			g.push(task{kind: taskPay, player: a.Bidder, to: Bank, sq: a.Square, reason: ReasonAuction, amount: a.High})
			return true
		}
		if in == 0 {
			g.pop()
			g.emit(Event{Kind: EvAuctionUnsold, Square: a.Square})
			return true
		}
		seat := a.Next
		for a.Out&(1<<seat) != 0 || seat == a.Bidder {
			seat = (seat + 1) % g.n
		}
		a.Next = seat
		if int64(g.Funds(int(seat))) <= a.High {
			a.Out |= 1 << seat
			a.Next = (seat + 1) % g.n
			g.emit(Event{Kind: EvDropOut, Player: seat, Square: a.Square})
			continue
		}
		g.pk, g.pp = DecisionBid, seat
		return false
	}
}

// winAuction gives sq to p for its winning bid.
func (g *Game) winAuction(p int8, sq, bid int) {
	g.transfer(p, Bank, bid)
	g.setOwner(sq, p)
	g.emit(Event{Kind: EvAuctionWon, Player: p, Square: int8(sq), Amount: int64(bid)})
}

// buy gives sq to p for its price.
func (g *Game) buy(p int8, sq int) {
	price := g.rules.Squares[sq].Price
	g.transfer(p, Bank, price)
	g.setOwner(sq, p)
	g.emit(Event{Kind: EvBuy, Player: p, Square: int8(sq), Amount: int64(price)})
}

// Funds returns the most player p may pay for a purchase or bid: its
// cash, or under raise_to_buy what it could raise (Monopyly lets a buyer
// sell and mortgage before the money is taken; the rules reference, 7.4,
// sends a property the buyer cannot afford to auction).
func (g *Game) Funds(p int) int {
	if g.rules.RaiseToBuy {
		return g.LiquidationValue(p)
	}
	return int(g.p[p].Cash)
}

// canBuild checks the building rules of 7.5 for one more building on sq
// by p, returning the rule broken.
func (g *Game) canBuild(p int8, sq int) Refusal {
	s := &g.rules.Squares[sq]
	switch {
	case s.Kind != KindStreet:
		return RefusalNotAStreet
	case g.owner[sq] != p:
		return RefusalNotOwner
	case !g.ownsGroup(p, sq):
		return RefusalGroupIncomplete
	case g.mortgaged&s.groupMask != 0:
		return RefusalGroupMortgaged
	case g.houses[sq] >= 5:
		return RefusalHasHotel
	}
	lo, _ := g.groupLevels(sq)
	if g.houses[sq] != lo {
		return RefusalUnevenBuilding
	}
	if g.houses[sq] == 4 {
		if g.hotelSupply == 0 {
			return RefusalNoHotelsLeft
		}
	} else if g.houseSupply == 0 {
		return RefusalNoHousesLeft
	}
	if int(g.p[p].Cash) < g.rules.HouseCost(sq) {
		return RefusalBuildCash
	}
	return RefusalNone
}

// groupLevels returns the fewest and most buildings in sq's group.
func (g *Game) groupLevels(sq int) (lo, hi int8) {
	lo, hi = 5, 0
	for m := g.rules.Squares[sq].groupMask; m != 0; m &= m - 1 {
		h := g.houses[popLowest(m)]
		lo, hi = min(lo, h), max(hi, h)
	}
	return lo, hi
}

func (g *Game) build(p int8, sq int) {
	cost := g.rules.HouseCost(sq)
	g.transfer(p, Bank, cost)
	if g.houses[sq] == 4 {
		g.hotelSupply--
		g.houseSupply += 4 // a hotel replaces four houses, which go back (7.5)
	} else {
		g.houseSupply--
	}
	g.houses[sq]++
	g.emit(Event{Kind: EvBuild, Player: p, Square: int8(sq), Amount: int64(cost), Other: g.houses[sq]})
}

func (g *Game) canSell(p int8, sq int) Refusal {
	switch {
	case g.owner[sq] != p:
		return RefusalNotOwner
	case g.houses[sq] == 0:
		return RefusalNoBuildings
	}
	if _, hi := g.groupLevels(sq); g.houses[sq] != hi {
		return RefusalUnevenSale
	}
	return RefusalNone
}

// sellBuilding sells one building at half its cost (7.6). A hotel goes
// back to four houses; when the bank has fewer than four, the hotel is
// sold outright and the street keeps only the houses the bank can supply,
// the others being sold with it (8.2).
func (g *Game) sellBuilding(p int8, sq int) {
	half := g.rules.BuildingSalePrice(sq)
	sold := 1
	if g.houses[sq] == 5 {
		keep := min(4, int(g.houseSupply))
		g.hotelSupply++
		g.houseSupply -= int16(keep)
		sold += 4 - keep
		g.houses[sq] = int8(keep)
	} else {
		g.houseSupply++
		g.houses[sq]--
	}
	g.transfer(Bank, p, sold*half)
	g.emit(Event{Kind: EvSellBuilding, Player: p, Square: int8(sq), Amount: int64(sold * half), Other: g.houses[sq]})
}

func (g *Game) canMortgage(p int8, sq int) Refusal {
	s := &g.rules.Squares[sq]
	switch {
	case !s.Ownable() || g.owner[sq] != p:
		return RefusalNotOwner
	case g.Mortgaged(sq):
		return RefusalAlreadyMortgaged
	}
	if _, hi := g.groupLevels(sq); s.Kind == KindStreet && hi > 0 {
		return RefusalSellBuildingsFirst
	}
	return RefusalNone
}

func (g *Game) mortgage(p int8, sq int) {
	g.mortgaged |= 1 << sq
	amt := g.rules.Squares[sq].Mortgage
	g.transfer(Bank, p, amt)
	g.emit(Event{Kind: EvMortgage, Player: p, Square: int8(sq), Amount: int64(amt)})
}

func (g *Game) canUnmortgage(p int8, sq int) Refusal {
	switch {
	case !g.rules.Squares[sq].Ownable() || g.owner[sq] != p:
		return RefusalNotOwner
	case !g.Mortgaged(sq):
		return RefusalNotMortgaged
	case int(g.p[p].Cash) < g.rules.UnmortgageCost(sq):
		return RefusalUnmortgageCash
	}
	return RefusalNone
}

func (g *Game) unmortgage(p int8, sq int) {
	cost := g.rules.UnmortgageCost(sq)
	g.transfer(p, Bank, cost)
	g.mortgaged &^= 1 << sq
	g.emit(Event{Kind: EvUnmortgage, Player: p, Square: int8(sq), Amount: int64(cost)})
}

// TradeOffer is a proposed trade (7.7): what the proposer gives and what
// it asks for. Squares are bit sets (bit i: square i); jail cards are bit
// sets of Get Out of Jail Free cards (see JailCardBit). Under sealed deals
// the cash is a limit: GiveCash the most the proposer pays, GetCash the
// least it wants, at most one of them set; the target does not see it.
type TradeOffer struct {
	From, To    int8
	GiveSquares uint64
	GetSquares  uint64
	GiveCash    int64
	GetCash     int64
	GiveCards   uint8
	GetCards    uint8
}

// JailCardBit returns the bit of deck d's Get Out of Jail Free card in
// TradeOffer card sets.
func (r *Rules) JailCardBit(d int) (uint8, bool) {
	b, ok := r.keepBit(d)
	return 1 << b, ok
}

// checkOffer checks a proposal; a counter-offer (counter) is not one of
// the proposer's proposals and is not counted against its limits.
func (g *Game) checkOffer(o *TradeOffer, counter bool) Refusal {
	if o.To < 0 || o.To >= g.n || o.To == o.From || g.p[o.To].Bankrupt {
		return RefusalNoSuchPlayer
	}
	if o.GiveSquares&o.GetSquares != 0 {
		return RefusalSquareBothSides
	}
	if o.GiveSquares&^g.owned[o.From] != 0 {
		return RefusalOfferNotOwned
	}
	if o.GetSquares&^g.owned[o.To] != 0 {
		return RefusalAskNotOwned
	}
	for m := o.GiveSquares | o.GetSquares; m != 0; m &= m - 1 {
		sq := popLowest(m)
		if _, hi := g.groupLevels(sq); g.rules.Squares[sq].Kind == KindStreet && hi > 0 {
			return RefusalTradeBuildings
		}
	}
	switch {
	case o.GiveCash < 0 || o.GetCash < 0:
		return RefusalNegativeCash
	case o.GiveCash > g.p[o.From].Cash:
		return RefusalOfferCash
	case o.GetCash > g.p[o.To].Cash:
		return RefusalAskCash
	case o.GiveCards&^g.p[o.From].JailCards != 0:
		return RefusalOfferJailCard
	case o.GetCards&^g.p[o.To].JailCards != 0:
		return RefusalAskJailCard
	case o.GiveSquares|o.GetSquares == 0 && o.GiveCards|o.GetCards == 0 && o.GiveCash == o.GetCash:
		return RefusalEmptyTrade
	case g.rules.DealProtocol == DealsSealed && o.GiveCash != 0 && o.GetCash != 0:
		return RefusalSealedBothLimits
	case g.rules.DealProtocol == DealsSealed && o.GiveSquares|o.GetSquares == 0:
		return RefusalSealedNoProperty
	case counter || g.ProposalsLeft(int(o.From)) > 0:
		return RefusalNone
	case int(g.proposals[o.From]) >= g.rules.TradesPerPhase:
		return RefusalPhaseProposals
	}
	return RefusalTurnProposals
}

// settleSealed answers a sealed offer with the target's limit floor: the
// least net cash it takes from the proposer (negative: the most it pays).
// When the limits meet, the cash midway between them changes hands, the
// amount paid rounded down (004); otherwise nothing happens.
func (g *Game) settleSealed(floor int64) {
	o := g.offer
	ceiling := o.GiveCash - o.GetCash
	if floor > ceiling {
		g.emit(Event{Kind: EvTradeRejected, Player: o.From, Other: o.To, Trade: o, Flag: true})
		return
	}
	// Go's division truncates toward zero: whoever pays, pays less.
	cash := (ceiling + floor) / 2
	o.GiveCash, o.GetCash = max(cash, 0), max(-cash, 0)
	g.executeTrade(o)
}

// executeTrade carries out an accepted offer. Whoever receives a mortgaged
// property then chooses to keep it mortgaged or lift the mortgage, paying
// the 10% fee either way (7.7).
func (g *Game) executeTrade(o TradeOffer) {
	for m := o.GiveSquares; m != 0; m &= m - 1 {
		g.setOwner(popLowest(m), o.To)
	}
	for m := o.GetSquares; m != 0; m &= m - 1 {
		g.setOwner(popLowest(m), o.From)
	}
	if o.GiveCash > 0 {
		g.transfer(o.From, o.To, int(o.GiveCash))
	}
	if o.GetCash > 0 {
		g.transfer(o.To, o.From, int(o.GetCash))
	}
	g.p[o.From].JailCards = g.p[o.From].JailCards&^o.GiveCards | o.GetCards
	g.p[o.To].JailCards = g.p[o.To].JailCards&^o.GetCards | o.GiveCards
	g.emit(Event{Kind: EvTradeAccepted, Player: o.From, Other: o.To, Trade: o})
	// Pushed in reverse: the target decides first, in board order.
	g.pushTransfers(o.From, o.GetSquares&g.mortgaged)
	g.pushTransfers(o.To, o.GiveSquares&g.mortgaged)
}

func (g *Game) pushTransfers(p int8, m uint64) {
	for ; m != 0; m &^= 1 << (63 - leadingZeros(m)) {
		g.push(task{kind: taskMortgagedTransfer, player: p, sq: int8(63 - leadingZeros(m))})
	}
}
