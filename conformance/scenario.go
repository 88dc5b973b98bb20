// Package conformance runs rules scenarios against the engine: YAML files
// that set up a position, script the dice and the players' answers, and
// state what must hold afterwards. The format is described in
// docs/conformance.md.
package conformance

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
)

// Scenario is one parsed scenario file.
type Scenario struct {
	File        string              `yaml:"-"`
	Name        string              `yaml:"name"`
	Description string              `yaml:"description"`
	Rules       yaml.Node           `yaml:"rules"`
	Players     []playerSpec        `yaml:"players"`
	Properties  map[string]propSpec `yaml:"properties"`
	Bank        *bankSpec           `yaml:"bank"`
	Decks       map[string][]string `yaml:"decks"`
	Dice        []yaml.Node         `yaml:"dice"`
	Expect      expectSpec          `yaml:"expect"`
	pos         strictyaml.Positions
	props       []namedProp
	decks       []namedDeck
	rules       *monopoly.Rules
	dice        [][2]int             // the white dice of each roll
	speed       []monopoly.SpeedFace // the speed die of each roll; SpeedNone: not given
}

type playerSpec struct {
	Name      string     `yaml:"name"`
	Cash      *int       `yaml:"cash"`
	Position  *yaml.Node `yaml:"position"`
	InJail    bool       `yaml:"in_jail"`
	JailTurns int        `yaml:"jail_turns"`
	JailCards []string   `yaml:"jail_cards"`
	PassedGo  bool       `yaml:"passed_go"` // gopoly's extension: has passed GO (the speed die)
	Policy    policySpec `yaml:"policy"`
}

type policySpec struct {
	Buy               *yaml.Node    `yaml:"buy"`
	MaxBid            *yaml.Node    `yaml:"max_bid"`
	Jail              string        `yaml:"jail"`
	AcceptTrades      bool          `yaml:"accept_trades"`
	MortgagedTransfer string        `yaml:"mortgaged_transfer"`
	Actions           []actionBlock `yaml:"actions"`
	// Deal protocols (gopoly's extension of the format).
	SealedLimit   *sealedLimit  `yaml:"sealed_limit"`   // its limit when it accepts a sealed offer
	CounterOffers []counterSpec `yaml:"counter_offers"` // counters it makes, in order, while the rules allow one
	// The speed die (gopoly's extension of the format).
	Bus     string     `yaml:"bus"`     // die1, die2 or total (default): the move it takes on the Bus
	Triples *yaml.Node `yaml:"triples"` // the square it moves to on triples
	triples int
}

// sealedLimit is a target's answer to a sealed offer (004): the least
// cash it accepts or the most it offers. Unset, it accepts at least 0.
type sealedLimit struct {
	MinimumCashAccepted *int `yaml:"minimum_cash_accepted"`
	MaximumCashOffered  *int `yaml:"maximum_cash_offered"`
}

// counterSpec is a scripted counter-offer, made to whoever made the offer
// it answers.
type counterSpec struct {
	Give sideSpec `yaml:"give"`
	Get  sideSpec `yaml:"get"`
}

type actionBlock struct {
	Turn int      `yaml:"turn"`
	When string   `yaml:"when"`
	Do   []doItem `yaml:"do"`
}

type doItem struct {
	Build        *string    `yaml:"build"`
	SellBuilding *string    `yaml:"sell_building"`
	Mortgage     *string    `yaml:"mortgage"`
	Unmortgage   *string    `yaml:"unmortgage"`
	Trade        *tradeSpec `yaml:"trade"`
	Expect       string     `yaml:"expect"`
	line         int
}

type tradeSpec struct {
	With string   `yaml:"with"`
	Give sideSpec `yaml:"give"`
	Get  sideSpec `yaml:"get"`
}

type sideSpec struct {
	Properties []string `yaml:"properties"`
	Cash       int      `yaml:"cash"`
	JailCards  []string `yaml:"jail_cards"`
}

type propSpec struct {
	Owner     *string `yaml:"owner"`
	Houses    int     `yaml:"houses"`
	Mortgaged bool    `yaml:"mortgaged"`
}

type bankSpec struct {
	Houses *int `yaml:"houses"`
	Hotels *int `yaml:"hotels"`
}

type expectSpec struct {
	Players    map[string]playerExpect `yaml:"players"`
	Properties map[string]propExpect   `yaml:"properties"`
	Bank       *bankSpec               `yaml:"bank"`
	Turn       *string                 `yaml:"turn"`
	Winner     *string                 `yaml:"winner"`
	props      []namedPropExpect
}

type playerExpect struct {
	Cash      *int      `yaml:"cash"`
	Position  *int      `yaml:"position"`
	InJail    *bool     `yaml:"in_jail"`
	JailTurns *int      `yaml:"jail_turns"`
	JailCards *[]string `yaml:"jail_cards"`
	Bankrupt  *bool     `yaml:"bankrupt"`
	PassedGo  *bool     `yaml:"passed_go"`
}

type propExpect struct {
	Owner     *yaml.Node `yaml:"owner"` // a name, or null for unowned
	Houses    *int       `yaml:"houses"`
	Mortgaged *bool      `yaml:"mortgaged"`
}

type namedProp struct {
	square int
	spec   propSpec
}

type namedDeck struct {
	deck  int
	cards []int
}

type namedPropExpect struct {
	name   string
	square int
	spec   propExpect
}

// ParseFile reads and validates a scenario file.
func ParseFile(path string) (*Scenario, error) {
	data, err := strictyaml.ReadFile(path) // refuses a huge file early
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	return Parse(path, data)
}

// Parse validates a scenario; file names it in errors.
func Parse(file string, data []byte) (*Scenario, error) {
	s := &Scenario{File: file, pos: strictyaml.Positions{}}
	if err := strictyaml.Decode(file, data, s, s.pos); err != nil {
		return nil, err
	}
	errAt := func(field, format string, args ...any) error { return s.pos.Errorf(file, field, format, args...) }
	if s.Name == "" {
		return nil, errAt("name", "is required")
	}
	// Rules overrides: any key of a rules file; the engine rejects others.
	s.rules = monopoly.DefaultRules()
	if s.Rules.Kind != 0 {
		if s.Rules.Kind != yaml.MappingNode {
			return nil, errAt("rules", "want a mapping of rules keys")
		}
		doc, err := yaml.Marshal(&s.Rules)
		if err != nil {
			return nil, errAt("rules", "%v", err)
		}
		r, err := s.rules.WithOverrides(file, doc)
		if err != nil {
			if ce, ok := err.(*monopoly.ConfigError); ok {
				// Lines are relative to the re-encoded block: point at the block.
				return nil, errAt("rules."+ce.Field, "%s", ce.Msg)
			}
			return nil, errAt("rules", "%v", err)
		}
		s.rules = r
	}
	r := s.rules
	if len(s.Players) < 2 || len(s.Players) > monopoly.MaxPlayers {
		return nil, errAt("players", "needs 2 to %d players, got %d", monopoly.MaxPlayers, len(s.Players))
	}
	names := map[string]bool{}
	held := map[int]int{} // deck -> its Get Out of Jail Free card, held by a player
	for i, p := range s.Players {
		f := fmt.Sprintf("players[%d]", i)
		if p.Name == "" {
			return nil, errAt(f+".name", "is required")
		}
		if names[p.Name] {
			return nil, errAt(f+".name", "duplicate player %q", p.Name)
		}
		names[p.Name] = true
		if p.Cash != nil && *p.Cash < 0 {
			return nil, errAt(f+".cash", "cannot be negative")
		}
		if p.Position != nil {
			sq, err := s.square(p.Position.Value)
			if err != nil {
				return nil, errAt(f+".position", "%v", err)
			}
			if p.InJail && sq != r.JailSquare {
				return nil, errAt(f+".position", "a player in jail is on the jail square (%d)", r.JailSquare)
			}
		}
		if p.JailTurns < 0 || p.JailTurns >= r.JailTurns {
			return nil, errAt(f+".jail_turns", "must be 0 to %d", r.JailTurns-1)
		}
		for j, d := range p.JailCards {
			jf := fmt.Sprintf("%s.jail_cards[%d]", f, j)
			di, ok := r.DeckIndex(d)
			if !ok {
				return nil, errAt(jf, "unknown deck %q", d)
			}
			card := slices.IndexFunc(r.Decks[di].Cards, func(c monopoly.Card) bool { return c.Keep })
			if card < 0 {
				return nil, errAt(jf, "deck %s has no Get Out of Jail Free card", d)
			}
			if _, ok := held[di]; ok {
				return nil, errAt(jf, "the %s Get Out of Jail Free card is held already", d)
			}
			held[di] = card
		}
		if err := s.checkPolicy(f+".policy", &s.Players[i].Policy, names, errAt); err != nil {
			return nil, err
		}
	}
	for i, p := range s.Players {
		// Trade partners are checked once every name is known.
		for j, b := range p.Policy.Actions {
			for k, d := range b.Do {
				if d.Trade != nil && !names[d.Trade.With] {
					return nil, errAt(fmt.Sprintf("players[%d].policy.actions[%d].do[%d].trade.with", i, j, k), "unknown player %q", d.Trade.With)
				}
			}
		}
	}
	owner := map[int]string{} // square -> its owner's name
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		ps, f := s.Properties[name], "properties."+name
		sq, err := s.property(name)
		if err != nil {
			return nil, errAt(f, "%v", err)
		}
		if ps.Owner != nil && !names[*ps.Owner] {
			return nil, errAt(f+".owner", "unknown player %q", *ps.Owner)
		}
		if ps.Owner == nil && (ps.Houses != 0 || ps.Mortgaged) {
			return nil, errAt(f+".owner", "an unowned property has no buildings and no mortgage")
		}
		switch {
		case ps.Houses < 0 || ps.Houses > 5:
			return nil, errAt(f+".houses", "must be 0 to 5")
		case ps.Houses > 0 && r.Squares[sq].Kind != monopoly.KindStreet:
			return nil, errAt(f+".houses", "only streets take buildings")
		case ps.Houses > 0 && ps.Mortgaged:
			return nil, errAt(f+".houses", "a mortgaged property cannot have buildings")
		}
		if ps.Owner != nil {
			s.props = append(s.props, namedProp{square: sq, spec: ps})
			owner[sq] = *ps.Owner
		}
	}
	if err := s.checkBuildings(owner, errAt); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(s.Decks)) {
		f := "decks." + name
		d, ok := r.DeckIndex(name)
		if !ok {
			return nil, errAt(f, "unknown deck %q", name)
		}
		used := map[int]bool{}
		if c, ok := held[d]; ok {
			used[c] = true // a card held is not in its deck
		}
		nd := namedDeck{deck: d}
		for j, id := range s.Decks[name] {
			c, ok := r.CardIndex(d, id, func(c int) bool { return used[c] })
			if !ok {
				return nil, errAt(fmt.Sprintf("%s[%d]", f, j), "no (further) card %q in deck %s", id, name)
			}
			used[c] = true
			nd.cards = append(nd.cards, c)
		}
		s.decks = append(s.decks, nd)
	}
	for i := range s.Dice {
		if err := s.parseRoll(i, errAt); err != nil {
			return nil, err
		}
	}
	for n := range s.Expect.Players {
		if !names[n] {
			return nil, errAt("expect.players."+n, "unknown player %q", n)
		}
	}
	for _, who := range []*string{s.Expect.Turn, s.Expect.Winner} {
		if who != nil && !names[*who] {
			return nil, errAt("expect", "unknown player %q", *who)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Expect.Properties)) {
		pe, f := s.Expect.Properties[name], "expect.properties."+name
		sq, err := s.property(name)
		if err != nil {
			return nil, errAt(f, "%v", err)
		}
		if pe.Owner != nil && pe.Owner.Tag != "!!null" && !names[pe.Owner.Value] {
			return nil, errAt(f+".owner", "unknown player %q", pe.Owner.Value)
		}
		s.Expect.props = append(s.Expect.props, namedPropExpect{name: name, square: sq, spec: pe})
	}
	// The checks above place what the format can get wrong; the engine
	// has the last word on the position, which Run starts from.
	if _, err := monopoly.NewFromSetup(r, s.setup()); err != nil {
		return nil, &strictyaml.Error{File: file, Msg: fmt.Sprintf("the engine cannot start from this position: %v", err)}
	}
	return s, nil
}

// parseRoll reads dice[i]: the two white dice, and, for a roll that
// throws the speed die, its face (a number 1-6, mr_monopoly or bus).
func (s *Scenario) parseRoll(i int, errAt func(string, string, ...any) error) error {
	f := fmt.Sprintf("dice[%d]", i)
	n := &s.Dice[i]
	var got []string
	for _, c := range n.Content {
		got = append(got, c.Value)
	}
	bad := errAt(f, "want a pair of dice 1-6, and the speed die's face when the roll throws it ([3, 4] or [3, 4, bus]), got [%s]", strings.Join(got, ", "))
	if n.Kind != yaml.SequenceNode || len(n.Content) < 2 || len(n.Content) > 3 {
		return bad
	}
	var roll [2]int
	for j := range 2 {
		d, err := strconv.Atoi(n.Content[j].Value)
		if err != nil || d < 1 || d > 6 {
			return bad
		}
		roll[j] = d
	}
	face := monopoly.SpeedNone
	if len(n.Content) == 3 {
		var ok bool
		if face, ok = monopoly.ParseSpeedFace(n.Content[2].Value); !ok {
			return errAt(f, "speed die: want 1-6, mr_monopoly or bus, got %q", n.Content[2].Value)
		}
		if !s.rules.SpeedDie {
			return errAt(f, "a speed die face, but the rules have no speed die (speed_die: true)")
		}
	}
	s.dice = append(s.dice, roll)
	s.speed = append(s.speed, face)
	return nil
}

// checkBuildings checks the buildings of the properties owned (owner:
// square to its owner's name): each on a whole colour group of its
// owner, and no more standing than the bank's supply when the scenario
// leaves the bank to count them.
func (s *Scenario) checkBuildings(owner map[int]string, errAt func(string, string, ...any) error) error {
	r := s.rules
	b := s.Bank
	if b == nil {
		b = &bankSpec{}
	}
	switch {
	case b.Houses != nil && *b.Houses < 0:
		return errAt("bank.houses", "cannot be negative")
	case b.Hotels != nil && *b.Hotels < 0:
		return errAt("bank.hotels", "cannot be negative")
	}
	houses, hotels := 0, 0
	for _, p := range s.props {
		if p.spec.Houses == 0 {
			continue
		}
		f := "properties." + r.Squares[p.square].Name + ".houses"
		for _, sq := range r.Groups[r.Squares[p.square].Group].Squares {
			if owner[sq] != owner[p.square] {
				return errAt(f, "buildings need the whole colour group, and %s is not %s's", r.Squares[sq].Name, owner[p.square])
			}
		}
		if p.spec.Houses == 5 {
			hotels++
		} else {
			houses += p.spec.Houses
		}
		// With a bank given, its supply is what it holds besides these.
		switch {
		case b.Houses == nil && houses > r.MaxHouses:
			return errAt(f, "%d houses standing with these, more than the bank's %d", houses, r.MaxHouses)
		case b.Hotels == nil && hotels > r.MaxHotels:
			return errAt(f, "%d hotels standing with this one, more than the bank's %d", hotels, r.MaxHotels)
		}
	}
	return nil
}

// setup returns the position the scenario starts from.
func (s *Scenario) setup() monopoly.Setup {
	rules := s.rules
	setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1}
	for _, p := range s.Players {
		ps := monopoly.PlayerSetup{Cash: rules.StartingCash, InJail: p.InJail, JailTurns: p.JailTurns, PassedGo: p.PassedGo}
		if p.Cash != nil {
			ps.Cash = *p.Cash
		}
		if p.Position != nil {
			ps.Position, _ = s.square(p.Position.Value)
		} else if p.InJail {
			ps.Position = rules.JailSquare
		}
		for _, d := range p.JailCards {
			i, _ := rules.DeckIndex(d)
			ps.JailCards = append(ps.JailCards, i)
		}
		setup.Players = append(setup.Players, ps)
	}
	for _, p := range s.props {
		setup.Properties = append(setup.Properties, monopoly.PropertySetup{
			Square: p.square, Owner: slices.IndexFunc(s.Players, func(q playerSpec) bool { return q.Name == *p.spec.Owner }),
			Houses: p.spec.Houses, Mortgaged: p.spec.Mortgaged})
	}
	if s.Bank != nil {
		if s.Bank.Houses != nil {
			setup.HouseSupply = *s.Bank.Houses
		}
		if s.Bank.Hotels != nil {
			setup.HotelSupply = *s.Bank.Hotels
		}
	}
	for _, d := range s.decks {
		setup.DeckTops[d.deck] = d.cards
	}
	return setup
}

func (s *Scenario) checkPolicy(f string, p *policySpec, names map[string]bool, errAt func(string, string, ...any) error) error {
	if p.Buy != nil {
		switch {
		case p.Buy.Kind == yaml.ScalarNode && (p.Buy.Value == "always" || p.Buy.Value == "never"):
		case p.Buy.Kind == yaml.SequenceNode:
			for _, n := range p.Buy.Content {
				if _, err := s.property(n.Value); err != nil {
					return errAt(f+".buy", "%v", err)
				}
			}
		default:
			return errAt(f+".buy", "want always, never or a list of property names")
		}
	}
	if p.MaxBid != nil {
		switch p.MaxBid.Kind {
		case yaml.ScalarNode:
			if _, err := strconv.Atoi(p.MaxBid.Value); err != nil {
				return errAt(f+".max_bid", "want a number or a map of property names to numbers, got %q", p.MaxBid.Value)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(p.MaxBid.Content); i += 2 {
				if _, err := s.property(p.MaxBid.Content[i].Value); err != nil {
					return errAt(f+".max_bid", "%v", err)
				}
				if _, err := strconv.Atoi(p.MaxBid.Content[i+1].Value); err != nil {
					return errAt(f+".max_bid."+p.MaxBid.Content[i].Value, "want a number")
				}
			}
		default:
			return errAt(f+".max_bid", "want a number or a map of property names to numbers")
		}
	}
	switch p.Jail {
	case "", "pay", "card", "roll":
	default:
		return errAt(f+".jail", "want pay, card or roll, got %q", p.Jail)
	}
	switch p.MortgagedTransfer {
	case "", "keep", "unmortgage":
	default:
		return errAt(f+".mortgaged_transfer", "want keep or unmortgage, got %q", p.MortgagedTransfer)
	}
	switch p.Bus {
	case "", "die1", "die2", "total":
	default:
		return errAt(f+".bus", "want die1, die2 or total, got %q", p.Bus)
	}
	p.triples = -1
	if p.Triples != nil {
		sq, err := s.square(p.Triples.Value)
		if err != nil {
			return errAt(f+".triples", "%v", err)
		}
		p.triples = sq
	}
	if l := p.SealedLimit; l != nil {
		switch {
		case (l.MinimumCashAccepted == nil) == (l.MaximumCashOffered == nil):
			return errAt(f+".sealed_limit", "want one of minimum_cash_accepted, maximum_cash_offered")
		case l.MinimumCashAccepted != nil && *l.MinimumCashAccepted < 0, l.MaximumCashOffered != nil && *l.MaximumCashOffered < 0:
			return errAt(f+".sealed_limit", "a cash limit cannot be negative")
		}
	}
	for j, c := range p.CounterOffers {
		if err := s.checkSides(fmt.Sprintf("%s.counter_offers[%d]", f, j), errAt, c.Give, c.Get); err != nil {
			return err
		}
	}
	for j, b := range p.Actions {
		bf := fmt.Sprintf("%s.actions[%d]", f, j)
		if b.Turn < 1 {
			return errAt(bf+".turn", "want a turn number from 1")
		}
		if b.When != "before_roll" && b.When != "after_roll" {
			return errAt(bf+".when", "want before_roll or after_roll, got %q", b.When)
		}
		for k, d := range b.Do {
			df := fmt.Sprintf("%s.do[%d]", bf, k)
			n := 0
			for _, sp := range []*string{d.Build, d.SellBuilding, d.Mortgage, d.Unmortgage} {
				if sp != nil {
					n++
					if _, err := s.property(*sp); err != nil {
						return errAt(df, "%v", err)
					}
				}
			}
			if d.Trade != nil {
				n++
				if err := s.checkSides(df+".trade", errAt, d.Trade.Give, d.Trade.Get); err != nil {
					return err
				}
			}
			if n != 1 {
				return errAt(df, "want exactly one of build, sell_building, mortgage, unmortgage, trade")
			}
			switch d.Expect {
			case "", "accepted", "rejected":
			case "declined":
				if d.Trade == nil {
					return errAt(df+".expect", "only a trade can be declined")
				}
			default:
				return errAt(df+".expect", "want rejected or declined, got %q", d.Expect)
			}
			b.Do[k].line = s.pos.Of(df, strictyaml.Pos{}).Line
		}
	}
	return nil
}

// checkSides checks the properties and jail cards of a trade's two sides.
func (s *Scenario) checkSides(f string, errAt func(string, string, ...any) error, sides ...sideSpec) error {
	for _, side := range sides {
		if side.Cash < 0 {
			return errAt(f, "cash cannot be negative")
		}
		for _, name := range side.Properties {
			if _, err := s.property(name); err != nil {
				return errAt(f, "%v", err)
			}
		}
		for _, dn := range side.JailCards {
			if _, ok := s.rules.DeckIndex(dn); !ok {
				return errAt(f, "unknown deck %q", dn)
			}
		}
	}
	return nil
}

// square resolves a square by index or name.
func (s *Scenario) square(v string) (int, error) {
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 || n >= len(s.rules.Squares) {
			return 0, fmt.Errorf("square %d is off the board", n)
		}
		return n, nil
	}
	if i, ok := s.rules.SquareIndex(v); ok {
		return i, nil
	}
	return 0, fmt.Errorf("unknown square %q", v)
}

func (s *Scenario) property(name string) (int, error) {
	i, ok := s.rules.SquareIndex(name)
	if !ok {
		return 0, fmt.Errorf("unknown property %q", name)
	}
	if !s.rules.Squares[i].Ownable() {
		return 0, fmt.Errorf("%q is not a property", name)
	}
	return i, nil
}
