package deal

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Phase is the kind of decision the game waits for.
type Phase uint8

// Phases of a game.
const (
	// PhasePlay: the player whose streak it is plays a card or passes.
	PhasePlay Phase = iota
	// PhaseRespond: the other player answers a rent demand, one payment
	// (or Just Say No, or Yield) per decision.
	PhaseRespond
	// PhaseOver: the game has ended; Result tells how.
	PhaseOver
)

var phaseNames = [...]string{PhasePlay: "play", PhaseRespond: "respond", PhaseOver: "over"}

// String returns the phase's name as used in the JSON state.
func (p Phase) String() string { return nameIn(phaseNames[:], uint8(p), "phase") }

// nameIn returns the name of value i of a kind (names[i]), or kind(i)
// for a value that has none.
func nameIn(names []string, i uint8, kind string) string {
	if int(i) < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", kind, i)
}

// End tells how a finished game ended.
type End uint8

// Ways a game ends.
const (
	EndNone  End = iota // still running
	EndWin              // a player holds the required number of complete sets
	EndEmpty            // deck and both hands empty: a draw
	EndCap              // the turn cap was reached: a draw
)

var endNames = [...]string{EndNone: "none", EndWin: "win", EndEmpty: "empty", EndCap: "cap"}

// String returns the ending's name as used in the JSON state.
func (e End) String() string { return nameIn(endNames[:], uint8(e), "end") }

// Result is the outcome of a game. Winner is -1 unless End is EndWin.
type Result struct {
	End    End
	Winner int
}

// Score returns the result for player p: 1 win, 0 loss, 0.5 draw.
func (r Result) Score(p int) float64 { return float64(r.Utility(p)+1) / 2 }

// Utility returns the result for player p as +1, -1 or 0.
func (r Result) Utility(p int) int {
	switch {
	case r.End != EndWin:
		return 0
	case r.Winner == p:
		return 1
	}
	return -1
}

// Response is the bounded rent exchange in progress: the renter (who
// initiated it), the colour and amount owed, and what has been paid.
type Response struct {
	Renter int
	Colour int
	Owed   int
	Paid   int
}

// Game is the complete state of one two-player game. It is a plain value:
// assigning it (or calling Clone) forks the game, including its random
// number generator, and the fork plays on identically.
type Game struct {
	r       *Rules
	rng     rand.PCG
	seed    uint64
	deck    [maxCards]Card // cards left to draw, in no meaningful order
	hand    [2][MaxKinds]uint8
	bank    [2][MaxKinds]uint8 // cash cards and properties received as payment
	props   [2][MaxColours]uint8
	discard [MaxKinds]uint8
	pick    [maxCand + 1]uint8 // resolver's seed-derived choice among n candidates
	deckN   uint8
	handN   [2]uint8
	bankN   [2]uint8
	bankV   [2]uint16 // cash value of the bank, kept with it: the Situation key reads it at every simulated decision
	propN   [2]uint8
	sets    [2]uint8
	turn    uint16
	starter uint8
	current uint8 // whose streak it is
	plays   uint8 // plays (and rent exchanges) done in the current streak
	phase   Phase
	// The rent exchange, meaningful in PhaseRespond: the renter is current.
	respColour uint8
	respOwed   uint8
	respPaid   uint16
	end        End
	winner     int8
}

// Errors returned by Apply.
var (
	ErrGameOver      = errors.New("deal: the game is over")
	ErrIllegalAction = errors.New("deal: illegal action")
)

// streams separate the random numbers of a game from those derived from
// the same seed elsewhere (resolver choices, agents, rollouts).
const (
	streamGame     = 0x9e3779b97f4a7c15
	streamResolver = 0xd1b54a32d192ed03
)

// Mix is a 64-bit finaliser (splitmix64) used to derive independent seeds.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// New starts a game: both players draw the initial hand (player 0 first)
// and the starting player begins its streak by drawing.
func New(r *Rules, seed uint64, starter int) Game {
	var g Game
	g.Reset(r, seed, starter)
	return g
}

// Reset reinitialises g as New would, without allocating.
func (g *Game) Reset(r *Rules, seed uint64, starter int) {
	*g = Game{r: r, seed: seed, starter: uint8(starter & 1), current: uint8(starter & 1), winner: -1}
	g.rng.Seed(seed, streamGame)
	h := Mix(seed ^ streamResolver)
	for n := 1; n <= maxCand; n++ {
		g.pick[n] = uint8(h % uint64(n))
	}
	g.deckN = uint8(copy(g.deck[:], r.fullDeck[:r.total]))
	g.drawN(0, int(r.initial))
	g.drawN(1, int(r.initial))
	g.beginStreak()
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() Game { return *g }

// Rules returns the game's compiled rules.
func (g *Game) Rules() *Rules { return g.r }

// Seed returns the seed the game was started with.
func (g *Game) Seed() uint64 { return g.seed }

// Reseed replaces the random number generator's state. Rollouts use it so
// each simulated future draws its own cards.
func (g *Game) Reseed(seed uint64) { g.rng.Seed(seed, streamGame) }

// Phase returns the kind of decision pending.
func (g *Game) Phase() Phase { return g.phase }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.phase == PhaseOver }

// Result returns the outcome (End is EndNone while the game runs).
func (g *Game) Result() Result { return Result{End: g.end, Winner: int(g.winner)} }

// Turn returns the number of turns played: plays and passes, a whole
// rent exchange counting as one.
func (g *Game) Turn() int { return int(g.turn) }

// Current returns the player whose streak it is.
func (g *Game) Current() int { return int(g.current) }

// Starter returns the player who started the game.
func (g *Game) Starter() int { return int(g.starter) }

// StreakIndex returns how many plays the current player has made in its
// streak (0 for the first play).
func (g *Game) StreakIndex() int { return int(g.plays) }

// ToAct returns the player who must decide now: the current player, or
// its opponent during a rent exchange.
func (g *Game) ToAct() int {
	if g.phase == PhaseRespond {
		return int(1 - g.current)
	}
	return int(g.current)
}

// Response returns the rent exchange in progress, if any.
func (g *Game) Response() (Response, bool) {
	if g.phase != PhaseRespond {
		return Response{}, false
	}
	return Response{Renter: int(g.current), Colour: int(g.respColour), Owed: int(g.respOwed), Paid: int(g.respPaid)}, true
}

// Hand returns how many cards of kind c player p holds.
func (g *Game) Hand(p int, c Card) int { return int(g.hand[p][c]) }

// HandSize returns the number of cards in player p's hand.
func (g *Game) HandSize(p int) int { return int(g.handN[p]) }

// Bank returns how many cards of kind c are in player p's bank.
func (g *Game) Bank(p int, c Card) int { return int(g.bank[p][c]) }

// BankValue returns the total cash value of player p's bank.
func (g *Game) BankValue(p int) int { return int(g.bankV[p]) }

// Properties returns how many properties of colour i player p owns in its
// property area.
func (g *Game) Properties(p, i int) int { return int(g.props[p][i]) }

// CompleteSets returns the number of complete sets of player p.
func (g *Game) CompleteSets(p int) int { return int(g.sets[p]) }

// DeckSize returns the number of cards left to draw.
func (g *Game) DeckSize() int { return int(g.deckN) }

// Deck returns how many cards of kind c are left to draw.
func (g *Game) Deck(c Card) int {
	n := 0
	for _, k := range g.deck[:g.deckN] {
		if k == c {
			n++
		}
	}
	return n
}

// Discarded returns how many cards of kind c were discarded (played rent
// cards and Just Say Nos).
func (g *Game) Discarded(c Card) int { return int(g.discard[c]) }

// RentOwed returns the rent player p would charge for colour i now.
func (g *Game) RentOwed(p, i int) int { return int(g.r.rent[i][g.owned(p, i)]) }

// owned returns min(properties of colour i, set size) for player p.
func (g *Game) owned(p, i int) uint8 {
	n := g.props[p][i]
	if s := g.r.setSize[i]; n > s {
		return s
	}
	return n
}

// intn returns a uniform number in [0, n) from the game's generator.
// The multiply-shift bias is below 2^-56 for the sizes used here.
func (g *Game) intn(n int) int {
	hi, _ := bits.Mul64(g.rng.Uint64(), uint64(n))
	return int(hi)
}

// drawN moves up to n uniformly random cards from the deck to p's hand.
func (g *Game) drawN(p, n int) {
	// Taking a uniform position and moving the last card into the gap
	// draws uniformly without replacement in constant time.
	for ; n > 0 && g.deckN > 0; n-- {
		i := g.intn(int(g.deckN))
		k := g.deck[i]
		g.deckN--
		g.deck[i] = g.deck[g.deckN]
		g.deck[g.deckN] = 0 // keep the state canonical so equal games compare equal
		g.hand[p][k]++
		g.handN[p]++
	}
}

// beginStreak draws for the current player: the per-streak draw, or a
// full initial hand when its hand is empty.
func (g *Game) beginStreak() {
	p := int(g.current)
	n := int(g.r.draw)
	if g.handN[p] == 0 {
		n = int(g.r.initial)
	}
	g.drawN(p, n)
	g.checkEmpty()
}

// checkEmpty ends the game in a draw once no card is left anywhere to be
// played.
func (g *Game) checkEmpty() {
	if g.deckN == 0 && g.handN[0] == 0 && g.handN[1] == 0 && g.phase != PhaseOver {
		g.finish(EndEmpty, -1)
	}
}

func (g *Game) finish(e End, winner int) {
	g.phase = PhaseOver
	g.end = e
	g.winner = int8(winner)
}

// endTurn counts a completed play (or rent exchange), then applies the
// cap, the empty-deck draw and the streak limit.
func (g *Game) endTurn() {
	g.turn++
	g.plays++
	if g.turn >= g.r.maxTurns {
		g.finish(EndCap, -1)
		return
	}
	g.checkEmpty()
	if g.phase == PhaseOver {
		return
	}
	if g.plays >= g.r.plays {
		g.endStreak()
	}
}

// endStreak hands the turn to the other player, who draws.
func (g *Game) endStreak() {
	g.current ^= 1
	g.plays = 0
	g.beginStreak()
}

// payable reports whether player p has anything to pay rent with.
func (g *Game) payable(p int) bool { return g.bankN[p] > 0 || g.propN[p] > 0 }

// Apply validates and applies one action for the player to act. An
// illegal action returns an error and changes nothing.
func (g *Game) Apply(a Action) error {
	if err := g.check(a); err != nil {
		return err
	}
	g.apply(a)
	return nil
}

// check validates a against the current state.
func (g *Game) check(a Action) error {
	if g.phase == PhaseOver {
		return ErrGameOver
	}
	r := g.r
	okCard := int(a.Card) < int(r.nKinds)
	if g.phase == PhasePlay {
		p := g.current
		switch a.Op {
		case OpPass:
			return nil
		case OpPlay:
			if okCard && g.hand[p][a.Card] > 0 && r.class[a.Card] != ClassJustSayNo {
				return nil
			}
		}
		return g.illegal(a)
	}
	q := 1 - g.current
	switch a.Op {
	case OpPayBank:
		if okCard && g.bank[q][a.Card] > 0 {
			return nil
		}
	case OpPayProperty:
		if okCard && r.class[a.Card] == ClassProperty && g.props[q][r.colour[a.Card]] > 0 {
			return nil
		}
	case OpJustSayNo:
		if r.hasJSN && g.hand[q][r.jsn] > 0 {
			return nil
		}
	case OpYield:
		if !g.payable(int(q)) {
			return nil
		}
	}
	return g.illegal(a)
}

func (g *Game) illegal(a Action) error {
	return fmt.Errorf("%w: %s by player %d in phase %s", ErrIllegalAction, g.ActionString(a), g.ToAct(), g.phase)
}

// apply performs a legal action. Callers that resolve actions from the
// legal set (agents, rollouts) use it directly; Apply validates first.
func (g *Game) apply(a Action) {
	r := g.r
	if g.phase == PhasePlay {
		p := int(g.current)
		switch a.Op {
		case OpPass:
			// A pass is a turn of its own and ends the streak at once.
			g.turn++
			if g.turn >= r.maxTurns {
				g.finish(EndCap, -1)
				return
			}
			g.endStreak()
		case OpPlay:
			k := a.Card
			g.hand[p][k]--
			g.handN[p]--
			switch r.class[k] {
			case ClassCash:
				g.bank[p][k]++
				g.bankN[p]++
				g.bankV[p] += uint16(r.value[k])
			case ClassProperty:
				c := r.colour[k]
				g.props[p][c]++
				g.propN[p]++
				if g.props[p][c] == r.setSize[c] {
					g.sets[p]++
					if g.sets[p] >= r.required {
						g.turn++
						g.finish(EndWin, p)
						return
					}
				}
			case ClassRent:
				g.discard[k]++
				c := r.colour[k]
				if amt := r.rent[c][g.owned(p, int(c))]; amt > 0 {
					g.phase = PhaseRespond
					g.respColour = c
					g.respOwed = amt
					g.respPaid = 0
					g.checkEmpty()
					return
				}
			}
			g.endTurn()
		}
		return
	}
	// Rent exchange: every payment goes to the renter's bank as cash.
	q := 1 - int(g.current)
	renter := int(g.current)
	switch a.Op {
	case OpPayBank:
		k := a.Card
		g.bank[q][k]--
		g.bankN[q]--
		g.bankV[q] -= uint16(r.value[k])
		g.bank[renter][k]++
		g.bankN[renter]++
		g.bankV[renter] += uint16(r.value[k])
		g.respPaid += uint16(r.value[k])
	case OpPayProperty:
		k := a.Card
		c := r.colour[k]
		if g.props[q][c] == r.setSize[c] {
			g.sets[q]--
		}
		g.props[q][c]--
		g.propN[q]--
		g.bank[renter][k]++
		g.bankN[renter]++
		g.bankV[renter] += uint16(r.value[k])
		g.respPaid += uint16(r.value[k])
	case OpJustSayNo:
		g.hand[q][r.jsn]--
		g.handN[q]--
		g.discard[r.jsn]++
		g.settle()
		return
	case OpYield:
		g.settle()
		return
	}
	if g.respPaid >= uint16(g.respOwed) {
		g.settle()
	}
}

// settle closes the rent exchange; it counts as one turn of the renter.
func (g *Game) settle() {
	g.phase = PhasePlay
	g.respColour, g.respOwed, g.respPaid = 0, 0, 0
	g.endTurn()
}

// Legal appends the legal actions of the player to act to dst.
func (g *Game) Legal(dst []Action) []Action {
	r := g.r
	switch g.phase {
	case PhasePlay:
		p := g.current
		for k := 0; k < int(r.nKinds); k++ {
			if g.hand[p][k] > 0 && r.class[k] != ClassJustSayNo {
				dst = append(dst, Action{Op: OpPlay, Card: Card(k)})
			}
		}
		dst = append(dst, Action{Op: OpPass})
	case PhaseRespond:
		q := 1 - g.current
		for k := 0; k < int(r.nKinds); k++ {
			if g.bank[q][k] > 0 {
				dst = append(dst, Action{Op: OpPayBank, Card: Card(k)})
			}
		}
		for c := 0; c < int(r.nColours); c++ {
			if g.props[q][c] > 0 {
				dst = append(dst, Action{Op: OpPayProperty, Card: r.propKind[c]})
			}
		}
		if r.hasJSN && g.hand[q][r.jsn] > 0 {
			dst = append(dst, Action{Op: OpJustSayNo})
		}
		if !g.payable(int(q)) {
			dst = append(dst, Action{Op: OpYield})
		}
	}
	return dst
}

// ResampleHidden redeals player p's opponent's hand from the cards p
// cannot see (that hand and the deck), keeping its size. Honest rollouts
// use it so the learner never simulates with knowledge it lacks.
func (g *Game) ResampleHidden(p int) {
	o := 1 - p
	for k := 0; k < int(g.r.nKinds); k++ {
		for ; g.hand[o][k] > 0; g.hand[o][k]-- {
			g.deck[g.deckN] = Card(k)
			g.deckN++
		}
	}
	n := g.handN[o]
	g.handN[o] = 0
	g.drawN(o, int(n))
}

// recount recomputes the totals kept alongside the card counts, after the
// counts were set directly (decoding, test positions).
func (g *Game) recount() {
	r := g.r
	for p := 0; p < 2; p++ {
		g.handN[p], g.bankN[p], g.bankV[p], g.propN[p], g.sets[p] = 0, 0, 0, 0, 0
		for k := 0; k < int(r.nKinds); k++ {
			g.handN[p] += g.hand[p][k]
			g.bankN[p] += g.bank[p][k]
			g.bankV[p] += uint16(g.bank[p][k]) * uint16(r.value[k])
		}
		for c := 0; c < int(r.nColours); c++ {
			g.propN[p] += g.props[p][c]
			if g.props[p][c] >= r.setSize[c] {
				g.sets[p]++
			}
		}
	}
}
