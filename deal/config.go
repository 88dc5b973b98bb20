package deal

import (
	"fmt"
	"strings"
)

// Limits of the compiled rules. They keep the game state a small
// fixed-size value so that copying a Game is a plain memory copy.
const (
	MaxCashKinds = 4                               // distinct cash denominations
	MaxColours   = 4                               // distinct property colours
	MaxSetSize   = 4                               // properties needed for one complete set
	MaxKinds     = MaxCashKinds + 2*MaxColours + 1 // cash, property, rent and Just Say No kinds
	maxCards     = 255                             // per-kind and total card counts fit a byte
	maxPlays     = 4                               // plays per streak (the streak index of the key)
	maxCand      = MaxKinds + 1                    // resolver candidates are at most the kinds
)

// CashCard describes one cash denomination of the deck.
type CashCard struct {
	Value  int `json:"value"`
	Copies int `json:"copies"`
}

// Colour describes one property colour: its property cards and the rent
// cards that charge it.
type Colour struct {
	Name      string `json:"name"`
	SetSize   int    `json:"set_size"`
	Rent      []int  `json:"rent"` // rent by number owned, 1..SetSize
	CashValue int    `json:"cash_value"`
	Copies    int    `json:"copies"`
	RentCards int    `json:"rent_cards"`
}

// Config is the data that defines a Monopoly Deal variant: the deck and
// the turn structure. Paper returns the benchmark configuration.
type Config struct {
	Name           string     `json:"name"`
	Cash           []CashCard `json:"cash"`
	Colours        []Colour   `json:"colours"`
	JustSayNo      int        `json:"just_say_no"`
	RequiredSets   int        `json:"required_sets"`
	InitialHand    int        `json:"initial_hand"`
	DrawPerStreak  int        `json:"draw_per_streak"`
	PlaysPerStreak int        `json:"plays_per_streak"`
	MaxTurns       int        `json:"max_turns"`
}

// DefaultMaxTurns is the turn cap used when none is given. The paper does
// not state the cap its figures used; 100 is this project's choice.
const DefaultMaxTurns = 100

// Standard builds the reference's deck generator: cash cards of values 1
// and 3, the Brown, Green and Pink colours, one rent card per colour, each
// repeated multiplier times, and one Just Say No per three multiples.
func Standard(multiplier int) Config {
	return Config{
		Name: fmt.Sprintf("standard-x%d", multiplier),
		Cash: []CashCard{{Value: 1, Copies: multiplier}, {Value: 3, Copies: multiplier}},
		Colours: []Colour{
			{Name: "brown", SetSize: 2, Rent: []int{1, 2}, CashValue: 1, Copies: multiplier, RentCards: multiplier},
			{Name: "green", SetSize: 3, Rent: []int{2, 4, 7}, CashValue: 4, Copies: multiplier, RentCards: multiplier},
			{Name: "pink", SetSize: 3, Rent: []int{1, 2, 4}, CashValue: 2, Copies: multiplier, RentCards: multiplier},
		},
		JustSayNo:      multiplier / 3,
		RequiredSets:   2,
		InitialHand:    5,
		DrawPerStreak:  2,
		PlaysPerStreak: 2,
		MaxTurns:       DefaultMaxTurns,
	}
}

// Paper returns the paper's 83-card configuration (multiplier 10).
func Paper() Config {
	c := Standard(10)
	c.Name = "paper"
	return c
}

// Small returns a 33-card version of the paper's deck (multiplier 4) with
// the same turn structure, for quick tests.
func Small() Config {
	c := Standard(4)
	c.Name = "small"
	return c
}

// Tiny returns a 19-card, two-colour game won by a single complete set,
// for unit tests and very short training runs.
func Tiny() Config {
	return Config{
		Name: "tiny",
		Cash: []CashCard{{Value: 1, Copies: 3}, {Value: 3, Copies: 3}},
		Colours: []Colour{
			{Name: "brown", SetSize: 2, Rent: []int{1, 2}, CashValue: 1, Copies: 3, RentCards: 3},
			{Name: "pink", SetSize: 3, Rent: []int{1, 2, 4}, CashValue: 2, Copies: 3, RentCards: 3},
		},
		JustSayNo:      1,
		RequiredSets:   1,
		InitialHand:    5,
		DrawPerStreak:  2,
		PlaysPerStreak: 2,
		MaxTurns:       60,
	}
}

// Presets lists the named configurations accepted by Preset.
var Presets = []string{"paper", "small", "tiny"}

// Preset returns a named configuration.
func Preset(name string) (Config, error) {
	switch name {
	case "paper", "":
		return Paper(), nil
	case "small":
		return Small(), nil
	case "tiny":
		return Tiny(), nil
	}
	return Config{}, fmt.Errorf("deal: unknown preset %q (want one of %s)", name, strings.Join(Presets, ", "))
}

// clone returns a deep copy so compiled rules never share slices with
// the caller.
func (c Config) clone() Config {
	d := c
	d.Cash = append([]CashCard(nil), c.Cash...)
	d.Colours = make([]Colour, len(c.Colours))
	for i, col := range c.Colours {
		col.Rent = append([]int(nil), col.Rent...)
		d.Colours[i] = col
	}
	return d
}

// Validate reports the first problem with the configuration, naming the
// field.
func (c Config) Validate() error {
	var v validation
	v.count("cash", len(c.Cash), 1, MaxCashKinds, "denominations")
	v.count("colours", len(c.Colours), 1, MaxColours, "colours")
	if v.err != nil {
		return v.err
	}
	total := 0
	seenValue := map[int]bool{}
	for i, cc := range c.Cash {
		f := fmt.Sprintf("cash[%d]", i)
		v.within(f+".value", cc.Value, 1, 100)
		v.check(!seenValue[cc.Value], f+".value", "duplicate denomination %d", cc.Value)
		seenValue[cc.Value] = true
		v.within(f+".copies", cc.Copies, 0, maxCards)
		total += cc.Copies
	}
	seenName := map[string]bool{}
	for i, col := range c.Colours {
		f := fmt.Sprintf("colours[%d]", i)
		v.check(col.Name != "" && !strings.ContainsAny(col.Name, " :@,"), f+".name", "must be a non-empty word, got %q", col.Name)
		v.check(!seenName[col.Name], f+".name", "duplicate colour %q", col.Name)
		seenName[col.Name] = true
		v.within(f+".set_size", col.SetSize, 1, MaxSetSize)
		v.check(len(col.Rent) == col.SetSize, f+".rent", "need %d amounts (one per property owned), got %d", col.SetSize, len(col.Rent))
		for j, r := range col.Rent {
			v.within(fmt.Sprintf("%s.rent[%d]", f, j), r, 0, 100)
		}
		v.within(f+".cash_value", col.CashValue, 0, 100)
		v.within(f+".copies", col.Copies, 0, maxCards)
		v.within(f+".rent_cards", col.RentCards, 0, maxCards)
		total += col.Copies + col.RentCards
	}
	v.within("just_say_no", c.JustSayNo, 0, maxCards)
	total += c.JustSayNo
	v.check(total >= 1 && total <= maxCards, "cash/colours/just_say_no", "deck must hold 1..%d cards, got %d", maxCards, total)
	v.check(c.RequiredSets >= 1 && c.RequiredSets <= len(c.Colours), "required_sets", "must be 1..%d (the number of colours), got %d", len(c.Colours), c.RequiredSets)
	v.within("initial_hand", c.InitialHand, 0, maxCards)
	v.within("draw_per_streak", c.DrawPerStreak, 0, maxCards)
	v.within("plays_per_streak", c.PlaysPerStreak, 1, maxPlays)
	v.within("max_turns", c.MaxTurns, 1, 60000)
	return v.err
}

// validation keeps the first problem Validate finds: the checks after it
// change nothing.
type validation struct{ err error }

// check records a problem with field unless ok.
func (v *validation) check(ok bool, field, format string, args ...any) {
	if !ok && v.err == nil {
		v.err = fmt.Errorf("deal: config field %s: %s", field, fmt.Sprintf(format, args...))
	}
}

// within checks that a number is in lo..hi.
func (v *validation) within(field string, n, lo, hi int) {
	v.check(n >= lo && n <= hi, field, "must be %d..%d, got %d", lo, hi, n)
}

// count checks that a list holds lo to hi things.
func (v *validation) count(field string, n, lo, hi int, things string) {
	v.check(n >= lo && n <= hi, field, "need %d to %d %s, got %d", lo, hi, things, n)
}

// CardClass is what a card does when played.
type CardClass uint8

// Card classes.
const (
	ClassCash CardClass = iota
	ClassProperty
	ClassRent
	ClassJustSayNo
)

// Card is a card kind: an index into the compiled rules. Cards of one
// kind are interchangeable, so hands, banks and the deck are counts.
type Card uint8

// Rules is a compiled, immutable Config. Games hold a pointer to it; it
// is never modified after NewRules, so copies of a game may share it.
type Rules struct {
	cfg      Config
	nKinds   uint8
	nCash    uint8
	nColours uint8
	class    [MaxKinds]CardClass
	colour   [MaxKinds]uint8 // colour index of property and rent kinds
	value    [MaxKinds]uint8 // cash value when banked or paid
	propKind [MaxColours]Card
	rentKind [MaxColours]Card
	jsn      Card
	hasJSN   bool
	setSize  [MaxColours]uint8
	rent     [MaxColours][MaxSetSize + 1]uint8    // by number owned, 0 owned → 0
	intent   [MaxColours][MaxSetSize + 1]Abstract // of playing a property, by min(owned, set size)
	copies   [MaxKinds]uint8
	fullDeck [maxCards]Card // the starting deck, kind by kind
	total    uint8
	required uint8
	initial  uint8
	draw     uint8
	plays    uint8
	maxTurns uint16
	names    [MaxKinds]string
}

// NewRules validates and compiles a configuration.
func NewRules(cfg Config) (*Rules, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Rules{cfg: cfg.clone()}
	k := 0
	for _, cc := range cfg.Cash {
		r.class[k] = ClassCash
		r.value[k] = uint8(cc.Value)
		r.copies[k] = uint8(cc.Copies)
		r.names[k] = fmt.Sprintf("cash:%d", cc.Value)
		k++
	}
	for i, col := range cfg.Colours {
		r.class[k] = ClassProperty
		r.colour[k] = uint8(i)
		r.value[k] = uint8(col.CashValue)
		r.copies[k] = uint8(col.Copies)
		r.names[k] = "property:" + col.Name
		r.propKind[i] = Card(k)
		r.setSize[i] = uint8(col.SetSize)
		for n, amt := range col.Rent {
			r.rent[i][n+1] = uint8(amt)
		}
		for n := 0; n <= col.SetSize; n++ {
			r.intent[i][n] = intentOf(n, col.SetSize)
		}
		k++
	}
	for i, col := range cfg.Colours {
		r.class[k] = ClassRent
		r.colour[k] = uint8(i)
		r.copies[k] = uint8(col.RentCards)
		r.names[k] = "rent:" + col.Name
		r.rentKind[i] = Card(k)
		k++
	}
	r.class[k] = ClassJustSayNo
	r.copies[k] = uint8(cfg.JustSayNo)
	r.names[k] = "just-say-no"
	r.jsn = Card(k)
	r.hasJSN = cfg.JustSayNo > 0
	k++
	r.nKinds = uint8(k)
	r.nCash = uint8(len(cfg.Cash))
	r.nColours = uint8(len(cfg.Colours))
	total := 0
	for i := 0; i < k; i++ {
		for j := 0; j < int(r.copies[i]); j++ {
			r.fullDeck[total] = Card(i)
			total++
		}
	}
	r.total = uint8(total)
	r.required = uint8(cfg.RequiredSets)
	r.initial = uint8(cfg.InitialHand)
	r.draw = uint8(cfg.DrawPerStreak)
	r.plays = uint8(cfg.PlaysPerStreak)
	r.maxTurns = uint16(cfg.MaxTurns)
	return r, nil
}

// MustRules is NewRules for configurations known to be valid (presets).
func MustRules(cfg Config) *Rules {
	r, err := NewRules(cfg)
	if err != nil {
		panic(err)
	}
	return r
}

// Config returns a copy of the configuration the rules were built from.
func (r *Rules) Config() Config { return r.cfg.clone() }

// Kinds is the number of card kinds.
func (r *Rules) Kinds() int { return int(r.nKinds) }

// Colours is the number of property colours.
func (r *Rules) Colours() int { return int(r.nColours) }

// Class tells what a card kind does.
func (r *Rules) Class(c Card) CardClass { return r.class[c] }

// Value is the cash value of a card kind when banked or paid.
func (r *Rules) Value(c Card) int { return int(r.value[c]) }

// ColourOf returns the colour index of a property or rent card.
func (r *Rules) ColourOf(c Card) int { return int(r.colour[c]) }

// ColourName returns the name of colour i.
func (r *Rules) ColourName(i int) string { return r.cfg.Colours[i].Name }

// SetSize returns the number of properties that complete colour i.
func (r *Rules) SetSize(i int) int { return int(r.setSize[i]) }

// PropertyCard returns the property card kind of colour i.
func (r *Rules) PropertyCard(i int) Card { return r.propKind[i] }

// RentFor returns the rent charged for colour i when owning n properties.
func (r *Rules) RentFor(i, n int) int {
	if n > int(r.setSize[i]) {
		n = int(r.setSize[i])
	}
	return int(r.rent[i][n])
}

// Copies returns how many cards of a kind the deck holds at the start.
func (r *Rules) Copies(c Card) int { return int(r.copies[c]) }

// TotalCards is the size of the full deck.
func (r *Rules) TotalCards() int { return int(r.total) }

// MaxTurns is the turn cap; a game reaching it is a draw.
func (r *Rules) MaxTurns() int { return int(r.maxTurns) }

// PlaysPerStreak is the number of plays in a full streak.
func (r *Rules) PlaysPerStreak() int { return int(r.plays) }

// CardName returns the stable name of a card kind ("cash:3",
// "property:green", "rent:pink", "just-say-no").
func (r *Rules) CardName(c Card) string {
	if int(c) >= int(r.nKinds) {
		return fmt.Sprintf("card#%d", c)
	}
	return r.names[c]
}

// ParseCard looks up a card kind by its name.
func (r *Rules) ParseCard(name string) (Card, error) {
	for k := 0; k < int(r.nKinds); k++ {
		if r.names[k] == name {
			return Card(k), nil
		}
	}
	return 0, fmt.Errorf("deal: unknown card %q", name)
}
