package monopoly

import "slices"

// View is what one player may know of a game: everything public, and its
// own holdings. It hides the generator and the order of the decks. A View
// is a window on the live game, valid until the next Apply; it costs
// nothing to make, which keeps bot-only games allocation-free.
type View struct {
	g  *Game
	me int
}

// View returns player p's view of the game.
func (g *Game) View(p int) View { return View{g: g, me: p} }

// Me returns the viewing player's seat.
func (v View) Me() int { return v.me }

// Rules returns the rules.
func (v View) Rules() *Rules { return v.g.rules }

// Players returns the number of seats.
func (v View) Players() int { return int(v.g.n) }

// Current returns the seat whose turn it is.
func (v View) Current() int { return int(v.g.cur) }

// Round returns the round number.
func (v View) Round() int { return int(v.g.round) }

// Turn returns how many turns have started.
func (v View) Turn() int { return int(v.g.turn) }

// Phase returns where the current turn stands.
func (v View) Phase() Phase { return v.g.phase }

// Pending returns the decision the game waits for.
func (v View) Pending() Decision { return v.g.Pending() }

// RollsAgain reports whether going on after this roll rolls again.
func (v View) RollsAgain() bool { return v.g.RollsAgain() }

// Counterparty returns the other party of the pending decision (see
// Game.Counterparty).
func (v View) Counterparty() int { return v.g.Counterparty() }

// PendingOffer returns the trade offer awaiting an answer, as the viewer
// may see it: under sealed deals only the proposer sees the cash limit.
func (v View) PendingOffer() TradeOffer { return v.g.rules.sealFor(v.g.offer, v.me) }

// TradeRound returns how many counter-offers the negotiation in progress
// has had.
func (v View) TradeRound() int { return v.g.TradeRound() }

// ProposalsLeft returns how many more trades player p may propose in the
// current phase and turn.
func (v View) ProposalsLeft(p int) int { return v.g.ProposalsLeft(p) }

// Cash returns a player's cash (cash is public in Monopoly).
func (v View) Cash(p int) int { return v.g.Cash(p) }

// Position returns a player's square.
func (v View) Position(p int) int { return v.g.Position(p) }

// InJail reports whether a player is in jail.
func (v View) InJail(p int) bool { return v.g.InJail(p) }

// JailTurns returns a jailed player's failed attempts so far.
func (v View) JailTurns(p int) int { return v.g.JailTurns(p) }

// JailCardCount returns how many Get Out of Jail Free cards p holds.
func (v View) JailCardCount(p int) int { return v.g.JailCardCount(p) }

// JailCardBits returns the set of p's Get Out of Jail Free cards, as used
// in TradeOffer.
func (v View) JailCardBits(p int) uint8 { return v.g.p[p].JailCards }

// Bankrupt reports whether a player is out.
func (v View) Bankrupt(p int) bool { return v.g.Bankrupt(p) }

// Active returns how many players are still in the game.
func (v View) Active() int { return v.g.Active() }

// Owner returns the owner of a square, or -1.
func (v View) Owner(sq int) int { return v.g.Owner(sq) }

// Houses returns the buildings on a square (5: hotel).
func (v View) Houses(sq int) int { return v.g.Houses(sq) }

// Mortgaged reports whether a square is mortgaged.
func (v View) Mortgaged(sq int) bool { return v.g.Mortgaged(sq) }

// OwnedMask returns the set of squares p owns.
func (v View) OwnedMask(p int) uint64 { return v.g.owned[p] }

// MortgagedMask returns the set of mortgaged squares.
func (v View) MortgagedMask() uint64 { return v.g.mortgaged }

// Monopoly reports whether p owns the whole colour group of the street sq.
func (v View) Monopoly(p, sq int) bool { return v.g.Monopoly(p, sq) }

// HouseSupply returns the houses left in the bank.
func (v View) HouseSupply() int { return v.g.HouseSupply() }

// HotelSupply returns the hotels left in the bank.
func (v View) HotelSupply() int { return v.g.HotelSupply() }

// JackpotCash returns the Free Parking pot.
func (v View) JackpotCash() int { return v.g.JackpotCash() }

// DeckSize returns how many cards are in a deck (not their order).
func (v View) DeckSize(d int) int { return v.g.DeckSize(d) }

// LastSpeedDie is Game.LastSpeedDie.
func (v View) LastSpeedDie() SpeedFace { return v.g.LastSpeedDie() }

// PassedGo is Game.PassedGo.
func (v View) PassedGo(p int) bool { return v.g.PassedGo(p) }

// LastRoll returns the dice of the latest roll.
func (v View) LastRoll() (int, int) { return v.g.LastRoll() }

// RentDice is the dice total a utility's rent is counted from now
// (Game.RentDice).
func (v View) RentDice() int { return v.g.RentDice() }

// Rent returns the rent on sq for a dice total.
func (v View) Rent(sq, diceTotal int) int { return v.g.Rent(sq, diceTotal) }

// NetWorth returns a player's net worth (7.10).
func (v View) NetWorth(p int) int { return v.g.NetWorth(p) }

// LiquidationValue returns what p could raise on top of its cash.
func (v View) LiquidationValue(p int) int { return v.g.LiquidationValue(p) }

// DebtReason returns why a pending raise_cash debt is owed (Game.DebtReason).
func (v View) DebtReason() Reason { return v.g.DebtReason() }

// Funds returns the most player p may pay for a purchase or bid (Game.Funds).
func (v View) Funds(p int) int { return v.g.Funds(p) }

// Check reports whether an action would be legal now, without applying it.
func (v View) Check(a Action) error { return v.g.Check(a) }

// Refusal is the rule that refuses a (see Game.Refusal).
func (v View) Refusal(a Action) Refusal { return v.g.Refusal(a) }

// LegalActions appends the enumerable legal answers (see Game.LegalActions).
func (v View) LegalActions(buf []Action) []Action { return v.g.LegalActions(buf) }

// Fork returns a game consistent with the view, for look-ahead: the
// position as the viewer knows it, with what it cannot know (the order of
// the cards in each deck, the generator) drawn afresh from seed, and a
// sealed offer's cash limits, which only their proposer knows, set to 0.
func (v View) Fork(seed uint64) *Game {
	f := new(Game)
	v.ForkInto(f, seed)
	return f
}

// ForkInto makes f the fork Fork(seed) would return, reusing f's memory:
// a planner forking at every decision allocates nothing.
func (v View) ForkInto(f *Game, seed uint64) {
	f.CopyFrom(v.g)
	f.offer = f.rules.sealFor(f.offer, v.me)
	f.record = false
	f.script = nil
	f.rng.Seed(seed, seed^0x5851f42d4c957f2d)
	for d := range f.rules.Decks {
		deck := &f.decks[d]
		var cards [MaxDeckCards]uint8
		n := int(deck.N)
		for i := range n {
			cards[i] = uint8(deck.draw())
		}
		// In a canonical order before the shuffle, so that the fork
		// depends on which cards the deck holds, which is public, and not
		// on their order, which nobody may know.
		slices.Sort(cards[:n])
		*deck = deckState{}
		f.shuffleOnto(deck, cards[:n])
	}
}

// CanBuild reports whether the viewer may build on sq now. The Can
// methods call the rules directly, without Check's dispatch: bots ask them
// in loops on every turn.
func (v View) CanBuild(sq int) bool {
	return v.deciding(DecisionManage) && v.onBoard(sq) && v.g.canBuild(int8(v.me), sq) == RefusalNone
}

// CanSellBuilding reports whether the viewer may sell a building on sq now.
func (v View) CanSellBuilding(sq int) bool {
	return v.mayRaise() && v.onBoard(sq) && v.g.canSell(int8(v.me), sq) == RefusalNone
}

// CanMortgage reports whether the viewer may mortgage sq now.
func (v View) CanMortgage(sq int) bool {
	return v.mayRaise() && v.onBoard(sq) && v.g.canMortgage(int8(v.me), sq) == RefusalNone
}

// CanUnmortgage reports whether the viewer may lift the mortgage on sq now.
func (v View) CanUnmortgage(sq int) bool {
	return v.deciding(DecisionManage) && v.onBoard(sq) && v.g.canUnmortgage(int8(v.me), sq) == RefusalNone
}

func (v View) deciding(k DecisionKind) bool { return v.g.pk == k && int(v.g.pp) == v.me }

func (v View) mayRaise() bool { return v.deciding(DecisionManage) || v.deciding(DecisionRaiseCash) }

func (v View) onBoard(sq int) bool { return sq >= 0 && sq < len(v.g.rules.Squares) }
