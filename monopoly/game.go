// Package monopoly is a rules-exact Monopoly engine: a deterministic state
// machine that advances on its own through everything the rules decide
// (dice, movement, rent, cards, taxes) and stops where a player must
// choose. Pending says who decides what; Apply takes the answer, refuses
// an illegal one without changing anything, and advances to the next
// decision.
//
// The state is plain values (fixed-size arrays, small integers), so Clone
// is a copy that plays on identically, and the random generator lives in
// the state. The package does no I/O, starts no goroutines and reads no
// clock. Rule numbers in comments and errors refer to the rules reference.
package monopoly

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Account numbers besides the seats.
const (
	Bank    = -1 // the bank
	Jackpot = -2 // the Free Parking pot (free_parking_jackpot rule)
	each    = -3 // every other active player, in turn
)

// Phase is where the current turn stands.
type Phase uint8

// Turn phases.
const (
	PhaseBeforeRoll Phase = iota // manage before the roll
	PhaseJail                    // choosing how to leave jail
	PhaseResolve                 // the engine resolves a roll
	PhaseAfterRoll               // manage after the roll
)

var phaseNames = names[Phase]{"Phase", []string{"before_roll", "jail", "resolve", "after_roll"}}

func (p Phase) String() string { return phaseNames.of(p) }

type playerState struct {
	Cash      int64
	Pos       int8
	InJail    bool
	JailTurns int8 // failed rolls in jail so far
	Bankrupt  bool
	JailCards uint8 // held Get Out of Jail Free cards, by keep-card bit
	PassedGo  bool  // has collected the GO salary (the speed die's first lap)
}

// deckState is a deck as a ring: draw from the top, return to the bottom.
type deckState struct {
	Cards [MaxDeckCards]uint8
	Top   uint8
	N     uint8
}

func (d *deckState) draw() int {
	c := d.Cards[d.Top]
	d.Top = (d.Top + 1) % MaxDeckCards
	d.N--
	return int(c)
}

func (d *deckState) putBottom(c int) {
	d.Cards[(int(d.Top)+int(d.N))%MaxDeckCards] = uint8(c)
	d.N++
}

// Game is one game: its rules, its state, and the event log. The zero
// value is not usable; make one with New or NewFromSetup.
type Game struct {
	state
	rules  *Rules
	script *diceScript
	record bool
	events []Event
}

// state is everything that changes during a game, as plain comparable
// values: copying it forks the game, and == compares two positions.
type state struct {
	rng         rand.PCG
	n           int8 // seats
	p           [MaxPlayers]playerState
	owner       [MaxSquares]int8 // -1: unowned
	houses      [MaxSquares]int8 // 5: hotel
	owned       [MaxPlayers]uint64
	mortgaged   uint64
	houseSupply int16
	hotelSupply int16
	jackpot     int64
	decks       [MaxDecks]deckState

	cur       int8 // whose turn it is
	doubles   int8 // doubles rolled this turn
	phase     Phase
	rollAgain bool // the last roll was doubles (not from jail): roll again
	jailedNow bool // the current player was sent to jail this turn
	lastRoll  [2]int8
	lastSpeed SpeedFace // the speed die with the latest roll; SpeedNone: not thrown (or another roll since)
	round     int32
	turn      int32
	// Trade proposals each player made in the current decision phase and
	// in the current turn: a debtor raising cash on another's turn has a
	// budget of its own.
	proposals [MaxPlayers]int8
	turnProps [MaxPlayers]int8
	counters  int8 // counter-offers made in the current negotiation
	landings  int8 // squares resolved since the last roll (maxLandings)

	tasks   [maxTasks]task
	nt      int8
	pk      DecisionKind // pending decision
	pp      int8         // who decides it
	auction auctionState
	offer   TradeOffer

	over    bool
	capped  bool
	winner  int8
	bankNet int64 // money the bank paid out minus money it took in
	money0  int64 // cash and pot at the start
	rolls   int64 // dice rolls so far
}

// diceScript replaces the generator's dice by a fixed list (conformance
// scenarios); when it runs out the game waits.
type diceScript struct {
	dice  [][2]int
	speed []SpeedFace // by roll: the speed die's face, SpeedNone when not given
	pos   int
	miss  int // 1 + the first roll whose given speed face was not thrown; 0: none
}

// New starts a game of the given number of players under rules r, seeded
// with seed; seat 0 plays first. It panics on a number of players outside
// 2 to MaxPlayers.
func New(r *Rules, players int, seed uint64) *Game {
	g := &Game{rules: r}
	g.startStandard(players, seed)
	return g
}

// Reset starts a new game in g's memory, as New(g.Rules(), g.Players(),
// seed) would, so that a long simulation allocates no game per game. It
// keeps whether events are recorded and drops those of the last game,
// though not their buffer, so that a watched simulation allocates none.
func (g *Game) Reset(seed uint64) {
	n := int(g.n)
	*g = Game{rules: g.rules, record: g.record, events: g.events[:0]}
	g.startStandard(n, seed)
}

func (g *Game) startStandard(players int, seed uint64) {
	if players < 2 || players > MaxPlayers {
		panic(fmt.Sprintf("monopoly: %d players; the game takes 2 to %d", players, MaxPlayers))
	}
	var ps [MaxPlayers]PlayerSetup
	for i := range players {
		ps[i].Cash = g.rules.StartingCash
	}
	if err := g.start(Setup{Players: ps[:players], Seed: seed, HouseSupply: -1, HotelSupply: -1}); err != nil {
		panic(err) // the standard start of valid rules
	}
}

// Setup is a starting position: who holds what, where, and which cards lie
// on top of the decks.
type Setup struct {
	Players     []PlayerSetup
	Properties  []PropertySetup
	HouseSupply int // -1: the rules' supply less the houses standing
	HotelSupply int // -1: the rules' supply less the hotels standing
	DeckTops    [MaxDecks][]int
	First       int // seat that takes the first turn
	Seed        uint64
}

// PlayerSetup is a player's starting state.
type PlayerSetup struct {
	Cash      int
	Position  int
	InJail    bool
	JailTurns int
	JailCards []int // decks whose Get Out of Jail Free card the player holds
	PassedGo  bool  // has passed GO: its rolls throw the speed die, when the rules have one
}

// PropertySetup is an owned property at the start.
type PropertySetup struct {
	Square    int
	Owner     int
	Houses    int // 5: hotel
	Mortgaged bool
}

// NewFromSetup starts a game from a prepared position. The rest of each
// deck, below the given tops, is shuffled with the seed.
func NewFromSetup(r *Rules, s Setup) (*Game, error) {
	g := &Game{rules: r}
	if err := g.start(s); err != nil {
		return nil, err
	}
	return g, nil
}

// start sets up the position s in g, whose rules are set and state zero.
func (g *Game) start(s Setup) error {
	r := g.rules
	n := len(s.Players)
	if n < 2 || n > MaxPlayers {
		return fmt.Errorf("monopoly: %d players; the game takes 2 to %d", n, MaxPlayers)
	}
	if s.First < 0 || s.First >= n {
		return fmt.Errorf("monopoly: first player %d out of range", s.First)
	}
	g.n, g.winner, g.cur, g.round = int8(n), -1, int8(s.First), 1
	g.rng.Seed(s.Seed, s.Seed^0x9e3779b97f4a7c15)
	for i := range g.owner {
		g.owner[i] = -1
	}
	for i, ps := range s.Players {
		if ps.Cash < 0 {
			return fmt.Errorf("monopoly: player %d: negative cash %d", i, ps.Cash)
		}
		if ps.Position < 0 || ps.Position >= len(r.Squares) {
			return fmt.Errorf("monopoly: player %d: position %d is off the board", i, ps.Position)
		}
		if ps.JailTurns < 0 || ps.JailTurns >= r.JailTurns {
			return fmt.Errorf("monopoly: player %d: jail_turns %d; must be 0 to %d", i, ps.JailTurns, r.JailTurns-1)
		}
		if ps.InJail && ps.Position != r.JailSquare {
			return fmt.Errorf("monopoly: player %d: in jail but on square %d, not the jail (%d)", i, ps.Position, r.JailSquare)
		}
		p := &g.p[i]
		p.Cash = int64(ps.Cash)
		p.Pos = int8(ps.Position)
		p.InJail = ps.InJail
		p.PassedGo = ps.PassedGo
		if ps.InJail {
			p.JailTurns = int8(ps.JailTurns)
		}
		for _, d := range ps.JailCards {
			bit, ok := r.keepBit(d)
			if !ok {
				return fmt.Errorf("monopoly: player %d: deck %d has no Get Out of Jail Free card", i, d)
			}
			if g.heldBy(bit) >= 0 {
				return fmt.Errorf("monopoly: player %d: that Get Out of Jail Free card is already held", i)
			}
			p.JailCards |= 1 << bit
		}
		g.money0 += int64(ps.Cash)
	}
	standingHouses, standingHotels := 0, 0
	for _, ps := range s.Properties {
		if ps.Square < 0 || ps.Square >= len(r.Squares) || !r.Squares[ps.Square].Ownable() {
			return fmt.Errorf("monopoly: square %d cannot be owned", ps.Square)
		}
		name := r.Squares[ps.Square].Name
		if ps.Owner < 0 || ps.Owner >= n {
			return fmt.Errorf("monopoly: %s: owner %d out of range", name, ps.Owner)
		}
		if g.owner[ps.Square] >= 0 {
			return fmt.Errorf("monopoly: %s listed twice", name)
		}
		if ps.Houses < 0 || ps.Houses > 5 || (ps.Houses > 0 && r.Squares[ps.Square].Kind != KindStreet) {
			return fmt.Errorf("monopoly: %s: %d houses not possible", name, ps.Houses)
		}
		if ps.Houses > 0 && ps.Mortgaged {
			return fmt.Errorf("monopoly: %s: a mortgaged property cannot have buildings", name)
		}
		g.setOwner(ps.Square, int8(ps.Owner))
		g.houses[ps.Square] = int8(ps.Houses)
		if ps.Mortgaged {
			g.mortgaged |= 1 << ps.Square
		}
		if ps.Houses == 5 {
			standingHotels++
		} else {
			standingHouses += ps.Houses
		}
	}
	for _, ps := range s.Properties {
		if ps.Houses > 0 && !g.ownsGroup(int8(ps.Owner), ps.Square) {
			return fmt.Errorf("monopoly: %s: buildings need the whole colour group", r.Squares[ps.Square].Name)
		}
	}
	g.houseSupply = int16(r.MaxHouses - standingHouses)
	g.hotelSupply = int16(r.MaxHotels - standingHotels)
	if s.HouseSupply >= 0 {
		g.houseSupply = int16(s.HouseSupply)
	}
	if s.HotelSupply >= 0 {
		g.hotelSupply = int16(s.HotelSupply)
	}
	if g.houseSupply < 0 || g.hotelSupply < 0 {
		return fmt.Errorf("monopoly: more buildings standing than the supply holds")
	}
	for d := range r.Decks {
		if err := g.buildDeck(d, s.DeckTops[d]); err != nil {
			return err
		}
	}
	g.startTurn()
	g.advance()
	return nil
}

func (g *Game) buildDeck(d int, tops []int) error {
	cards := g.rules.Decks[d].Cards
	var used [MaxDeckCards]bool
	for i, c := range cards {
		if c.Keep && g.heldBy(c.keepBit) >= 0 {
			used[i] = true
		}
	}
	deck := &g.decks[d]
	for _, c := range tops {
		if c < 0 || c >= len(cards) || used[c] {
			return fmt.Errorf("monopoly: deck %s: card %d cannot be placed on top (unknown, held or listed twice)", g.rules.Decks[d].Name, c)
		}
		used[c] = true
		deck.putBottom(c)
	}
	var rest [MaxDeckCards]uint8
	nr := 0
	for i := range cards {
		if !used[i] {
			rest[nr] = uint8(i)
			nr++
		}
	}
	g.shuffleOnto(deck, rest[:nr])
	return nil
}

// shuffleOnto shuffles cards (Fisher-Yates, from the game's generator)
// and puts them under deck.
func (g *Game) shuffleOnto(deck *deckState, cards []uint8) {
	for i := len(cards) - 1; i > 0; i-- {
		j := g.intn(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
	for _, c := range cards {
		deck.putBottom(int(c))
	}
}

func (r *Rules) keepBit(deck int) (uint8, bool) {
	for i, k := range r.keepCards {
		if k.deck == deck {
			return uint8(i), true
		}
	}
	return 0, false
}

// heldBy returns the seat holding the keep card with the given bit, or -1.
func (g *Game) heldBy(bit uint8) int {
	for i := range g.n {
		if g.p[i].JailCards&(1<<bit) != 0 {
			return int(i)
		}
	}
	return -1
}

// Clone returns an independent copy that plays on identically. The copy
// starts with an empty event log.
func (g *Game) Clone() *Game {
	c := *g
	c.events = nil
	if g.script != nil {
		s := *g.script
		c.script = &s
	}
	return &c
}

// CopyFrom makes g a copy of src, reusing g's event buffer: the
// allocation-free form of Clone for planners.
func (g *Game) CopyFrom(src *Game) {
	ev := g.events[:0]
	*g = *src
	g.events = ev
	if src.script != nil {
		s := *src.script
		g.script = &s
	}
}

// SameState reports whether two games stand in exactly the same position,
// down to the generator and the order of the decks.
func (g *Game) SameState(h *Game) bool {
	if g.state != h.state || (g.script == nil) != (h.script == nil) {
		return false
	}
	return g.script == nil || g.script.pos == h.script.pos
}

// ScriptDice makes every later roll take the next pair of dice from the
// list instead of the generator. When the list is exhausted the game
// waits: Apply refuses an action that would roll with ErrNoDice, and a
// roll needed in the middle of resolving a move leaves no decision
// pending (NeedsDice reports it).
func (g *Game) ScriptDice(dice [][2]int) {
	speed := []SpeedFace(nil)
	if g.script != nil {
		speed = g.script.speed
	}
	g.script = &diceScript{dice: dice, speed: speed}
}

// NeedsDice reports whether the game is waiting for scripted dice.
func (g *Game) NeedsDice() bool { return g.pk == DecisionNone && !g.over }

// ErrNoDice is returned when scripted dice have run out.
var ErrNoDice = errors.New("monopoly: no scripted dice left")

func (g *Game) canRoll() bool { return g.script == nil || g.script.pos < len(g.script.dice) }

// roll throws two dice: one draw of the generator, mapped without bias
// onto the 36 outcomes.
func (g *Game) roll() (int, int) {
	g.rolls++
	g.lastSpeed = SpeedNone // a roll's own speed die, if any, is thrown after it (rollSpeed)
	if s := g.script; s != nil {
		d := s.dice[s.pos]
		s.pos++
		if s.miss == 0 && s.speedAt(s.pos-1) != SpeedNone {
			s.miss = s.pos // until rollSpeed throws it
		}
		g.lastRoll = [2]int8{int8(d[0]), int8(d[1])}
		return d[0], d[1]
	}
	x := g.intn(36)
	d1, d2 := x/6+1, x%6+1
	g.lastRoll = [2]int8{int8(d1), int8(d2)}
	return d1, d2
}

// intn returns a uniform integer in [0, n) by Lemire's method, which
// divides only in the rare case that a draw may need rejecting.
func (g *Game) intn(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(g.rng.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(g.rng.Uint64(), un)
		}
	}
	return int(hi)
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// Players returns the number of seats.
func (g *Game) Players() int { return int(g.n) }

// Current returns the seat whose turn it is.
func (g *Game) Current() int { return int(g.cur) }

// Round returns the round number (1 for the first round).
func (g *Game) Round() int { return int(g.round) }

// RoundsPlayed is the round the game is in, or for a game the round
// limit ended, the limit: its counter has moved on to the round that
// was not played.
func (g *Game) RoundsPlayed() int {
	if g.capped {
		return min(int(g.round), g.rules.MaxRounds)
	}
	return int(g.round)
}

// Turn returns how many turns have started (1 during the first turn).
func (g *Game) Turn() int { return int(g.turn) }

// Phase returns where the current turn stands.
func (g *Game) Phase() Phase { return g.phase }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.over }

// Capped reports whether the game ended at the round limit (7.10).
func (g *Game) Capped() bool { return g.capped }

// Winner returns the winning seat, or -1 while the game goes on or when a
// timed game ended in a tie.
func (g *Game) Winner() int { return int(g.winner) }

// Cash returns a player's cash.
func (g *Game) Cash(p int) int { return int(g.p[p].Cash) }

// Position returns a player's square.
func (g *Game) Position(p int) int { return int(g.p[p].Pos) }

// InJail reports whether a player is in jail (not just visiting).
func (g *Game) InJail(p int) bool { return g.p[p].InJail }

// JailTurns returns a jailed player's failed attempts so far.
func (g *Game) JailTurns(p int) int { return int(g.p[p].JailTurns) }

// Bankrupt reports whether a player is out of the game.
func (g *Game) Bankrupt(p int) bool { return g.p[p].Bankrupt }

// JailCards returns the decks whose Get Out of Jail Free card p holds.
func (g *Game) JailCards(p int) []int {
	var ds []int
	for b, k := range g.rules.keepCards {
		if g.p[p].JailCards&(1<<b) != 0 {
			ds = append(ds, k.deck)
		}
	}
	return ds
}

// JailCardCount returns how many Get Out of Jail Free cards p holds.
func (g *Game) JailCardCount(p int) int { return bits.OnesCount8(g.p[p].JailCards) }

// Owner returns the owner of a square, or -1.
func (g *Game) Owner(sq int) int { return int(g.owner[sq]) }

// Houses returns the buildings on a square: 0-4 houses, 5 a hotel.
func (g *Game) Houses(sq int) int { return int(g.houses[sq]) }

// Mortgaged reports whether a square is mortgaged.
func (g *Game) Mortgaged(sq int) bool { return g.mortgaged&(1<<sq) != 0 }

// OwnedMask returns the set of squares p owns, one bit per square.
func (g *Game) OwnedMask(p int) uint64 { return g.owned[p] }

// MortgagedMask returns the set of mortgaged squares.
func (g *Game) MortgagedMask() uint64 { return g.mortgaged }

// HouseSupply returns the houses left in the bank.
func (g *Game) HouseSupply() int { return int(g.houseSupply) }

// HotelSupply returns the hotels left in the bank.
func (g *Game) HotelSupply() int { return int(g.hotelSupply) }

// JackpotCash returns the Free Parking pot.
func (g *Game) JackpotCash() int { return int(g.jackpot) }

// DeckSize returns how many cards are in a deck.
func (g *Game) DeckSize(d int) int { return int(g.decks[d].N) }

// Rolls returns how many times dice have been rolled.
func (g *Game) Rolls() int64 { return g.rolls }

// LastRoll returns the dice of the latest roll.
func (g *Game) LastRoll() (int, int) { return int(g.lastRoll[0]), int(g.lastRoll[1]) }

// BankFlow returns money the bank has paid out minus money it has taken
// in since the start; with the cash of the players and the pot it closes
// the books.
func (g *Game) BankFlow() int64 { return g.bankNet }

// StartingMoney is the players' cash and the pot at the start.
func (g *Game) StartingMoney() int64 { return g.money0 }

// Active returns how many players are not bankrupt.
func (g *Game) Active() int {
	n := 0
	for i := range g.n {
		if !g.p[i].Bankrupt {
			n++
		}
	}
	return n
}

// NetWorth is the worth that decides a timed game (7.10): cash and what
// Rules.Counted counts each property at.
func (g *Game) NetWorth(p int) int {
	w := int(g.p[p].Cash)
	for m := g.owned[p]; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		w += g.rules.Counted(sq, g.Mortgaged(sq), int(g.houses[sq]))
	}
	return w
}

// assets is cash plus printed prices plus building costs: the base of the
// percentage income tax.
func (g *Game) assets(p int) int {
	w := int(g.p[p].Cash)
	for m := g.owned[p]; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		w += g.rules.Squares[sq].Price + int(g.houses[sq])*g.rules.HouseCost(sq)
	}
	return w
}

// LiquidationValue is what p could raise by selling every building and
// mortgaging every property, on top of its cash (8.15).
func (g *Game) LiquidationValue(p int) int {
	v := int(g.p[p].Cash)
	for m := g.owned[p]; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		v += g.rules.raisable(sq, g.Mortgaged(sq), int(g.houses[sq]))
	}
	return v
}

func (g *Game) setOwner(sq int, o int8) {
	if old := g.owner[sq]; old >= 0 {
		g.owned[old] &^= 1 << sq
	}
	g.owner[sq] = o
	if o >= 0 {
		g.owned[o] |= 1 << sq
	}
}

// ownsGroup reports whether p owns every square of sq's group.
func (g *Game) ownsGroup(p int8, sq int) bool {
	m := g.rules.Squares[sq].groupMask
	return p >= 0 && g.owned[p]&m == m
}

// Monopoly reports whether p owns the whole colour group of the street sq.
func (g *Game) Monopoly(p, sq int) bool {
	return g.rules.Squares[sq].Kind == KindStreet && g.ownsGroup(int8(p), sq)
}
