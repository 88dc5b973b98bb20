package monopoly

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/internal/strictyaml"
)

//go:embed rules.yaml
var defaultRulesYAML []byte

// Limits of the fixed-size state. A rules file may use a smaller board or
// fewer decks, never larger ones.
const (
	MaxPlayers   = 8
	MaxSquares   = 64
	MaxDecks     = 4
	MaxDeckCards = 32
	MaxGroups    = 16
	maxKeepCards = 8

	// MaxAmount bounds every sum of money in a rules file, so that no game
	// of up to MaxPlayers players can overflow a player's 32-bit cash.
	MaxAmount = 1_000_000
)

// SquareKind says what a board square is.
type SquareKind uint8

// Square kinds.
const (
	KindGo SquareKind = iota
	KindStreet
	KindRailroad
	KindUtility
	KindJail
	KindAction // runs its DSL program when landed on
)

var squareKindNames = [...]string{"go", "street", "railroad", "utility", "jail", "action"}

func (k SquareKind) String() string {
	if int(k) < len(squareKindNames) {
		return squareKindNames[k]
	}
	return fmt.Sprintf("SquareKind(%d)", k)
}

// IncomeTaxMode selects how TAX n OR p% is charged.
type IncomeTaxMode uint8

// Income tax modes.
const (
	IncomeTaxFlat   IncomeTaxMode = iota // always the flat amount
	IncomeTaxLesser                      // the lesser of the amount and p% of net worth
)

// DealProtocol is how trades are negotiated.
type DealProtocol uint8

// Deal protocols.
const (
	// DealsOpen: an offer names everything each way, cash included, and
	// the target accepts or rejects it (or counters, when the rules allow
	// counter-offers).
	DealsOpen DealProtocol = iota
	// DealsSealed: the cash of an offer is a limit the target does not
	// see; the target rejects or answers with a limit of its own, and
	// when the two meet the cash midway between them changes hands (004).
	DealsSealed
)

func (p DealProtocol) String() string {
	if p == DealsSealed {
		return "sealed"
	}
	return "open"
}

// Square is one compiled board square.
type Square struct {
	Name      string
	Kind      SquareKind
	Group     int // index into Rules.Groups; -1 when not a street
	Price     int
	Mortgage  int    // mortgage value
	Rent      [6]int // base, 1..4 houses, hotel (streets only)
	Program   []Op   // action squares
	groupMask uint64 // squares of the same street group, or all railroads/utilities
}

// Ownable reports whether the square can be bought.
func (s *Square) Ownable() bool {
	return s.Kind == KindStreet || s.Kind == KindRailroad || s.Kind == KindUtility
}

// Group is a colour group of streets.
type Group struct {
	Name      string
	HouseCost int
	Squares   []int
	Mask      uint64 // the group's squares as a bit set
}

// Card is one compiled card of a deck.
type Card struct {
	ID      string
	Text    string
	Program []Op
	Keep    bool // held by the drawer (Get Out of Jail Free)
	keepBit uint8
}

// Deck is a compiled deck of cards.
type Deck struct {
	Name  string
	Cards []Card
}

// Rules is a compiled, validated rule set. It is immutable once built and
// shared by every game that uses it.
type Rules struct {
	StartingCash             int
	GoSalary                 int
	JailFine                 int
	JailTurns                int
	Auctions                 bool
	FreeParkingJackpot       bool
	IncomeTax                IncomeTaxMode
	MortgagedGroupDoubleRent bool
	MortgagedRailroadsCount  bool
	MaxHouses                int
	MaxHotels                int
	MortgageInterestPercent  int
	MaxRounds                int
	TradesPerPhase           int
	TradesPerTurn            int // 0: no limit beyond the phases
	DealProtocol             DealProtocol
	CounterOffers            int         // open deals only
	SpeedDie                 bool        // the speed die variant (Mega Edition)
	SpeedDieFaces            []SpeedFace // its faces, each equally likely
	RailroadRent             []int
	UtilityMultiplier        []int
	Groups                   []Group
	Squares                  []Square
	Decks                    []Deck

	JailSquare     int
	railroadMask   uint64
	utilityMask    uint64
	keepCards      []keepCard // Get Out of Jail Free cards by bit
	squareIndex    map[string]int
	config         rulesConfig
	ownableSquares []int
}

type keepCard struct{ deck, card int }

// rulesConfig is the source form of Rules, as read from YAML. Field tags
// name the keys of rules files and of conformance `rules:` blocks.
type rulesConfig struct {
	StartingCash             int                  `yaml:"starting_cash" json:"starting_cash"`
	GoSalary                 int                  `yaml:"go_salary" json:"go_salary"`
	JailFine                 int                  `yaml:"jail_fine" json:"jail_fine"`
	JailTurns                int                  `yaml:"jail_turns" json:"jail_turns"`
	Auctions                 bool                 `yaml:"auctions" json:"auctions"`
	FreeParkingJackpot       bool                 `yaml:"free_parking_jackpot" json:"free_parking_jackpot"`
	IncomeTax                string               `yaml:"income_tax" json:"income_tax"`
	MortgagedGroupDoubleRent bool                 `yaml:"mortgaged_group_double_rent" json:"mortgaged_group_double_rent"`
	MortgagedRailroadsCount  bool                 `yaml:"mortgaged_railroads_count" json:"mortgaged_railroads_count"`
	MaxHouses                int                  `yaml:"max_houses" json:"max_houses"`
	MaxHotels                int                  `yaml:"max_hotels" json:"max_hotels"`
	MortgageInterestPercent  int                  `yaml:"mortgage_interest_percent" json:"mortgage_interest_percent"`
	MaxRounds                int                  `yaml:"max_rounds" json:"max_rounds"`
	TradesPerPhase           int                  `yaml:"trades_per_phase" json:"trades_per_phase"`
	TradesPerTurn            int                  `yaml:"trades_per_turn" json:"trades_per_turn"`
	DealProtocol             string               `yaml:"deal_protocol" json:"deal_protocol"`
	CounterOffers            counterOffers        `yaml:"counter_offers" json:"counter_offers"`
	SpeedDie                 bool                 `yaml:"speed_die" json:"speed_die"`
	SpeedDieFaces            speedFaces           `yaml:"speed_die_faces" json:"speed_die_faces"`
	RailroadRent             []int                `yaml:"railroad_rent" json:"railroad_rent"`
	UtilityMultiplier        []int                `yaml:"utility_multiplier" json:"utility_multiplier"`
	Groups                   groupList            `yaml:"groups" json:"groups"`
	Board                    squareList           `yaml:"board" json:"board"`
	Decks                    deckList             `yaml:"decks" json:"decks"`
	pos                      strictyaml.Positions // key path -> where it was set
}

// The lists of a rules file are bounded as the fixed-size state is, so
// that strictyaml refuses a longer one before decoding its items: a
// board of 60,000 squares costs nothing to refuse.
type (
	groupList  []groupConfig
	squareList []squareConfig
	deckList   []deckConfig
	cardList   []cardConfig
)

func (groupList) MaxLen() int  { return MaxGroups }
func (squareList) MaxLen() int { return MaxSquares }
func (deckList) MaxLen() int   { return MaxDecks }
func (cardList) MaxLen() int   { return MaxDeckCards }

type groupConfig struct {
	Name      string `yaml:"name" json:"name"`
	HouseCost int    `yaml:"house_cost" json:"house_cost"`
}

type squareConfig struct {
	Name     string `yaml:"name" json:"name"`
	Kind     string `yaml:"kind" json:"kind"`
	Group    string `yaml:"group,omitempty" json:"group,omitempty"`
	Price    int    `yaml:"price,omitempty" json:"price,omitempty"`
	Mortgage int    `yaml:"mortgage,omitempty" json:"mortgage,omitempty"`
	Rent     []int  `yaml:"rent,omitempty" json:"rent,omitempty"`
	Do       string `yaml:"do,omitempty" json:"do,omitempty"`
}

type deckConfig struct {
	Name  string   `yaml:"name" json:"name"`
	Cards cardList `yaml:"cards" json:"cards"`
}

type cardConfig struct {
	ID   string `yaml:"id" json:"id"`
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	Do   string `yaml:"do" json:"do"`
}

var defaultRules = func() *Rules {
	r, err := ParseRules(embeddedName, nil)
	if err != nil {
		panic(err)
	}
	return r
}()

// DefaultRules returns the standard rules of the rules reference.
func DefaultRules() *Rules { return defaultRules }

// DefaultRulesYAML returns the embedded rules file the defaults are read
// from, comments included: the annotated starting point of a rules file.
// The slice is the caller's own.
func DefaultRulesYAML() []byte { return slices.Clone(defaultRulesYAML) }

// ConfigError is a problem in a rules file: the file, the line and the
// field it concerns.
type ConfigError = strictyaml.Error

// ParseRules builds rules from the defaults overlaid with the YAML (or
// JSON) document data; name is used in error messages. Keys given in data
// replace the default; lists are replaced whole. Unknown keys, bad values
// and DSL errors are reported as *ConfigError, and so is a document over
// MaxRulesBytes, before it is parsed.
func ParseRules(name string, data []byte) (*Rules, error) {
	return defaultConfig().overlay(name, data)
}

// WithOverrides returns a copy of r with the keys of the YAML document doc
// replaced, as a rules file holding just those keys would on top of r.
func (r *Rules) WithOverrides(name string, doc []byte) (*Rules, error) {
	cfg := r.config
	cfg.pos = maps.Clone(r.config.pos) // errors in inherited keys point where they were set
	return cfg.overlay(name, doc)
}

// embeddedConfig is the embedded rules.yaml, decoded once. Overlays
// replace its lists whole and never write into them, so copies may share
// them; only the position map is cloned.
var embeddedConfig = func() rulesConfig {
	cfg := rulesConfig{pos: strictyaml.Positions{}}
	if err := strictyaml.Decode(embeddedName, defaultRulesYAML, &cfg, cfg.pos); err != nil {
		panic(err)
	}
	return cfg
}()

func defaultConfig() rulesConfig {
	cfg := embeddedConfig
	cfg.pos = maps.Clone(embeddedConfig.pos)
	return cfg
}

func (cfg rulesConfig) overlay(name string, data []byte) (*Rules, error) {
	if len(data) > 0 {
		if err := strictyaml.Decode(name, data, &cfg, cfg.pos); err != nil {
			return nil, err
		}
	}
	return compile(&cfg)
}

const embeddedName = "rules.yaml (embedded)"

// MaxRulesBytes is the largest rules document ParseRules and
// WithOverrides read; a caller reading a file can stop there.
const MaxRulesBytes = strictyaml.MaxBytes

// SetBy returns the file that set the rules key at path ("max_rounds",
// "board[3].price"), or "" when it keeps the embedded default: a caller
// with defaults of its own (a command-line flag) yields to a rules file
// that chose.
func (r *Rules) SetBy(path string) string {
	if f := r.config.pos.Of(path, strictyaml.Pos{File: embeddedName}).File; f != embeddedName {
		return f
	}
	return ""
}

// MarshalJSON writes the rules in their config form, which ParseRules
// reads back (JSON is YAML).
func (r *Rules) MarshalJSON() ([]byte, error) { return json.Marshal(r.config) }

// MonopolyBenchCounters is how many counter-offers a negotiation may have
// when a rules file just turns them on (counter_offers: true), as in
// MonopolyBench.
const MonopolyBenchCounters = 5

// counterOffers is the counter_offers setting: a number, or true for
// MonopolyBenchCounters and false for none.
type counterOffers int

// UnmarshalYAML reads a number or a boolean.
func (c *counterOffers) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var on bool
		if err := n.Decode(&on); err != nil {
			return err
		}
		*c = 0
		if on {
			*c = MonopolyBenchCounters
		}
		return nil
	}
	var k int
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&k) != nil {
		return fmt.Errorf("want a number or true/false, got %q", n.Value)
	}
	*c = counterOffers(k)
	return nil
}

func compile(cfg *rulesConfig) (*Rules, error) {
	errAt := func(field, format string, args ...any) error {
		return cfg.pos.Errorf(embeddedName, field, format, args...)
	}
	// lostByDefaults reports whether field, a reference to an item of
	// list, is the embedded rules' while a rules file replaced list: the
	// reference breaks because that file dropped the item, and it is that
	// file, not the embedded one, that its author can change.
	lostByDefaults := func(field, list string) bool {
		def := strictyaml.Pos{File: embeddedName}
		return cfg.pos.Of(field, def).File == embeddedName && cfg.pos.Of(list, def).File != embeddedName
	}
	r := &Rules{
		StartingCash:             cfg.StartingCash,
		GoSalary:                 cfg.GoSalary,
		JailFine:                 cfg.JailFine,
		JailTurns:                cfg.JailTurns,
		Auctions:                 cfg.Auctions,
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
	}
	r.config = *cfg

	nonNeg := []struct {
		key string
		v   int
		max int
	}{
		{"starting_cash", cfg.StartingCash, 10 * MaxAmount},
		{"go_salary", cfg.GoSalary, MaxAmount},
		{"jail_fine", cfg.JailFine, MaxAmount},
		{"max_houses", cfg.MaxHouses, 127},
		{"max_hotels", cfg.MaxHotels, 127},
		{"mortgage_interest_percent", cfg.MortgageInterestPercent, 1000},
		{"max_rounds", cfg.MaxRounds, 1 << 30},
		{"trades_per_phase", cfg.TradesPerPhase, 100},
		{"trades_per_turn", cfg.TradesPerTurn, 100},
		{"counter_offers", int(cfg.CounterOffers), 100},
	}
	for _, c := range nonNeg {
		if c.v < 0 || c.v > c.max {
			return nil, errAt(c.key, "must be between 0 and %d, got %d", c.max, c.v)
		}
	}
	if cfg.JailTurns < 1 || cfg.JailTurns > 10 {
		return nil, errAt("jail_turns", "must be between 1 and 10, got %d", cfg.JailTurns)
	}
	switch cfg.DealProtocol {
	case "open":
		r.DealProtocol = DealsOpen
	case "sealed":
		r.DealProtocol = DealsSealed
		if cfg.CounterOffers != 0 {
			return nil, errAt("counter_offers", "sealed deals have no counter-offers: the receiver answers with its own limit")
		}
		// Monopyly asks for three proposals a turn; a rules file that
		// sets the limits itself keeps them.
		if cfg.pos.Of("trades_per_phase", strictyaml.Pos{File: embeddedName}).File == embeddedName {
			r.TradesPerPhase, r.config.TradesPerPhase = 3, 3
		}
		if cfg.pos.Of("trades_per_turn", strictyaml.Pos{File: embeddedName}).File == embeddedName {
			r.TradesPerTurn, r.config.TradesPerTurn = 3, 3
		}
	default:
		return nil, errAt("deal_protocol", "must be open or sealed, got %q", cfg.DealProtocol)
	}
	if len(cfg.SpeedDieFaces) == 0 {
		return nil, errAt("speed_die_faces", "needs at least one face")
	}
	switch cfg.IncomeTax {
	case "flat":
		r.IncomeTax = IncomeTaxFlat
	case "lesser":
		r.IncomeTax = IncomeTaxLesser
	default:
		return nil, errAt("income_tax", "must be flat or lesser, got %q", cfg.IncomeTax)
	}
	if len(cfg.RailroadRent) == 0 {
		return nil, errAt("railroad_rent", "needs at least one entry")
	}
	for i, v := range cfg.RailroadRent {
		if v < 0 || v > MaxAmount {
			return nil, errAt(fmt.Sprintf("railroad_rent[%d]", i), "must be between 0 and %d, got %d", MaxAmount, v)
		}
	}
	if len(cfg.UtilityMultiplier) == 0 {
		return nil, errAt("utility_multiplier", "needs at least one entry")
	}
	for i, v := range cfg.UtilityMultiplier {
		if v < 0 || v > MaxAmount/12 {
			return nil, errAt(fmt.Sprintf("utility_multiplier[%d]", i), "must be between 0 and %d, got %d", MaxAmount/12, v)
		}
	}

	if len(cfg.Groups) > MaxGroups {
		return nil, errAt("groups", "at most %d groups, got %d", MaxGroups, len(cfg.Groups))
	}
	groupIndex := map[string]int{}
	for i, g := range cfg.Groups {
		f := fmt.Sprintf("groups[%d]", i)
		if g.Name == "" {
			return nil, errAt(f+".name", "is required")
		}
		if _, dup := groupIndex[g.Name]; dup {
			return nil, errAt(f+".name", "duplicate group %q", g.Name)
		}
		if g.HouseCost <= 0 || g.HouseCost > MaxAmount {
			return nil, errAt(f+".house_cost", "must be between 1 and %d, got %d", MaxAmount, g.HouseCost)
		}
		groupIndex[g.Name] = i
		r.Groups = append(r.Groups, Group{Name: g.Name, HouseCost: g.HouseCost})
	}

	if len(cfg.Board) < 4 || len(cfg.Board) > MaxSquares {
		return nil, errAt("board", "must have between 4 and %d squares, got %d", MaxSquares, len(cfg.Board))
	}
	// Decks first, so DRAW can name them.
	if len(cfg.Decks) > MaxDecks {
		return nil, errAt("decks", "at most %d decks, got %d", MaxDecks, len(cfg.Decks))
	}
	deckIndex := map[string]int{}
	for i, d := range cfg.Decks {
		f := fmt.Sprintf("decks[%d]", i)
		if d.Name == "" {
			return nil, errAt(f+".name", "is required")
		}
		if _, dup := deckIndex[d.Name]; dup {
			return nil, errAt(f+".name", "duplicate deck %q", d.Name)
		}
		if len(d.Cards) == 0 || len(d.Cards) > MaxDeckCards {
			return nil, errAt(f+".cards", "must have between 1 and %d cards, got %d", MaxDeckCards, len(d.Cards))
		}
		deckIndex[d.Name] = i
	}
	for i, s := range cfg.Board {
		if s.Name == "" {
			return nil, errAt(fmt.Sprintf("board[%d].name", i), "is required")
		}
		if _, dup := r.squareIndex[s.Name]; !dup {
			r.squareIndex[s.Name] = i
		}
	}

	for i, s := range cfg.Board {
		f := fmt.Sprintf("board[%d]", i)
		sq := Square{Name: s.Name, Group: -1}
		kind := -1
		for k, n := range squareKindNames {
			if n == s.Kind {
				kind = k
			}
		}
		if kind < 0 {
			return nil, errAt(f+".kind", "unknown kind %q (want one of %s)", s.Kind, strings.Join(squareKindNames[:], ", "))
		}
		sq.Kind = SquareKind(kind)
		if sq.Ownable() {
			if s.Price <= 0 || s.Price > MaxAmount {
				return nil, errAt(f+".price", "must be between 1 and %d, got %d", MaxAmount, s.Price)
			}
			sq.Price = s.Price
			sq.Mortgage = s.Price / 2
			if s.Mortgage != 0 {
				if s.Mortgage < 0 || s.Mortgage > MaxAmount {
					return nil, errAt(f+".mortgage", "must be between 1 and %d, got %d", MaxAmount, s.Mortgage)
				}
				sq.Mortgage = s.Mortgage
			}
		} else if s.Price != 0 || s.Mortgage != 0 {
			return nil, errAt(f+".price", "only streets, railroads and utilities have a price")
		}
		switch sq.Kind {
		case KindStreet:
			g, ok := groupIndex[s.Group]
			if !ok && lostByDefaults(f+".group", "groups") {
				return nil, errAt("groups", "no group %q, which the default board uses at %s (%s): keep that group, or give a board of your own", s.Group, f, s.Name)
			}
			if !ok {
				return nil, errAt(f+".group", "unknown group %q", s.Group)
			}
			sq.Group = g
			if len(s.Rent) != 6 {
				return nil, errAt(f+".rent", "needs 6 values (base, 1-4 houses, hotel), got %d", len(s.Rent))
			}
			for j, v := range s.Rent {
				if v < 0 || v > MaxAmount {
					return nil, errAt(fmt.Sprintf("%s.rent[%d]", f, j), "must be between 0 and %d, got %d", MaxAmount, v)
				}
				sq.Rent[j] = v
			}
			r.Groups[g].Squares = append(r.Groups[g].Squares, i)
			r.Groups[g].Mask |= 1 << i
		case KindRailroad:
			r.railroadMask |= 1 << i
		case KindUtility:
			r.utilityMask |= 1 << i
		case KindJail:
			if r.JailSquare >= 0 {
				return nil, errAt(f+".kind", "a second jail (the first is square %d)", r.JailSquare)
			}
			r.JailSquare = i
		case KindGo:
			if i != 0 {
				return nil, errAt(f+".kind", "GO must be square 0")
			}
		case KindAction:
			prog, err := parseProgram(s.Do, r, deckIndex, false)
			var ref *refError
			if errors.As(err, &ref) && lostByDefaults(f+".do", ref.list) {
				return nil, errAt(ref.list, "no %s, which the default board uses at %s (%s): keep that %s, or give a board of your own", ref.ref, f, s.Name, ref.kind())
			}
			if err != nil {
				return nil, errAt(f+".do", "%v", err)
			}
			sq.Program = prog
		}
		if sq.Kind != KindStreet && (s.Group != "" || len(s.Rent) > 0) {
			return nil, errAt(f+".group", "only streets have a group and a rent table")
		}
		if sq.Kind != KindAction && s.Do != "" {
			return nil, errAt(f+".do", "only action squares have a program")
		}
		if sq.Ownable() {
			r.ownableSquares = append(r.ownableSquares, i)
		}
		r.Squares = append(r.Squares, sq)
	}
	// A name must lead to one square: lookups find the first square of a
	// name, ignoring case. Copies of one square (the Chance squares) may
	// share theirs, as it matters little which of them is found.
	for i := range r.Squares {
		for j := range i {
			if strings.EqualFold(r.Squares[j].Name, r.Squares[i].Name) && !sameSquare(&r.Squares[i], &r.Squares[j]) {
				return nil, errAt(fmt.Sprintf("board[%d].name", i), "%q is the name of square %d too (names match ignoring case); only copies of one square, such as the Chance squares, may share a name", r.Squares[i].Name, j)
			}
		}
	}
	if cfg.Board[0].Kind != "go" {
		return nil, errAt("board[0].kind", "square 0 must be GO")
	}
	if r.JailSquare < 0 {
		return nil, errAt("board", "needs a jail square")
	}
	for i, g := range r.Groups {
		f := fmt.Sprintf("groups[%d]", i)
		if len(g.Squares) == 0 && lostByDefaults(f, "board") {
			return nil, errAt("board", "no street of group %q, which the default groups define at %s: give it streets, or give groups of your own", g.Name, f)
		}
		if len(g.Squares) == 0 {
			return nil, errAt(f, "group %q has no streets", g.Name)
		}
	}
	for i := range r.Squares {
		sq := &r.Squares[i]
		switch sq.Kind {
		case KindStreet:
			for _, j := range r.Groups[sq.Group].Squares {
				sq.groupMask |= 1 << j
			}
		case KindRailroad:
			sq.groupMask = r.railroadMask
		case KindUtility:
			sq.groupMask = r.utilityMask
		}
	}

	for i, d := range cfg.Decks {
		deck := Deck{Name: d.Name}
		for j, c := range d.Cards {
			f := fmt.Sprintf("decks[%d].cards[%d]", i, j)
			if c.ID == "" {
				return nil, errAt(f+".id", "is required")
			}
			prog, err := parseProgram(c.Do, r, deckIndex, true)
			var ref *refError
			if errors.As(err, &ref) && lostByDefaults(f+".do", ref.list) {
				return nil, errAt(ref.list, "no %s, which the default decks use at %s (%s): keep that %s, or give decks of your own", ref.ref, f, c.ID, ref.kind())
			}
			if err != nil {
				return nil, errAt(f+".do", "%v", err)
			}
			card := Card{ID: c.ID, Text: c.Text, Program: prog}
			for _, op := range prog {
				if op.Code == OpKeep {
					if len(prog) != 1 {
						return nil, errAt(f+".do", "KEEP must be the card's only command")
					}
					if len(r.keepCards) >= maxKeepCards {
						return nil, errAt(f+".do", "at most %d KEEP cards in all decks", maxKeepCards)
					}
					card.Keep = true
					card.keepBit = uint8(len(r.keepCards))
					r.keepCards = append(r.keepCards, keepCard{deck: i, card: j})
				}
			}
			deck.Cards = append(deck.Cards, card)
		}
		r.Decks = append(r.Decks, deck)
	}
	return r, nil
}

// sameSquare reports whether a and b are copies of one square that is
// not a property: a property has a name of its own, which trades and
// scenarios use.
func sameSquare(a, b *Square) bool {
	return !a.Ownable() && a.Kind == b.Kind && slices.Equal(a.Program, b.Program)
}

// SquareIndex returns the index of the square with the given name.
func (r *Rules) SquareIndex(name string) (int, bool) {
	i, ok := r.squareIndex[name]
	return i, ok
}

// DeckIndex returns the index of the deck with the given name.
func (r *Rules) DeckIndex(name string) (int, bool) {
	for i, d := range r.Decks {
		if d.Name == name {
			return i, true
		}
	}
	return 0, false
}

// CardIndex returns the index of the first card with the given id in deck d
// whose index is not in skip.
func (r *Rules) CardIndex(d int, id string, skip func(int) bool) (int, bool) {
	for i, c := range r.Decks[d].Cards {
		if c.ID == id && (skip == nil || !skip(i)) {
			return i, true
		}
	}
	return 0, false
}

// OwnableSquares lists the squares that can be bought, in board order.
func (r *Rules) OwnableSquares() []int { return r.ownableSquares }

// GroupMask returns the set of squares whose joint ownership makes the
// square's group: its colour group, or all railroads, or all utilities.
func (r *Rules) GroupMask(sq int) uint64 { return r.Squares[sq].groupMask }

// UnmortgageCost is the mortgage value plus interest, rounded up.
func (r *Rules) UnmortgageCost(sq int) int {
	mv := r.Squares[sq].Mortgage
	return mv + r.interest(mv)
}

// TransferFee is the fee paid by the receiver of a mortgaged property.
func (r *Rules) TransferFee(sq int) int { return r.interest(r.Squares[sq].Mortgage) }

func (r *Rules) interest(mv int) int {
	return (mv*r.MortgageInterestPercent + 99) / 100
}

// HouseCost returns the cost of one house (and of a hotel) on a street, 0
// for other squares.
func (r *Rules) HouseCost(sq int) int {
	s := &r.Squares[sq]
	if s.Kind != KindStreet {
		return 0
	}
	return r.Groups[s.Group].HouseCost
}

// BuildingSalePrice is what the bank pays for one building on street sq:
// half its cost, rounded down (7.6). A hotel counts as five buildings, so
// that selling it and then its houses one by one fetches the same.
func (r *Rules) BuildingSalePrice(sq int) int { return r.HouseCost(sq) / 2 }
