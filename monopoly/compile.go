package monopoly

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gopoly/gopoly/internal/strictyaml"
)

// compiler builds Rules from their source form, one section of the rules
// at a time. The sections run in a fixed order, so that a file with
// several mistakes is always told of the same one first.
type compiler struct {
	cfg        *rulesConfig
	r          *Rules
	groupIndex map[string]int // group name -> index into r.Groups
	deckIndex  map[string]int // deck name -> index into cfg.Decks, for DRAW
}

// compileSections are the sections of the rules in the order compile
// checks them: the decks are indexed before the board, so that an action
// square can DRAW from them, and the board is built before the cards, so
// that a card can name its squares.
var compileSections = [...]func(*compiler) error{
	(*compiler).limits,
	(*compiler).deals,
	(*compiler).speedDie,
	(*compiler).incomeTax,
	(*compiler).netWorth,
	(*compiler).rents,
	(*compiler).groups,
	(*compiler).boardSize,
	(*compiler).deckNames,
	(*compiler).squareNames,
	(*compiler).squares,
	(*compiler).distinctNames,
	(*compiler).landmarks,
	(*compiler).groupStreets,
	(*compiler).decks,
}

func compile(cfg *rulesConfig) (*Rules, error) {
	c := &compiler{
		cfg: cfg,
		r: &Rules{
			StartingCash:             cfg.StartingCash,
			GoSalary:                 cfg.GoSalary,
			JailFine:                 cfg.JailFine,
			JailTurns:                cfg.JailTurns,
			Auctions:                 cfg.Auctions,
			RaiseToBuy:               cfg.RaiseToBuy,
			FreeParkingJackpot:       cfg.FreeParkingJackpot,
			MortgagedGroupDoubleRent: cfg.MortgagedGroupDoubleRent,
			MortgagedRailroadsCount:  cfg.MortgagedRailroadsCount,
			MaxHouses:                cfg.MaxHouses,
			MaxHotels:                cfg.MaxHotels,
			MortgageInterestPercent:  cfg.MortgageInterestPercent,
			MaxRounds:                cfg.MaxRounds,
			TradesPerPhase:           cfg.TradesPerPhase,
			TradesPerTurn:            cfg.TradesPerTurn,
			CounterOffers:            int(cfg.CounterOffers),
			SpeedDie:                 cfg.SpeedDie,
			SpeedDieFaces:            cfg.SpeedDieFaces,
			RailroadRent:             cfg.RailroadRent,
			UtilityMultiplier:        cfg.UtilityMultiplier,
			JailSquare:               -1,
			squareIndex:              map[string]int{},
			config:                   *cfg,
		},
		groupIndex: map[string]int{},
		deckIndex:  map[string]int{},
	}
	for _, section := range compileSections {
		if err := section(c); err != nil {
			return nil, err
		}
	}
	return c.r, nil
}

// errAt reports a problem with the rules key field, where it was set.
func (c *compiler) errAt(field, format string, args ...any) error {
	return c.cfg.pos.Errorf(embeddedName, field, format, args...)
}

// isDefault reports whether the key keeps the embedded rules' value.
func (c *compiler) isDefault(key string) bool {
	return c.cfg.pos.Of(key, strictyaml.Pos{File: embeddedName}).File == embeddedName
}

// lostByDefaults reports whether field, a reference to an item of list,
// is the embedded rules' while a rules file replaced list: the reference
// breaks because that file dropped the item, and it is that file, not
// the embedded one, that its author can change.
func (c *compiler) lostByDefaults(field, list string) bool {
	return c.isDefault(field) && !c.isDefault(list)
}

// within reports whether v lies in [lo, hi]. The name of a field is
// made only for an error, as making it for every value would cost the
// reading of a saved game hundreds of allocations.
func within(v, lo, hi int) bool { return lo <= v && v <= hi }

// notWithin is the error of field, whose value v is not within [lo, hi].
func (c *compiler) notWithin(field string, v, lo, hi int) error {
	return c.errAt(field, "must be between %d and %d, got %d", lo, hi, v)
}

// either reads the word at key, one of two: 0 for the first, 1 for the
// second.
func (c *compiler) either(key, word, first, second string) (int, error) {
	switch word {
	case first:
		return 0, nil
	case second:
		return 1, nil
	}
	return 0, c.errAt(key, "must be %s or %s, got %q", first, second, word)
}

// item is the path of item i of the list at key, such as "board[3]".
func item(key string, i int) string { return fmt.Sprintf("%s[%d]", key, i) }

// entries checks that the list at key has entries, each within [0, hi].
func (c *compiler) entries(key string, list []int, hi int) error {
	if len(list) == 0 {
		return c.errAt(key, "needs at least one entry")
	}
	for i, v := range list {
		if !within(v, 0, hi) {
			return c.notWithin(item(key, i), v, 0, hi)
		}
	}
	return nil
}

// namedList checks a list of n groups or decks (at key; what one is
// called): at most max of them, each with a name (name(i)) of its own. It
// indexes them by name, and rest checks the rest of item i.
func (c *compiler) namedList(key, what string, n, max int, index map[string]int, name func(int) string, rest func(int) error) error {
	if n > max {
		return c.errAt(key, "at most %d %s, got %d", max, key, n)
	}
	for i := range n {
		nm := name(i)
		if nm == "" {
			return c.errAt(item(key, i)+".name", "is required")
		}
		if _, dup := index[nm]; dup {
			return c.errAt(item(key, i)+".name", "duplicate %s %q", what, nm)
		}
		index[nm] = i
		if err := rest(i); err != nil {
			return err
		}
	}
	return nil
}

// program compiles the DSL of item f, called name, of the board or
// (inCard) of a deck. A reference to an item that a rules file dropped
// from a list the embedded item uses is blamed on that list.
func (c *compiler) program(src, f, name string, inCard bool) ([]Op, error) {
	prog, err := parseProgram(src, c.r, c.deckIndex, inCard)
	var ref *refError
	if errors.As(err, &ref) && c.lostByDefaults(f+".do", ref.list) {
		uses, yours := "board uses", "a board"
		if inCard {
			uses, yours = "decks use", "decks"
		}
		return nil, c.errAt(ref.list, "no %s, which the default %s at %s (%s): keep that %s, or give %s of your own", ref.ref, uses, f, name, ref.kind(), yours)
	}
	if err != nil {
		return nil, c.errAt(f+".do", "%v", err)
	}
	return prog, nil
}

// limits checks the amounts and counts that bound a game: its money, the
// bank's buildings, the interest, the rounds, the trades and the turns
// in jail.
func (c *compiler) limits() error {
	cfg := c.cfg
	limits := [...]struct {
		key      string
		v        int
		min, max int
	}{
		{"starting_cash", cfg.StartingCash, 0, 10 * MaxAmount},
		{"go_salary", cfg.GoSalary, 0, MaxAmount},
		{"jail_fine", cfg.JailFine, 0, MaxAmount},
		{"max_houses", cfg.MaxHouses, 0, 127},
		{"max_hotels", cfg.MaxHotels, 0, 127},
		{"mortgage_interest_percent", cfg.MortgageInterestPercent, 0, 1000},
		{"max_rounds", cfg.MaxRounds, 0, 1 << 30},
		{"trades_per_phase", cfg.TradesPerPhase, 0, 100},
		{"trades_per_turn", cfg.TradesPerTurn, 0, 100},
		{"counter_offers", int(cfg.CounterOffers), 0, 100},
		{"jail_turns", cfg.JailTurns, 1, 10}, // rolls a prisoner may try for doubles
	}
	for _, l := range limits {
		if !within(l.v, l.min, l.max) {
			return c.notWithin(l.key, l.v, l.min, l.max)
		}
	}
	return nil
}

// deals reads the deal protocol. Sealed deals have no counter-offers, and
// ask three proposals a turn as Monopyly does, unless the rules file sets
// the limits itself.
func (c *compiler) deals() error {
	p, err := c.either("deal_protocol", c.cfg.DealProtocol, "open", "sealed")
	if err != nil {
		return err
	}
	if c.r.DealProtocol = DealProtocol(p); c.r.DealProtocol == DealsOpen {
		return nil
	}
	if c.cfg.CounterOffers != 0 {
		return c.errAt("counter_offers", "sealed deals have no counter-offers: the receiver answers with its own limit")
	}
	if c.isDefault("trades_per_phase") {
		c.r.TradesPerPhase, c.r.config.TradesPerPhase = 3, 3
	}
	if c.isDefault("trades_per_turn") {
		c.r.TradesPerTurn, c.r.config.TradesPerTurn = 3, 3
	}
	return nil
}

// speedDie checks that the speed die has faces to roll.
func (c *compiler) speedDie() error {
	if len(c.cfg.SpeedDieFaces) == 0 {
		return c.errAt("speed_die_faces", "needs at least one face")
	}
	return nil
}

// incomeTax reads how TAX n OR p% is charged.
func (c *compiler) incomeTax() error {
	t, err := c.either("income_tax", c.cfg.IncomeTax, "flat", "lesser")
	c.r.IncomeTax = IncomeTaxMode(t)
	return err
}

// netWorth reads how a timed game counts worth.
func (c *compiler) netWorth() error {
	m, err := c.either("net_worth", c.cfg.NetWorth, "printed", "resale")
	c.r.NetWorth = NetWorthMode(m)
	return err
}

// rents checks the railroads' rents and the utilities' multipliers; a
// multiplier times a roll of twelve stays within MaxAmount.
func (c *compiler) rents() error {
	if err := c.entries("railroad_rent", c.cfg.RailroadRent, MaxAmount); err != nil {
		return err
	}
	return c.entries("utility_multiplier", c.cfg.UtilityMultiplier, MaxAmount/12)
}

// groups reads the colour groups: their names and house costs. Their
// streets come with the board.
func (c *compiler) groups() error {
	groups := c.cfg.Groups
	name := func(i int) string { return groups[i].Name }
	return c.namedList("groups", "group", len(groups), MaxGroups, c.groupIndex, name, func(i int) error {
		g := groups[i]
		if !within(g.HouseCost, 1, MaxAmount) {
			return c.notWithin(item("groups", i)+".house_cost", g.HouseCost, 1, MaxAmount)
		}
		c.r.Groups = append(c.r.Groups, Group{Name: g.Name, HouseCost: g.HouseCost})
		return nil
	})
}

// boardSize checks that the board fits the fixed-size state.
func (c *compiler) boardSize() error {
	if n := len(c.cfg.Board); n < 4 || n > MaxSquares {
		return c.errAt("board", "must have between 4 and %d squares, got %d", MaxSquares, n)
	}
	return nil
}

// deckNames indexes the decks by name, so that DRAW can name them, and
// checks their sizes.
func (c *compiler) deckNames() error {
	decks := c.cfg.Decks
	name := func(i int) string { return decks[i].Name }
	return c.namedList("decks", "deck", len(decks), MaxDecks, c.deckIndex, name, func(i int) error {
		if n := len(decks[i].Cards); n == 0 || n > MaxDeckCards {
			return c.errAt(item("decks", i)+".cards", "must have between 1 and %d cards, got %d", MaxDeckCards, n)
		}
		return nil
	})
}

// squareNames indexes the squares by name, the first of a name, so that
// programs can name squares further on.
func (c *compiler) squareNames() error {
	for i, s := range c.cfg.Board {
		if s.Name == "" {
			return c.errAt(fmt.Sprintf("board[%d].name", i), "is required")
		}
		if _, dup := c.r.squareIndex[s.Name]; !dup {
			c.r.squareIndex[s.Name] = i
		}
	}
	return nil
}

// squares builds the board, square by square.
func (c *compiler) squares() error {
	for i, s := range c.cfg.Board {
		sq, err := c.square(i, &s)
		if err != nil {
			return err
		}
		if sq.Ownable() {
			c.r.ownableSquares = append(c.r.ownableSquares, i)
		}
		c.r.Squares = append(c.r.Squares, sq)
	}
	return nil
}

// square builds square i: its kind, its price, then what its kind has of
// its own; no other kind may carry those.
func (c *compiler) square(i int, s *squareConfig) (Square, error) {
	f := fmt.Sprintf("board[%d]", i)
	sq := Square{Name: s.Name, Group: -1}
	kind := slices.Index(squareKindNames.list, s.Kind)
	if kind < 0 {
		return sq, c.errAt(f+".kind", "unknown kind %q (want one of %s)", s.Kind, strings.Join(squareKindNames.list, ", "))
	}
	sq.Kind = SquareKind(kind)
	if err := c.price(f, s, &sq); err != nil {
		return sq, err
	}
	if err := c.squareOfKind(i, f, s, &sq); err != nil {
		return sq, err
	}
	if sq.Kind != KindStreet && (s.Group != "" || len(s.Rent) > 0) {
		return sq, c.errAt(f+".group", "only streets have a group and a rent table")
	}
	if sq.Kind != KindAction && s.Do != "" {
		return sq, c.errAt(f+".do", "only action squares have a program")
	}
	return sq, nil
}

// price reads the price and the mortgage value of a property (half the
// price unless given); other squares have neither.
func (c *compiler) price(f string, s *squareConfig, sq *Square) error {
	if !sq.Ownable() {
		if s.Price != 0 || s.Mortgage != 0 {
			return c.errAt(f+".price", "only streets, railroads and utilities have a price")
		}
		return nil
	}
	if !within(s.Price, 1, MaxAmount) {
		return c.notWithin(f+".price", s.Price, 1, MaxAmount)
	}
	sq.Price = s.Price
	sq.Mortgage = s.Price / 2
	if s.Mortgage != 0 {
		if !within(s.Mortgage, 1, MaxAmount) {
			return c.notWithin(f+".mortgage", s.Mortgage, 1, MaxAmount)
		}
		sq.Mortgage = s.Mortgage
	}
	return nil
}

// squareOfKind reads what square i has by its kind: a street's group and
// rents, an action square's program; it records the railroads, the
// utilities and the one jail, and keeps GO at square 0.
func (c *compiler) squareOfKind(i int, f string, s *squareConfig, sq *Square) error {
	r := c.r
	switch sq.Kind {
	case KindStreet:
		return c.street(i, f, s, sq)
	case KindRailroad:
		r.railroadMask |= 1 << i
	case KindUtility:
		r.utilityMask |= 1 << i
	case KindJail:
		if r.JailSquare >= 0 {
			return c.errAt(f+".kind", "a second jail (the first is square %d)", r.JailSquare)
		}
		r.JailSquare = i
	case KindGo:
		if i != 0 {
			return c.errAt(f+".kind", "GO must be square 0")
		}
	case KindAction:
		prog, err := c.program(s.Do, f, s.Name, false)
		if err != nil {
			return err
		}
		sq.Program = prog
	}
	return nil
}

// street reads street i's group and rent table, and adds it to its group.
func (c *compiler) street(i int, f string, s *squareConfig, sq *Square) error {
	g, ok := c.groupIndex[s.Group]
	if !ok && c.lostByDefaults(f+".group", "groups") {
		return c.errAt("groups", "no group %q, which the default board uses at %s (%s): keep that group, or give a board of your own", s.Group, f, s.Name)
	}
	if !ok {
		return c.errAt(f+".group", "unknown group %q", s.Group)
	}
	sq.Group = g
	if len(s.Rent) != 6 {
		return c.errAt(f+".rent", "needs 6 values (base, 1-4 houses, hotel), got %d", len(s.Rent))
	}
	for j, v := range s.Rent {
		if !within(v, 0, MaxAmount) {
			return c.notWithin(fmt.Sprintf("%s.rent[%d]", f, j), v, 0, MaxAmount)
		}
		sq.Rent[j] = v
	}
	group := &c.r.Groups[g]
	group.Squares = append(group.Squares, i)
	group.Mask |= 1 << i
	return nil
}

// distinctNames checks that a name leads to one square: lookups find the
// first square of a name, ignoring case. Copies of one square (the Chance
// squares) may share theirs, as it matters little which of them is found.
func (c *compiler) distinctNames() error {
	sqs := c.r.Squares
	for i := range sqs {
		for j := range i {
			if strings.EqualFold(sqs[j].Name, sqs[i].Name) && !sameSquare(&sqs[i], &sqs[j]) {
				return c.errAt(fmt.Sprintf("board[%d].name", i), "%q is the name of square %d too (names match ignoring case); only copies of one square, such as the Chance squares, may share a name", sqs[i].Name, j)
			}
		}
	}
	return nil
}

// sameSquare reports whether a and b are copies of one square that is
// not a property: a property has a name of its own, which trades and
// scenarios use.
func sameSquare(a, b *Square) bool {
	return !a.Ownable() && a.Kind == b.Kind && slices.Equal(a.Program, b.Program)
}

// landmarks checks that the board starts at GO and has a jail.
func (c *compiler) landmarks() error {
	if c.cfg.Board[0].Kind != "go" {
		return c.errAt("board[0].kind", "square 0 must be GO")
	}
	if c.r.JailSquare < 0 {
		return c.errAt("board", "needs a jail square")
	}
	return nil
}

// groupStreets checks that every group has streets on the board, then
// gives each property the set of squares its owner needs for the group.
func (c *compiler) groupStreets() error {
	r := c.r
	for i, g := range r.Groups {
		f := fmt.Sprintf("groups[%d]", i)
		if len(g.Squares) == 0 && c.lostByDefaults(f, "board") {
			return c.errAt("board", "no street of group %q, which the default groups define at %s: give it streets, or give groups of your own", g.Name, f)
		}
		if len(g.Squares) == 0 {
			return c.errAt(f, "group %q has no streets", g.Name)
		}
	}
	for i := range r.Squares {
		sq := &r.Squares[i]
		switch sq.Kind {
		case KindStreet:
			sq.groupMask = r.Groups[sq.Group].Mask
		case KindRailroad:
			sq.groupMask = r.railroadMask
		case KindUtility:
			sq.groupMask = r.utilityMask
		}
	}
	return nil
}

// decks compiles the cards of every deck.
func (c *compiler) decks() error {
	for i, d := range c.cfg.Decks {
		deck := Deck{Name: d.Name}
		for j, cc := range d.Cards {
			card, err := c.card(i, j, &cc)
			if err != nil {
				return err
			}
			deck.Cards = append(deck.Cards, card)
		}
		c.r.Decks = append(c.r.Decks, deck)
	}
	return nil
}

// card compiles card j of deck i. A KEEP card (Get Out of Jail Free) is
// held by its drawer, and is given a bit of its own in a player's set of
// such cards.
func (c *compiler) card(i, j int, cc *cardConfig) (Card, error) {
	f := fmt.Sprintf("decks[%d].cards[%d]", i, j)
	if cc.ID == "" {
		return Card{}, c.errAt(f+".id", "is required")
	}
	prog, err := c.program(cc.Do, f, cc.ID, true)
	if err != nil {
		return Card{}, err
	}
	card := Card{ID: cc.ID, Text: cc.Text, Program: prog}
	for _, op := range prog {
		if op.Code != OpKeep {
			continue
		}
		if len(prog) != 1 {
			return card, c.errAt(f+".do", "KEEP must be the card's only command")
		}
		if len(c.r.keepCards) >= maxKeepCards {
			return card, c.errAt(f+".do", "at most %d KEEP cards in all decks", maxKeepCards)
		}
		card.Keep = true
		card.keepBit = uint8(len(c.r.keepCards))
		c.r.keepCards = append(c.r.keepCards, keepCard{deck: i, card: j})
	}
	return card, nil
}
