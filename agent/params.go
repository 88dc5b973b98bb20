package agent

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/internal/strictyaml"
)

// Params tune the rule-based and planning players: the knobs of 000's
// ai.model_parameters and baseline heuristics. Every bot starts from its
// own defaults and reads the knobs it uses (Bot.Reads); the others are
// ignored, and SeatParams.Unread reports overrides of them.
type Params struct {
	// Money kept back.
	CashReserve     int `yaml:"cash_reserve" json:"cash_reserve"`         // kept after buying or bidding
	CompleteReserve int `yaml:"complete_reserve" json:"complete_reserve"` // the smaller reserve for a property that completes or blocks a group
	BuildReserve    int `yaml:"build_reserve" json:"build_reserve"`       // kept after building
	TradeReserve    int `yaml:"trade_reserve" json:"trade_reserve"`       // kept after paying cash in a trade

	// Valuation.
	BidCompletes   float64 `yaml:"bid_completes" json:"bid_completes"`     // bid up to this times the price for a property completing one's group
	BidBlocks      float64 `yaml:"bid_blocks" json:"bid_blocks"`           // ... or one that stops an opponent completing a group
	StretchBudget  float64 `yaml:"stretch_budget" json:"stretch_budget"`   // 000's stretch_budget_multiplier: how far over its value it pays to complete a group
	ValuationBias  float64 `yaml:"valuation_bias" json:"valuation_bias"`   // 000's evaluation_accuracy: +0.2 values property 20% above its price
	PropertyWeight float64 `yaml:"property_weight" json:"property_weight"` // 000's property_trade_multiplier: property against cash in a trade

	// Habits.
	JailLeaveUnowned int     `yaml:"jail_leave_unowned" json:"jail_leave_unowned"` // leave jail at once while this many properties are unowned
	RichFactor       float64 `yaml:"rich_factor" json:"rich_factor"`               // lift mortgages once cash exceeds this many cash reserves
	RetryTurns       int     `yaml:"retry_turns" json:"retry_turns"`               // turns before re-proposing a rejected trade

	// Planning (000's planning_* parameters), read by the planning and
	// adaptive players (package planning).

	// Rollouts is the number of forks per planned decision: every
	// candidate action is played out once in each, so a decision with c
	// candidates costs c × Rollouts rollouts.
	Rollouts int `yaml:"rollouts" json:"rollouts"`
	// Horizon is how many rounds a rollout plays before it is scored
	// (0: to the end of the game, or at most 200 rounds); for the
	// Professor, the horizon for the rent a rival's monopoly would cost it.
	Horizon int `yaml:"horizon" json:"horizon"`
	// WinWeight is the score of a rollout it wins; one that ends at the
	// horizon scores WinWeight times its share of the players' value
	// (the weighted sum of the four knobs below, over the players still
	// in the game).
	WinWeight float64 `yaml:"win_weight" json:"win_weight"`
	// NetWorthWeight weighs net worth (7.10: cash, property at its price or
	// mortgage value, buildings at cost) in a player's value.
	NetWorthWeight float64 `yaml:"net_worth_weight" json:"net_worth_weight"`
	// CashWeight weighs cash in a player's value, on top of net worth.
	CashWeight float64 `yaml:"cash_weight" json:"cash_weight"`
	// MonopolyWeight is what each complete colour group adds to a
	// player's value.
	MonopolyWeight float64 `yaml:"monopoly_weight" json:"monopoly_weight"`
	// PlanPropertyWeight weighs the printed prices of a player's property
	// in its value, on top of net worth.
	PlanPropertyWeight float64 `yaml:"plan_property_weight" json:"plan_property_weight"`
	// BankruptcyPenalty is the score of a rollout it loses: bankrupt, or
	// beaten at the round limit (as a negative number: 2 scores a loss -2).
	BankruptcyPenalty float64 `yaml:"bankruptcy_penalty" json:"bankruptcy_penalty"`
	// Confidence is how many standard errors of the paired difference a
	// candidate must lead the default answer (the baseline's) by to be
	// taken instead: 0 takes the best mean, larger values deviate from
	// the baseline only on clearer evidence.
	Confidence float64 `yaml:"confidence" json:"confidence"`
	// TightCash: below this much cash the adaptive player answers what it
	// does not plan as the cautious player would (with the cautious
	// reserves, or its own where they are larger).
	TightCash int `yaml:"tight_cash" json:"tight_cash"`
	// ThinCash: the adaptive player plans its building when building as
	// much as its cash allows would leave it less than this.
	ThinCash int `yaml:"thin_cash" json:"thin_cash"`

	// Personalities (001's comparison matrix; package agent/personality).
	ReserveMax    int     `yaml:"reserve_max" json:"reserve_max"`         // the reserve grows with the largest rent it could owe, from cash_reserve up to this
	BuyPriceCap   int     `yaml:"buy_price_cap" json:"buy_price_cap"`     // buys only up to this printed price unless it completes a group; above it bids only for a bargain (0: any)
	BuyChance     float64 `yaml:"buy_chance" json:"buy_chance"`           // chance of buying a street it neither needs nor favours
	BuildCover    float64 `yaml:"build_cover" json:"build_cover"`         // builds only while keeping this many times the cost of developing the group to hotels
	BuildChance   float64 `yaml:"build_chance" json:"build_chance"`       // chance, drawn per turn, of being in the mood to build
	BuildOnCredit int     `yaml:"build_on_credit" json:"build_on_credit"` // 1: mortgages properties outside its groups to pay for houses
	Hurdle        float64 `yaml:"hurdle" json:"hurdle"`                   // least expected rent per opponent turn per dollar (landing model) worth buying or building
	LandingWeight float64 `yaml:"landing_weight" json:"landing_weight"`   // how far landing frequencies move its valuation (0: printed prices)
	RailWeight    float64 `yaml:"rail_weight" json:"rail_weight"`         // railroads and utilities valued at this times their price
	BidFactor     float64 `yaml:"bid_factor" json:"bid_factor"`           // bids up to this times its valuation for a property that neither completes nor blocks
	BidChance     float64 `yaml:"bid_chance" json:"bid_chance"`           // chance of taking part in an auction at all
	TradeChance   float64 `yaml:"trade_chance" json:"trade_chance"`       // chance, per decision phase, of looking for trades
	AcceptMargin  float64 `yaml:"accept_margin" json:"accept_margin"`     // accepts a trade gaining at least this fraction of what it gives (negative: mild losses)
	AskMargin     float64 `yaml:"ask_margin" json:"ask_margin"`           // offers partners this fraction of the value at stake on top of a fair price (negative: lowballs)
	AskStep       float64 `yaml:"ask_step" json:"ask_step"`               // after each refusal, offers this fraction more (the first retry at least a fair price)
	Generosity    float64 `yaml:"generosity" json:"generosity"`           // the most it overpays in an offer, as a fraction of what it receives
	Splurge       float64 `yaml:"splurge" json:"splurge"`                 // with cash above twice reserve_max, offers up to this fraction more, growing with the excess
}

// ParamSpec is a set of parameter overrides for one seat: each named knob
// is set to a value, or drawn per game from a normal distribution
// (mean, std) so that a population of players varies.
type ParamSpec struct {
	set []paramSet
}

type paramSet struct {
	field     []int // reflect field index in Params
	mean, std float64
	isInt     bool
}

// Empty reports whether the spec overrides nothing.
func (s ParamSpec) Empty() bool { return len(s.set) == 0 }

// Equal reports whether s and t set the same knobs the same way.
func (s ParamSpec) Equal(t ParamSpec) bool {
	return slices.EqualFunc(s.set, t.set, func(a, b paramSet) bool {
		return slices.Equal(a.field, b.field) && a.mean == b.mean && a.std == b.std
	})
}

// Names lists the knobs s sets, by YAML name, in the order given.
func (s ParamSpec) Names() []string {
	t := reflect.TypeOf(Params{})
	names := make([]string, len(s.set))
	for i, p := range s.set {
		names[i] = yamlName(t.FieldByIndex(p.field))
	}
	return names
}

// Sampled reports whether any knob is drawn at random.
func (s ParamSpec) Sampled() bool {
	for _, p := range s.set {
		if p.std != 0 {
			return true
		}
	}
	return false
}

// Apply returns base with the overrides of s; knobs with a spread are
// drawn from seed, so a seat's parameters are a function of its seed.
// A drawn integer is rounded; no knob is drawn below zero.
func (s ParamSpec) Apply(base Params, seed uint64) Params {
	rng := rand.New(rand.NewPCG(seed, 0x853c49e6748fea9b))
	v := reflect.ValueOf(&base).Elem()
	for _, p := range s.set {
		x := p.mean
		if p.std != 0 {
			x = max(0, p.mean+p.std*rng.NormFloat64())
		}
		f := v.FieldByIndex(p.field)
		if p.isInt {
			f.SetInt(int64(x + 0.5*sign(x)))
		} else {
			f.SetFloat(x)
		}
	}
	return base
}

// Drawn returns the knobs s draws at random, by YAML name, with the values
// they take in a player made with seed by NewWith; nil when none is drawn.
// Experiments record them so that outcomes can be related to them.
func (s ParamSpec) Drawn(seed uint64) map[string]float64 {
	if !s.Sampled() {
		return nil
	}
	p := s.Apply(Params{}, paramSeed(seed))
	v, t := reflect.ValueOf(p), reflect.TypeOf(p)
	drawn := map[string]float64{}
	for _, k := range s.set {
		if k.std == 0 {
			continue
		}
		f := v.FieldByIndex(k.field)
		x := 0.0
		if k.isInt {
			x = float64(f.Int())
		} else {
			x = f.Float()
		}
		drawn[yamlName(t.FieldByIndex(k.field))] = x
	}
	return drawn
}

// paramSeed is the seed a player's parameters are drawn from, apart from
// the seed of its own play.
func paramSeed(seed uint64) uint64 { return seed ^ 0x6a09e667f3bcc909 }

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// ParamNames lists the knobs by their YAML names.
func ParamNames() []string {
	var names []string
	t := reflect.TypeOf(Params{})
	for i := range t.NumField() {
		names = append(names, yamlName(t.Field(i)))
	}
	sort.Strings(names)
	return names
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

// ParseParamSpec reads overrides from a YAML mapping of knob names to a
// number or to {mean: m, std: s}. Errors name file, line and key, below
// path (the mapping's own key path, for messages).
func ParseParamSpec(file string, n *yaml.Node, path string) (ParamSpec, error) {
	var s ParamSpec
	if n == nil || n.Kind == 0 || n.Tag == "!!null" {
		return s, nil
	}
	fail := func(n *yaml.Node, field, format string, args ...any) error {
		return &strictyaml.Error{File: file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind != yaml.MappingNode {
		return s, fail(n, path, "want a mapping of parameter names to values")
	}
	t := reflect.TypeOf(Params{})
	fields := map[string]reflect.StructField{}
	for i := range t.NumField() {
		fields[yamlName(t.Field(i))] = t.Field(i)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		field := k.Value
		if path != "" {
			field = path + "." + k.Value
		}
		sf, ok := fields[k.Value]
		if !ok {
			return s, fail(k, field, "unknown parameter (known: %s)", strings.Join(ParamNames(), ", "))
		}
		p := paramSet{field: sf.Index, isInt: sf.Type.Kind() == reflect.Int}
		switch val.Kind {
		case yaml.ScalarNode:
			if err := val.Decode(&p.mean); err != nil {
				return s, fail(val, field, "want a number, got %q", val.Value)
			}
		case yaml.MappingNode:
			var d struct {
				Mean *float64 `yaml:"mean"`
				Std  float64  `yaml:"std"`
			}
			if err := strictyaml.DecodeNode(file, val, &d, field, nil); err != nil {
				return s, err
			}
			if d.Mean == nil {
				return s, fail(val, field+".mean", "missing")
			}
			if d.Std < 0 {
				return s, fail(val, field+".std", "must not be negative")
			}
			p.mean, p.std = *d.Mean, d.Std
		default:
			return s, fail(val, field, "want a number or {mean, std}")
		}
		s.set = append(s.set, p)
	}
	return s, nil
}

// SeatParams are the parameter overrides of a table: those of every seat
// and those of single seats, as 000's ai.model_parameters (a population,
// each knob a value or drawn per game from {mean, std}) and ai.overrides
// (one player pinned).
type SeatParams struct {
	All   ParamSpec
	Seats map[int]ParamSpec
}

// ForSeat returns the overrides of seat s: its own on top of those for
// all seats.
func (p SeatParams) ForSeat(s int) ParamSpec {
	own, ok := p.Seats[s]
	if !ok {
		return p.All
	}
	return ParamSpec{set: append(slices.Clip(p.All.set), own.set...)}
}

// Check reports overrides for seats a table of players seats lacks.
func (p SeatParams) Check(players int) error {
	for s := range p.Seats {
		if s >= players {
			return fmt.Errorf("agent: parameters for seat %d, but the seats go from 0 to %d", s, players-1)
		}
	}
	return nil
}

// Unread describes, one line each, the overrides of p that change nothing
// at a table seating bots (the bot of each seat, by name): a seat's own
// knob its bot does not read, and a knob for all seats that none of the
// seated bots reads. Callers warn with them: a knob unknown to every bot
// is an error, one given to a bot that ignores it only a surprise.
func (p SeatParams) Unread(bots []string) []string {
	var lines []string
	var seated []Bot
	for _, n := range bots {
		if b, err := Lookup(n); err == nil {
			seated = append(seated, b)
		}
	}
	if len(seated) == 0 {
		return nil
	}
	for _, k := range p.All.Names() {
		if !slices.ContainsFunc(seated, func(b Bot) bool { return b.reads(k) }) {
			lines = append(lines, fmt.Sprintf("all seats: %s is read by none of the bots seated", k))
		}
	}
	for s, n := range bots {
		if b, err := Lookup(n); err == nil {
			for _, k := range b.Unread(p.Seats[s]) {
				lines = append(lines, fmt.Sprintf("seat %d: %s is not read by %s", s, k, n))
			}
		}
	}
	return lines
}

// ParseSeatParams reads a parameters file:
//
//	all:                       # every seat
//	  cash_reserve: {mean: 200, std: 50}
//	seats:                     # seat index (from 0) -> overrides
//	  2: {cash_reserve: 900, rollouts: 16}
//
// Errors name the file, the line and the key.
func ParseSeatParams(file string, data []byte) (SeatParams, error) {
	var doc struct {
		All   yaml.Node `yaml:"all"`
		Seats yaml.Node `yaml:"seats"`
	}
	var p SeatParams
	if err := strictyaml.Decode(file, data, &doc, nil); err != nil {
		return p, err
	}
	var err error
	if p.All, err = ParseParamSpec(file, &doc.All, "all"); err != nil {
		return p, err
	}
	seats := &doc.Seats
	if seats.Kind == 0 || seats.Tag == "!!null" {
		return p, nil
	}
	if seats.Kind != yaml.MappingNode {
		return p, &strictyaml.Error{File: file, Line: seats.Line, Field: "seats", Msg: "want a mapping of seat numbers to overrides"}
	}
	p.Seats = map[int]ParamSpec{}
	for i := 0; i+1 < len(seats.Content); i += 2 {
		k := seats.Content[i]
		s, err := strconv.Atoi(k.Value)
		if err != nil || s < 0 || s >= 64 {
			return p, &strictyaml.Error{File: file, Line: k.Line, Field: "seats." + k.Value, Msg: "want a seat number from 0"}
		}
		if _, dup := p.Seats[s]; dup {
			return p, &strictyaml.Error{File: file, Line: k.Line, Field: "seats." + k.Value, Msg: "seat given twice"}
		}
		if p.Seats[s], err = ParseParamSpec(file, seats.Content[i+1], "seats."+k.Value); err != nil {
			return p, err
		}
	}
	return p, nil
}
