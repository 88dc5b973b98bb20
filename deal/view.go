package deal

// View is what one player may know: its own hand, both property areas and
// banks, the discard pile, the sizes of the opponent's hand and of the
// deck, and the turn and rent-exchange state. The opponent's cards in
// hand, the deck's contents and the random generator are blanked, so no
// method of a View can reveal them.
type View struct {
	Player int
	g      Game
}

// View returns player p's view of the game.
func (g *Game) View(p int) View {
	v := View{Player: p, g: *g}
	v.g.hand[1-p] = [MaxKinds]uint8{}
	v.g.deck = [maxCards]Card{}
	v.g.rng.Seed(0, 0)
	v.g.seed = 0
	return v
}

// Rules returns the game's rules.
func (v *View) Rules() *Rules { return v.g.r }

// Phase returns the kind of decision pending.
func (v *View) Phase() Phase { return v.g.phase }

// Result returns the outcome once the game is over.
func (v *View) Result() Result { return v.g.Result() }

// Turn returns the number of turns played.
func (v *View) Turn() int { return v.g.Turn() }

// Current returns the player whose streak it is.
func (v *View) Current() int { return v.g.Current() }

// StreakIndex returns the current player's plays so far in its streak.
func (v *View) StreakIndex() int { return v.g.StreakIndex() }

// ToAct returns the player who must decide now.
func (v *View) ToAct() int { return v.g.ToAct() }

// MyTurn reports whether the viewing player must decide now.
func (v *View) MyTurn() bool { return v.g.phase != PhaseOver && v.g.ToAct() == v.Player }

// Response returns the rent exchange in progress, if any.
func (v *View) Response() (Response, bool) { return v.g.Response() }

// Hand returns how many cards of kind c the viewing player holds.
func (v *View) Hand(c Card) int { return v.g.Hand(v.Player, c) }

// HandSize returns the size of player p's hand (public for both).
func (v *View) HandSize(p int) int { return v.g.HandSize(p) }

// DeckSize returns the number of cards left to draw.
func (v *View) DeckSize() int { return v.g.DeckSize() }

// Bank returns how many cards of kind c are in player p's bank.
func (v *View) Bank(p int, c Card) int { return v.g.Bank(p, c) }

// BankValue returns the cash value of player p's bank.
func (v *View) BankValue(p int) int { return v.g.BankValue(p) }

// Properties returns player p's properties of colour i.
func (v *View) Properties(p, i int) int { return v.g.Properties(p, i) }

// CompleteSets returns player p's complete sets.
func (v *View) CompleteSets(p int) int { return v.g.CompleteSets(p) }

// Discarded returns how many cards of kind c were discarded.
func (v *View) Discarded(c Card) int { return v.g.Discarded(c) }

// Unseen returns how many cards of kind c the viewing player cannot
// see: those in the deck or in the opponent's hand.
func (v *View) Unseen(c Card) int {
	r := v.g.r
	n := int(r.copies[c]) - int(v.g.discard[c]) - int(v.g.hand[v.Player][c])
	for p := 0; p < 2; p++ {
		n -= int(v.g.bank[p][c])
	}
	if r.class[c] == ClassProperty {
		for p := 0; p < 2; p++ {
			n -= int(v.g.props[p][r.colour[c]])
		}
	}
	return n
}

// Legal appends the viewing player's legal actions (none unless it is to
// act).
func (v *View) Legal(dst []Action) []Action {
	if !v.MyTurn() {
		return dst
	}
	return v.g.Legal(dst)
}

// InfoSet returns the information-set key of the viewing player's
// pending decision; it is computed from the view alone.
func (v *View) InfoSet() InfoSet { return v.g.InfoSet() }

// AbstractOf maps one of the viewer's legal actions to its intent.
func (v *View) AbstractOf(a Action) Abstract { return v.g.AbstractOf(a) }

// Resolve turns an abstract action into the concrete action the resolver
// picks, from the view alone.
func (v *View) Resolve(ab Abstract, res Resolver) (Action, bool) { return v.g.Resolve(ab, res) }

// ActionString renders an action.
func (v *View) ActionString(a Action) string { return v.g.ActionString(a) }
