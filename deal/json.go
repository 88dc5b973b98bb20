package deal

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// stateJSON is the human-readable form of a Game. Counts are keyed by
// card name; the deck is listed in its internal order because that order
// (with the generator state) decides the next draws.
type stateJSON struct {
	Config      Config            `json:"config"`
	Seed        uint64            `json:"seed"`
	RNG         string            `json:"rng"`
	Starter     int               `json:"starter"`
	Turn        int               `json:"turn"`
	Current     int               `json:"current"`
	StreakIndex int               `json:"streak_index"`
	Phase       string            `json:"phase"`
	Deck        []string          `json:"deck"`
	Hands       [2]map[string]int `json:"hands"`
	Banks       [2]map[string]int `json:"banks"`
	Properties  [2]map[string]int `json:"properties"`
	Discard     map[string]int    `json:"discard"`
	Response    *responseJSON     `json:"response,omitempty"`
	Result      *resultJSON       `json:"result,omitempty"`
}

// responseJSON is the rent exchange: who initiated it, the colour charged,
// what is owed and what has been paid so far.
type responseJSON struct {
	Initiator int    `json:"initiator"`
	Colour    string `json:"colour"`
	Owed      int    `json:"owed"`
	Paid      int    `json:"paid"`
}

type resultJSON struct {
	End    string `json:"end"`
	Winner int    `json:"winner"`
}

func (g *Game) counts(a *[MaxKinds]uint8) map[string]int {
	m := map[string]int{}
	for k := 0; k < int(g.r.nKinds); k++ {
		if a[k] > 0 {
			m[g.r.names[k]] = int(a[k])
		}
	}
	return m
}

// MarshalJSON writes the complete state, hidden parts included; use View
// for what a player may see.
func (g *Game) MarshalJSON() ([]byte, error) {
	if g.r == nil {
		return nil, fmt.Errorf("deal: marshal of an uninitialised game")
	}
	rng, err := g.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := stateJSON{
		Config:      g.r.Config(),
		Seed:        g.seed,
		RNG:         hex.EncodeToString(rng),
		Starter:     int(g.starter),
		Turn:        int(g.turn),
		Current:     int(g.current),
		StreakIndex: int(g.plays),
		Phase:       g.phase.String(),
		Deck:        make([]string, g.deckN),
		Discard:     g.counts(&g.discard),
	}
	for i, k := range g.deck[:g.deckN] {
		s.Deck[i] = g.r.names[k]
	}
	for p := 0; p < 2; p++ {
		s.Hands[p] = g.counts(&g.hand[p])
		s.Banks[p] = g.counts(&g.bank[p])
		s.Properties[p] = map[string]int{}
		for c := 0; c < int(g.r.nColours); c++ {
			if g.props[p][c] > 0 {
				s.Properties[p][g.r.ColourName(c)] = int(g.props[p][c])
			}
		}
	}
	if g.phase == PhaseRespond {
		s.Response = &responseJSON{Initiator: int(g.current), Colour: g.r.ColourName(int(g.respColour)), Owed: int(g.respOwed), Paid: int(g.respPaid)}
	}
	if g.phase == PhaseOver {
		s.Result = &resultJSON{End: g.end.String(), Winner: int(g.winner)}
	}
	return json.Marshal(s)
}

// UnmarshalJSON restores a state written by MarshalJSON, checking that it
// is consistent (every card accounted for, a legal phase) and naming the
// field at fault otherwise.
func (g *Game) UnmarshalJSON(b []byte) error {
	var s stateJSON
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("deal: game state: %w", err)
	}
	r, err := NewRules(s.Config)
	if err != nil {
		return fmt.Errorf("deal: game state field config: %w", err)
	}
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("deal: game state field %s: %s", field, fmt.Sprintf(format, args...))
	}
	var n Game
	n.Reset(r, s.Seed, s.Starter&1)
	// Reset dealt cards; start again from an empty table.
	n.deck, n.deckN, n.hand, n.handN = [maxCards]Card{}, 0, [2][MaxKinds]uint8{}, [2]uint8{}
	raw, err := hex.DecodeString(s.RNG)
	if err == nil {
		err = n.rng.UnmarshalBinary(raw)
	}
	if err != nil {
		return bad("rng", "%v", err)
	}
	if s.Starter != 0 && s.Starter != 1 {
		return bad("starter", "must be 0 or 1, got %d", s.Starter)
	}
	if s.Current != 0 && s.Current != 1 {
		return bad("current", "must be 0 or 1, got %d", s.Current)
	}
	n.current = uint8(s.Current)
	if s.Turn < 0 || s.Turn > r.MaxTurns() {
		return bad("turn", "must be 0..%d, got %d", r.MaxTurns(), s.Turn)
	}
	n.turn = uint16(s.Turn)
	if s.StreakIndex < 0 || s.StreakIndex >= int(r.plays) {
		return bad("streak_index", "must be 0..%d, got %d", r.plays-1, s.StreakIndex)
	}
	n.plays = uint8(s.StreakIndex)
	var total [MaxKinds]int
	if len(s.Deck) > maxCards {
		return bad("deck", "too many cards")
	}
	for i, name := range s.Deck {
		k, err := r.ParseCard(name)
		if err != nil {
			return bad(fmt.Sprintf("deck[%d]", i), "%v", err)
		}
		n.deck[i] = k
		total[k]++
	}
	n.deckN = uint8(len(s.Deck))
	fill := func(field string, m map[string]int, dst *[MaxKinds]uint8, allow func(CardClass) bool) error {
		for name, c := range m {
			k, err := r.ParseCard(name)
			if err != nil {
				return bad(field, "%v", err)
			}
			if !allow(r.class[k]) {
				return bad(field, "%s cannot be there", name)
			}
			if c < 0 || c > maxCards {
				return bad(field+"."+name, "bad count %d", c)
			}
			dst[k] = uint8(c)
			total[k] += c
		}
		return nil
	}
	anyClass := func(CardClass) bool { return true }
	banked := func(c CardClass) bool { return c == ClassCash || c == ClassProperty }
	discarded := func(c CardClass) bool { return c == ClassRent || c == ClassJustSayNo }
	for p := 0; p < 2; p++ {
		if err := fill(fmt.Sprintf("hands[%d]", p), s.Hands[p], &n.hand[p], anyClass); err != nil {
			return err
		}
		if err := fill(fmt.Sprintf("banks[%d]", p), s.Banks[p], &n.bank[p], banked); err != nil {
			return err
		}
		for name, c := range s.Properties[p] {
			i := r.colourIndex(name)
			field := fmt.Sprintf("properties[%d].%s", p, name)
			if i < 0 {
				return bad(field, "unknown colour")
			}
			if c < 0 || c > maxCards {
				return bad(field, "bad count %d", c)
			}
			n.props[p][i] = uint8(c)
			total[r.propKind[i]] += c
		}
	}
	if err := fill("discard", s.Discard, &n.discard, discarded); err != nil {
		return err
	}
	for k := 0; k < int(r.nKinds); k++ {
		if total[k] != int(r.copies[k]) {
			return bad("deck/hands/banks/properties/discard", "%d cards of %s, the deck has %d", total[k], r.names[k], r.copies[k])
		}
	}
	n.recount()
	n.end, n.winner = EndNone, -1
	switch s.Phase {
	case "play":
		n.phase = PhasePlay
	case "respond":
		n.phase = PhaseRespond
		if s.Response == nil {
			return bad("response", "missing in phase respond")
		}
		x := s.Response
		if x.Initiator != s.Current {
			return bad("response.initiator", "must be the current player %d", s.Current)
		}
		c := r.colourIndex(x.Colour)
		if c < 0 {
			return bad("response.colour", "unknown colour %q", x.Colour)
		}
		if x.Owed < 1 || x.Owed > 255 {
			return bad("response.owed", "must be 1..255, got %d", x.Owed)
		}
		if x.Paid < 0 || x.Paid >= x.Owed {
			return bad("response.paid", "must be 0..%d, got %d", x.Owed-1, x.Paid)
		}
		n.respColour, n.respOwed, n.respPaid = uint8(c), uint8(x.Owed), uint16(x.Paid)
	case "over":
		n.phase = PhaseOver
		if s.Result == nil {
			return bad("result", "missing in phase over")
		}
		switch s.Result.End {
		case "win":
			w := s.Result.Winner
			if (w != 0 && w != 1) || n.sets[w] < r.required {
				return bad("result.winner", "player %d does not hold %d complete sets", w, r.required)
			}
			n.finish(EndWin, w)
		case "empty":
			n.finish(EndEmpty, -1)
		case "cap":
			n.finish(EndCap, -1)
		default:
			return bad("result.end", "unknown end %q", s.Result.End)
		}
	default:
		return bad("phase", "unknown phase %q", s.Phase)
	}
	if s.Phase != "over" && s.Result != nil {
		return bad("result", "present in phase %s", s.Phase)
	}
	if s.Phase != "respond" && s.Response != nil {
		return bad("response", "present in phase %s", s.Phase)
	}
	*g = n
	return nil
}

// colourIndex returns the index of a colour name, or -1.
func (r *Rules) colourIndex(name string) int {
	for i, c := range r.cfg.Colours {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Record is a replayable game: setup plus the actions taken, as text.
type Record struct {
	Config  Config   `json:"config"`
	Seed    uint64   `json:"seed"`
	Starter int      `json:"starter"`
	Actions []string `json:"actions"`
}

// Replay rebuilds the game a record describes, checking every action.
func Replay(rec Record) (Game, error) {
	r, err := NewRules(rec.Config)
	if err != nil {
		return Game{}, err
	}
	g := New(r, rec.Seed, rec.Starter)
	for i, s := range rec.Actions {
		a, err := r.ParseAction(s)
		if err == nil {
			err = g.Apply(a)
		}
		if err != nil {
			return g, fmt.Errorf("deal: replay action %d: %w", i, err)
		}
	}
	return g, nil
}
