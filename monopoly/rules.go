package monopoly

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

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

var squareKindNames = names[SquareKind]{"SquareKind", []string{"go", "street", "railroad", "utility", "jail", "action"}}

func (k SquareKind) String() string { return squareKindNames.of(k) }

// IncomeTaxMode selects how TAX n OR p% is charged.
type IncomeTaxMode uint8

// Income tax modes.
const (
	IncomeTaxFlat   IncomeTaxMode = iota // always the flat amount
	IncomeTaxLesser                      // the lesser of the amount and p% of total assets (printed prices, whatever net_worth is)
)

// NetWorthMode is how a timed game (7.10) counts a player's worth at its
// end.
type NetWorthMode uint8

// Net worth modes.
const (
	// NetWorthPrinted is the rules reference's count: cash, properties at
	// their printed price (mortgaged ones at their mortgage value) and
	// buildings at their cost.
	NetWorthPrinted NetWorthMode = iota
	// NetWorthResale is Monopyly's: what the player could raise
	// (LiquidationValue), so that a mortgaged property counts nothing and
	// a building half its cost.
	NetWorthResale
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
	RaiseToBuy               bool // a buyer short of cash may raise it (8.14's means) to pay for a purchase or a winning bid
	FreeParkingJackpot       bool
	IncomeTax                IncomeTaxMode
	MortgagedGroupDoubleRent bool
	MortgagedRailroadsCount  bool
	MaxHouses                int
	MaxHotels                int
	MortgageInterestPercent  int
	MaxRounds                int
	NetWorth                 NetWorthMode // how a timed game counts worth
	TradesPerPhase           int
	TradesPerTurn            int // 0: no limit beyond the phases
	DealProtocol             DealProtocol
	CounterOffers            int         // open deals only
	SpeedDie                 bool        // the speed die variant (Hasbro's standard edition)
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
	RaiseToBuy               bool                 `yaml:"raise_to_buy" json:"raise_to_buy"`
	FreeParkingJackpot       bool                 `yaml:"free_parking_jackpot" json:"free_parking_jackpot"`
	IncomeTax                string               `yaml:"income_tax" json:"income_tax"`
	MortgagedGroupDoubleRent bool                 `yaml:"mortgaged_group_double_rent" json:"mortgaged_group_double_rent"`
	MortgagedRailroadsCount  bool                 `yaml:"mortgaged_railroads_count" json:"mortgaged_railroads_count"`
	MaxHouses                int                  `yaml:"max_houses" json:"max_houses"`
	MaxHotels                int                  `yaml:"max_hotels" json:"max_hotels"`
	MortgageInterestPercent  int                  `yaml:"mortgage_interest_percent" json:"mortgage_interest_percent"`
	MaxRounds                int                  `yaml:"max_rounds" json:"max_rounds"`
	NetWorth                 string               `yaml:"net_worth" json:"net_worth"`
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

// WholeGroups returns the colour groups the properties in owned hold
// whole, as a bit set of indexes into Groups.
func (r *Rules) WholeGroups(owned uint64) uint64 {
	var gs uint64
	for gi := range r.Groups {
		if m := r.Groups[gi].Mask; owned&m == m {
			gs |= 1 << gi
		}
	}
	return gs
}

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

// Counted is what property sq, mortgaged or not and with buildings on it
// (a hotel counting as five), adds to its holder's net worth at the end
// of a timed game (7.10): its printed price (a mortgaged one its mortgage
// value) and the buildings at their cost; or, under `net_worth: resale`,
// what selling the buildings and mortgaging it would raise (8.15), so
// that a mortgaged property counts nothing and a building half its cost.
func (r *Rules) Counted(sq int, mortgaged bool, buildings int) int {
	if r.NetWorth == NetWorthResale {
		return r.raisable(sq, mortgaged, buildings)
	}
	w := r.Squares[sq].Price
	if mortgaged {
		w = r.Squares[sq].Mortgage
	}
	return w + buildings*r.HouseCost(sq)
}

// raisable is what selling the buildings on sq and mortgaging it raises
// (8.15): the property's share of Game.LiquidationValue.
func (r *Rules) raisable(sq int, mortgaged bool, buildings int) int {
	w := buildings * r.BuildingSalePrice(sq)
	if !mortgaged {
		w += r.Squares[sq].Mortgage
	}
	return w
}

// BuildingSalePrice is what the bank pays for one building on street sq:
// half its cost, rounded down (7.6). A hotel counts as five buildings, so
// that selling it and then its houses one by one fetches the same.
func (r *Rules) BuildingSalePrice(sq int) int { return r.HouseCost(sq) / 2 }
