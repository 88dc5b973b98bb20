package agent

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
)

// Params tune the rule-based and planning players: the knobs of 000's
// ai.model_parameters and baseline heuristics. Every bot starts from its
// own defaults and reads the knobs it uses (Bot.Reads); the others are
// ignored, and SeatParams.Unread reports overrides of them.
//
// The range tag of each knob is the values it may take, bounds included:
// the bots rely on them (a negative reserve lets a bot attempt what it
// cannot pay for, which the engine refuses mid-game), so overrides
// outside them are refused when read (ParseSeatParams) and values drawn
// from {mean, std} are clamped into them. Money is in dollars, at most
// $1e9 so that products with the other knobs stay far from overflow; an
// integer knob takes whole numbers only.
type Params struct {
	// Money kept back.
	CashReserve     int `yaml:"cash_reserve" json:"cash_reserve" range:"[0, 1e9]"`         // kept after buying or bidding
	CompleteReserve int `yaml:"complete_reserve" json:"complete_reserve" range:"[0, 1e9]"` // the smaller reserve for a property that completes or blocks a group
	BuildReserve    int `yaml:"build_reserve" json:"build_reserve" range:"[0, 1e9]"`       // kept after building
	TradeReserve    int `yaml:"trade_reserve" json:"trade_reserve" range:"[0, 1e9]"`       // kept after paying cash in a trade

	// Valuation.
	BidCompletes   float64 `yaml:"bid_completes" json:"bid_completes" range:"[0, 100]"`     // bid up to this times the price for a property completing one's group
	BidBlocks      float64 `yaml:"bid_blocks" json:"bid_blocks" range:"[0, 100]"`           // ... or one that stops an opponent completing a group
	StretchBudget  float64 `yaml:"stretch_budget" json:"stretch_budget" range:"[0, 100]"`   // 000's stretch_budget_multiplier: how far over its value it pays to complete a group
	ValuationBias  float64 `yaml:"valuation_bias" json:"valuation_bias" range:"[-1, 10]"`   // 000's evaluation_accuracy: +0.2 values property 20% above its price
	PropertyWeight float64 `yaml:"property_weight" json:"property_weight" range:"[0, 100]"` // 000's property_trade_multiplier: property against cash in a trade

	// Habits.
	JailLeaveUnowned int     `yaml:"jail_leave_unowned" json:"jail_leave_unowned" range:"[0, 1000]"` // leave jail at once while this many properties are unowned
	RichFactor       float64 `yaml:"rich_factor" json:"rich_factor" range:"[0, 1000]"`               // lift mortgages once cash exceeds this many cash reserves
	RetryTurns       int     `yaml:"retry_turns" json:"retry_turns" range:"[0, 1e6]"`                // turns before re-proposing a rejected trade
	// GroupRounds is how many rounds of a colour group's developed rent
	// it counts, for its live opponents, when the group is completed or
	// given up (at most the rounds the round limit leaves); 0 counts
	// worth.Horizon opponent turns, about what is left of a game among
	// players who trade groups.
	GroupRounds int `yaml:"group_rounds" json:"group_rounds" range:"[0, 1e6]"`
	// FirstGroupRounds is how many rounds of a rival's developed rent it
	// counts when a trade would give the rival a colour group and leave
	// the player none (at most the rounds the round limit leaves); 0
	// counts it as any other group.
	FirstGroupRounds int `yaml:"first_group_rounds" json:"first_group_rounds" range:"[0, 1e6]"`

	// Planning (000's planning_* parameters), read by the planning and
	// adaptive players (package planning).

	// Rollouts is the number of forks per planned decision: every
	// candidate action is played out once in each, so a decision with c
	// candidates costs c × Rollouts rollouts.
	Rollouts int `yaml:"rollouts" json:"rollouts" range:"[0, 10000]"`
	// Horizon is how many rounds a rollout plays before it is scored
	// (0: to the end of the game, or at most 200 rounds); for the
	// Professor, the horizon for the rent a rival's monopoly would cost it.
	Horizon int `yaml:"horizon" json:"horizon" range:"[0, 10000]"`
	// WinWeight is the score of a rollout it wins; one that ends at the
	// horizon scores WinWeight times its share of the players' value
	// (the weighted sum of the four knobs below, over the players still
	// in the game).
	WinWeight float64 `yaml:"win_weight" json:"win_weight" range:"[0, 1e6]"`
	// NetWorthWeight weighs net worth (7.10: cash, property at its price or
	// mortgage value, buildings at cost) in a player's value.
	NetWorthWeight float64 `yaml:"net_worth_weight" json:"net_worth_weight" range:"[-1e6, 1e6]"`
	// CashWeight weighs cash in a player's value, on top of net worth.
	CashWeight float64 `yaml:"cash_weight" json:"cash_weight" range:"[-1e6, 1e6]"`
	// MonopolyWeight is what each complete colour group adds to a
	// player's value.
	MonopolyWeight float64 `yaml:"monopoly_weight" json:"monopoly_weight" range:"[-1e6, 1e6]"`
	// PlanPropertyWeight weighs the printed prices of a player's property
	// in its value, on top of net worth.
	PlanPropertyWeight float64 `yaml:"plan_property_weight" json:"plan_property_weight" range:"[-1e6, 1e6]"`
	// BankruptcyPenalty is the score of a rollout it loses: bankrupt, or
	// beaten at the round limit (as a negative number: 2 scores a loss -2).
	BankruptcyPenalty float64 `yaml:"bankruptcy_penalty" json:"bankruptcy_penalty" range:"[0, 1e6]"`
	// Confidence is how many standard errors of the paired difference a
	// candidate must lead the default answer (the baseline's) by to be
	// taken instead: 0 takes the best mean, larger values deviate from
	// the baseline only on clearer evidence.
	Confidence float64 `yaml:"confidence" json:"confidence" range:"[0, 100]"`
	// TightCash: below this much cash the adaptive player answers what it
	// does not plan as the cautious player would (with the cautious
	// reserves, or its own where they are larger).
	TightCash int `yaml:"tight_cash" json:"tight_cash" range:"[0, 1e9]"`
	// ThinCash: the adaptive player plans its building when building as
	// much as its cash allows would leave it less than this.
	ThinCash int `yaml:"thin_cash" json:"thin_cash" range:"[0, 1e9]"`

	// Personalities (001's comparison matrix; package agent/personality).
	ReserveMax    int     `yaml:"reserve_max" json:"reserve_max" range:"[0, 1e9]"`       // the reserve grows with the largest rent it could owe, from cash_reserve up to this
	BuyPriceCap   int     `yaml:"buy_price_cap" json:"buy_price_cap" range:"[0, 1e9]"`   // buys only up to this printed price unless it completes a group; above it bids only for a bargain (0: any)
	BuyChance     float64 `yaml:"buy_chance" json:"buy_chance" range:"[0, 1]"`           // chance of buying a street it neither needs nor favours
	BuildCover    float64 `yaml:"build_cover" json:"build_cover" range:"[0, 100]"`       // builds only while keeping this many times the cost of developing the group to hotels
	BuildChance   float64 `yaml:"build_chance" json:"build_chance" range:"[0, 1]"`       // chance, drawn per turn, of being in the mood to build
	BuildOnCredit int     `yaml:"build_on_credit" json:"build_on_credit" range:"[0, 1]"` // 1: mortgages properties outside its groups to pay for houses
	Hurdle        float64 `yaml:"hurdle" json:"hurdle" range:"[0, 10]"`                  // least expected rent per opponent turn per dollar (landing model) worth buying or building
	LandingWeight float64 `yaml:"landing_weight" json:"landing_weight" range:"[0, 10]"`  // how far landing frequencies move its valuation (0: printed prices)
	RailWeight    float64 `yaml:"rail_weight" json:"rail_weight" range:"[0, 100]"`       // railroads and utilities valued at this times their price
	BidFactor     float64 `yaml:"bid_factor" json:"bid_factor" range:"[0, 100]"`         // bids up to this times its valuation for a property that neither completes nor blocks
	BidChance     float64 `yaml:"bid_chance" json:"bid_chance" range:"[0, 1]"`           // chance of taking part in an auction at all
	TradeChance   float64 `yaml:"trade_chance" json:"trade_chance" range:"[0, 1]"`       // chance, per decision phase, of looking for trades
	AcceptMargin  float64 `yaml:"accept_margin" json:"accept_margin" range:"[-1, 10]"`   // accepts a trade gaining at least this fraction of what it gives (negative: mild losses)
	AskMargin     float64 `yaml:"ask_margin" json:"ask_margin" range:"[-1, 10]"`         // offers partners this fraction of the value at stake on top of a fair price (negative: lowballs)
	AskStep       float64 `yaml:"ask_step" json:"ask_step" range:"[0, 10]"`              // after each refusal, offers this fraction more (the first retry at least a fair price)
	Generosity    float64 `yaml:"generosity" json:"generosity" range:"[0, 10]"`          // the most it overpays in an offer, as a fraction of what it receives
	Splurge       float64 `yaml:"splurge" json:"splurge" range:"[0, 10]"`                // with cash above twice reserve_max, offers up to this fraction more, growing with the excess
}

// knob is one field of Params with its valid range.
type knob struct {
	name   string
	index  []int
	isInt  bool
	lo, hi float64
}

// knobs are the fields of Params by YAML name, read from their tags once.
var knobs = func() map[string]knob {
	m := map[string]knob{}
	t := reflect.TypeOf(Params{})
	for i := range t.NumField() {
		f := t.Field(i)
		k := knob{name: yamlName(f), index: f.Index, isInt: f.Type.Kind() == reflect.Int}
		lo, hi, ok := parseRange(f.Tag.Get("range"))
		// A knob without a valid range is a programming error: the
		// package must not load, so that tests catch it.
		if !ok || k.isInt && (lo != math.Trunc(lo) || hi != math.Trunc(hi)) {
			panic(fmt.Sprintf("agent: Params.%s: range tag %q: want [lo, hi] with lo <= hi", f.Name, f.Tag.Get("range")))
		}
		k.lo, k.hi = lo, hi
		m[k.name] = k
	}
	return m
}()

// parseRange reads a range tag, "[lo, hi]".
func parseRange(tag string) (lo, hi float64, ok bool) {
	in, open := strings.CutPrefix(tag, "[")
	in, closed := strings.CutSuffix(in, "]")
	a, b, comma := strings.Cut(in, ",")
	if !open || !closed || !comma {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return lo, hi, err1 == nil && err2 == nil && lo <= hi
}

// rangeText is a knob's range for messages.
func (k knob) rangeText() string {
	return fmt.Sprintf("from %s to %s", formatNum(k.lo), formatNum(k.hi))
}

func formatNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// ParamRange returns the valid range of the knob named (by its YAML
// name), bounds included, and whether it takes integers only.
func ParamRange(name string) (lo, hi float64, isInt, ok bool) {
	k, ok := knobs[name]
	return k.lo, k.hi, k.isInt, ok
}

// Validate reports the first knob of p outside its range, in field order.
// Every bot's defaults must pass.
func (p Params) Validate() error {
	v := reflect.ValueOf(p)
	for _, name := range fieldOrder {
		k := knobs[name]
		f := v.FieldByIndex(k.index)
		x := 0.0
		if k.isInt {
			x = float64(f.Int())
		} else {
			x = f.Float()
		}
		if !(x >= k.lo && x <= k.hi) { // NaN fails too
			return fmt.Errorf("agent: %s %s is out of range: want %s", name, formatNum(x), k.rangeText())
		}
	}
	return nil
}

// fieldOrder lists the knobs' YAML names in field order.
var fieldOrder = func() []string {
	var names []string
	t := reflect.TypeOf(Params{})
	for i := range t.NumField() {
		names = append(names, yamlName(t.Field(i)))
	}
	return names
}()

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
	lo, hi    float64 // the knob's range
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

// YAML writes s as ParseParamSpec reads it, one knob a line: a value, or
// {mean: M, std: S} for a drawn one. A session stores a seat's knobs so.
func (s ParamSpec) YAML() string {
	var b strings.Builder
	for i, name := range s.Names() {
		p := s.set[i]
		num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		if p.std != 0 {
			fmt.Fprintf(&b, "%s: {mean: %s, std: %s}\n", name, num(p.mean), num(p.std))
		} else {
			fmt.Fprintf(&b, "%s: %s\n", name, num(p.mean))
		}
	}
	return b.String()
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
// A drawn value is rounded for an integer knob and then clamped into the
// knob's range: the mean is in range (ParseParamSpec refuses others), so
// clamping moves only the tails of the distribution, as "never below 0"
// did for the reserves before there were ranges.
func (s ParamSpec) Apply(base Params, seed uint64) Params {
	rng := rand.New(rand.NewPCG(seed, 0x853c49e6748fea9b))
	v := reflect.ValueOf(&base).Elem()
	for _, p := range s.set {
		x := p.mean
		if p.std != 0 {
			x = p.mean + p.std*rng.NormFloat64()
			if p.isInt {
				x = math.Round(x)
			}
			x = min(p.hi, max(p.lo, x))
		}
		f := v.FieldByIndex(p.field)
		if p.isInt {
			f.SetInt(int64(x))
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

// ParamNames lists the knobs by their YAML names.
func ParamNames() []string {
	names := slices.Clone(fieldOrder)
	sort.Strings(names)
	return names
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

// paramsNode resolves an alias and gives nil for an empty or null node
// (no overrides), with the error constructor of file.
func paramsNode(file string, n *yaml.Node) (*yaml.Node, func(n *yaml.Node, field, format string, args ...any) error) {
	fail := func(n *yaml.Node, field, format string, args ...any) error {
		return &strictyaml.Error{File: file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind == 0 || n.Tag == "!!null" {
		return nil, fail
	}
	return n, fail
}

// ParseParamSpec reads overrides from a YAML mapping of knob names to a
// number or to {mean: m, std: s}. A value, or a mean, must lie in the
// knob's range and be a whole number for an integer knob (a drawn
// integer knob may have a fractional mean: its draws are rounded). Errors
// name file, line and key, below path (the mapping's own key path, for
// messages).
func ParseParamSpec(file string, n *yaml.Node, path string) (ParamSpec, error) {
	var s ParamSpec
	n, fail := paramsNode(file, n)
	if n == nil {
		return s, nil
	}
	if n.Kind != yaml.MappingNode {
		return s, fail(n, path, "want a mapping of parameter names to values")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if val.Kind == yaml.AliasNode {
			val = val.Alias
		}
		field := joinField(path, k.Value)
		kn, ok := knobs[k.Value]
		if !ok {
			return s, fail(k, field, "unknown parameter (known: %s)", strings.Join(ParamNames(), ", "))
		}
		if seen[k.Value] {
			return s, fail(k, field, "given twice")
		}
		seen[k.Value] = true
		p := paramSet{field: kn.index, isInt: kn.isInt, lo: kn.lo, hi: kn.hi}
		meanNode, meanField := val, field
		switch val.Kind {
		case yaml.ScalarNode:
			x, err := number(val)
			if err != nil {
				return s, fail(val, field, "%v", err)
			}
			p.mean = x
		case yaml.MappingNode:
			given := map[string]bool{}
			for j := 0; j+1 < len(val.Content); j += 2 {
				key, x := val.Content[j], val.Content[j+1]
				if given[key.Value] {
					return s, fail(key, field+"."+key.Value, "given twice")
				}
				given[key.Value] = true
				switch key.Value {
				case "mean":
					meanNode, meanField = x, field+".mean"
				case "std":
				default:
					return s, fail(key, field+"."+key.Value, "unknown key (known: mean, std)")
				}
				if x.Kind != yaml.ScalarNode {
					return s, fail(x, field+"."+key.Value, "want a number")
				}
				y, err := number(x)
				if err != nil {
					return s, fail(x, field+"."+key.Value, "%v", err)
				}
				if key.Value == "mean" {
					p.mean = y
				} else {
					p.std = y
				}
			}
			if meanNode == val {
				return s, fail(val, field+".mean", "missing")
			}
			if p.std < 0 {
				return s, fail(val, field+".std", "must not be negative")
			}
		default:
			return s, fail(val, field, "want a number or {mean, std}")
		}
		if p.isInt && p.std == 0 && p.mean != math.Trunc(p.mean) {
			return s, fail(meanNode, meanField, "%s takes whole numbers, got %s", k.Value, formatNum(p.mean))
		}
		if p.mean < p.lo || p.mean > p.hi {
			return s, fail(meanNode, meanField, "%s is out of range: want %s", formatNum(p.mean), kn.rangeText())
		}
		s.set = append(s.set, p)
	}
	return s, nil
}

// number reads a finite YAML number.
func number(n *yaml.Node) (float64, error) {
	var x float64
	if (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&x) != nil {
		return 0, fmt.Errorf("want a number, got %q", n.Value)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a finite number, got %q", n.Value)
	}
	return x, nil
}

func joinField(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// SeatParams are the parameter overrides of a table: those of every seat
// and those of single seats, as 000's ai.model_parameters (a population,
// each knob a value or drawn per game from {mean, std}) and ai.overrides
// (one player pinned).
type SeatParams struct {
	All   ParamSpec
	Seats map[int]ParamSpec

	seatAt  map[int]strictyaml.Error // where each seat's overrides were read (message left empty)
	written map[string]any           // the overrides as written, by "all" or seat index
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

// Written returns the overrides as the file wrote them, decoded from
// YAML, by "all" and seat index ("0", "1", ...) whichever form gave them:
// equal for equal overrides, for fingerprints and summaries. It is empty,
// not nil, when there are none.
func (p SeatParams) Written() map[string]any {
	w := make(map[string]any, len(p.written))
	for k, v := range p.written {
		w[k] = v
	}
	return w
}

// Check reports overrides for seats a table of players seats lacks, at the
// file and line that gave them when they were read from one.
func (p SeatParams) Check(players int) error {
	for _, s := range slices.Sorted(maps.Keys(p.Seats)) {
		if s >= players {
			return p.ErrorFor(s, fmt.Sprintf("parameters for seat %d, but the seats go from 0 to %d", s, players-1))
		}
	}
	return nil
}

// ErrorFor is the error msg about the overrides of seat s, placed at the
// file and line that gave them when they were read from one (a
// tournament's keys name bots, and it refuses some with it).
func (p SeatParams) ErrorFor(s int, msg string) error {
	if at, ok := p.seatAt[s]; ok {
		at.Msg = msg
		return &at
	}
	return errors.New("agent: " + msg)
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
//	3: {rich_factor: 2}        # a seat index may also stand alone
//
// Errors name the file, the line and the key.
func ParseSeatParams(file string, data []byte) (SeatParams, error) {
	var root yaml.Node
	if err := strictyaml.Decode(file, data, &root, nil); err != nil {
		return SeatParams{}, err
	}
	return ParseSeatParamsNode(file, &root, "")
}

// ParseSeatParamsNode reads parameter overrides from the YAML mapping n,
// found at key path path of file: a --params file, or an experiment
// variant's params. Its keys are "all" (every seat), "seats" (a mapping
// of seat index to overrides) and seat indexes standing alone, a seat's
// own overrides going on top of those for all. A seat may be given once,
// in either form.
func ParseSeatParamsNode(file string, n *yaml.Node, path string) (SeatParams, error) {
	p := SeatParams{written: map[string]any{}}
	n, fail := paramsNode(file, n)
	if n == nil {
		return p, nil
	}
	seatRange := fmt.Sprintf("a seat index from 0 to %d", monopoly.MaxPlayers-1)
	if n.Kind != yaml.MappingNode {
		return p, fail(n, path, "want a mapping of all, seats or %s to parameter overrides", seatRange)
	}
	written := func(val *yaml.Node, field string) (any, error) {
		var w any
		if err := val.Decode(&w); err != nil {
			return nil, fail(val, field, "%v", err)
		}
		return w, nil
	}
	addSeat := func(k, val *yaml.Node, field string) error {
		s, err := strconv.Atoi(k.Value)
		if k.Kind != yaml.ScalarNode || err != nil || s < 0 || s >= monopoly.MaxPlayers {
			return fail(k, field, "want %s", seatRange)
		}
		if _, dup := p.Seats[s]; dup {
			return fail(k, field, "seat %d given twice", s)
		}
		spec, err := ParseParamSpec(file, val, field)
		if err != nil {
			return err
		}
		if p.Seats == nil {
			p.Seats, p.seatAt = map[int]ParamSpec{}, map[int]strictyaml.Error{}
		}
		p.Seats[s] = spec
		p.seatAt[s] = strictyaml.Error{File: file, Line: k.Line, Field: field}
		p.written[strconv.Itoa(s)], err = written(val, field)
		return err
	}
	sawAll := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		field := joinField(path, k.Value)
		switch {
		case k.Value == "all" && k.Tag == "!!str":
			if sawAll {
				return p, fail(k, field, "given twice")
			}
			sawAll = true
			var err error
			if p.All, err = ParseParamSpec(file, val, field); err != nil {
				return p, err
			}
			if p.written["all"], err = written(val, field); err != nil {
				return p, err
			}
		case k.Value == "seats" && k.Tag == "!!str":
			if val.Kind == yaml.AliasNode {
				val = val.Alias
			}
			if val.Tag == "!!null" {
				continue
			}
			if val.Kind != yaml.MappingNode {
				return p, fail(val, field, "want a mapping of seat indexes to overrides")
			}
			for j := 0; j+1 < len(val.Content); j += 2 {
				if err := addSeat(val.Content[j], val.Content[j+1], field+"."+val.Content[j].Value); err != nil {
					return p, err
				}
			}
		case k.Tag == "!!int" || k.Tag == "!!str":
			if _, err := strconv.Atoi(k.Value); err != nil {
				return p, fail(k, field, "unknown key %q: want all, seats or %s", k.Value, seatRange)
			}
			if err := addSeat(k, val, field); err != nil {
				return p, err
			}
		default:
			return p, fail(k, field, "unknown key %q: want all, seats or %s", k.Value, seatRange)
		}
	}
	return p, nil
}
