package personality

import (
	"slices"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/worth"
)

// Profile is a personality as data: its registered name, its defaults (a
// seat may override any of them), the traits of style that make it who
// it is, and its lines.
type Profile struct {
	Name     string // registry name: shark, professor, hustler, turtle
	Title    string // as 001 calls it: "The Shark"
	Doc      string // one line, for help texts
	Defaults agent.Params
	style    style
	lines    *lineBook
}

// style is the part of a personality that is identity rather than a
// tunable knob.
type style struct {
	buildOrder int     // which monopoly gets the next house
	liftFirst  bool    // lifts mortgages before building (the Turtle)
	bidStep    float64 // a raise, as a fraction of the printed price
	bidOpen    float64 // the least opening bid, as a fraction of its limit
	rotate     bool    // deals with every partner in turn (the Hustler)
	prospects  bool    // buys streets of groups only it and the partner have started
	collects   bool    // buys streets of any group it has started (the Hustler)
	packages   bool    // sweetens offers with a spare street or a jail card
	allIn      bool    // bids down to complete_reserve in any auction (the Shark)
	hard       bool    // never concedes in a negotiation (the Turtle)
	volume     float64 // chance of speaking on a routine decision (a bid, a roll in jail)
	major      float64 // chance of speaking on another (proposals and answers always speak)
	chatter    float64 // chance of table talk at the start of a turn
}

// Build orders.
const (
	richestFirst   = iota // the dearest group: the biggest rents soonest
	cheapestFirst         // the cheapest group: the most houses per dollar
	bestYieldFirst        // the best expected rent per dollar (landing model)
)

// The four personalities of 001's comparison matrix.
var (
	// Shark buys everything unless cash would fall below $100-200, bids
	// in every auction down to its last $40 (opening at 60% of its limit),
	// builds at once on its dearest group (mortgaging elsewhere to pay),
	// trades often to complete groups, opening low and following a refusal
	// with a fair "final offer" (5% more at each later retry, so that two
	// Sharks come to terms), and leaves jail at once.
	Shark = &Profile{
		Name:  "shark",
		Title: "The Shark",
		Doc:   "001's Shark: buys everything, bids very high, builds at once on credit, trades hard, leaves jail at once",
		Defaults: agent.Params{
			CashReserve: 100, ReserveMax: 200, CompleteReserve: 40, BuildReserve: 60, TradeReserve: 60,
			BidCompletes: 2, BidBlocks: 1.6, BidFactor: 1.25, BidChance: 1,
			StretchBudget: 1.5, ValuationBias: 0.1, PropertyWeight: 1,
			JailLeaveUnowned: 0, RichFactor: 4, RetryTurns: 6,
			BuyChance: 1, BuildChance: 1, BuildOnCredit: 1,
			TradeChance: 0.4, AcceptMargin: 0.1, AskMargin: -0.15, AskStep: 0.05,
		},
		style: style{buildOrder: richestFirst, bidStep: 0.1, bidOpen: 0.6, allIn: true, prospects: true, volume: 0.5, major: 1, chatter: 0.1},
		lines: &sharkLines,
	}
	// Professor values squares by their real landing frequencies: it buys
	// what clears its hurdle of expected rent per opponent turn per
	// dollar, bids up to that value, builds where the return per dollar
	// is best and keeps $200 when it builds, keeps $400-600 growing with
	// the worst rent on the board, trades at fair prices (raising its
	// offer after a refusal), and prices a rival's monopoly at the rent it
	// would pay there over worth.Horizon turns, with the houses the
	// rival's cash builds.
	Professor = &Profile{
		Name:  "professor",
		Title: "The Professor",
		Doc:   "001's Professor: buys and builds by expected rent per dollar from real landing frequencies, fair trades, $400-600 reserve",
		Defaults: agent.Params{
			CashReserve: 400, ReserveMax: 600, CompleteReserve: 50, BuildReserve: 200, TradeReserve: 70,
			BidCompletes: 2.2, BidBlocks: 1.6, BidFactor: 1, BidChance: 1,
			StretchBudget: 1.5, PropertyWeight: 1, LandingWeight: 1, Hurdle: 0.01, Horizon: worth.Horizon,
			JailLeaveUnowned: 8, RichFactor: 2.5, RetryTurns: 10,
			BuyChance: 1, BuildChance: 1,
			TradeChance: 0.35, AcceptMargin: 0.02, AskMargin: 0.02, AskStep: 0.1,
		},
		style: style{buildOrder: bestYieldFirst, bidStep: 0.1, prospects: true, volume: 0.8, major: 1, chatter: 0.1},
		lines: &professorLines,
	}
	// Hustler buys railroads and utilities whenever it can and streets
	// when the mood takes it, bids in most auctions, builds by mood (or
	// when its cash lies idle), proposes deals to every player in turn
	// (packages with a spare street or a jail card, sales of the street a
	// partner lacks), keeps $200-400, and sometimes overpays a little.
	Hustler = &Profile{
		Name:  "hustler",
		Title: "The Hustler",
		Doc:   "001's Hustler: loves railroads and utilities, deals with everyone, package offers, builds by mood",
		Defaults: agent.Params{
			CashReserve: 200, ReserveMax: 400, CompleteReserve: 100, BuildReserve: 100, TradeReserve: 60,
			BidCompletes: 1.6, BidBlocks: 1.3, BidFactor: 1, BidChance: 0.9,
			StretchBudget: 1.2, PropertyWeight: 1, RailWeight: 1.25,
			JailLeaveUnowned: 4, RichFactor: 2, RetryTurns: 2,
			BuyChance: 0.8, BuildChance: 0.5,
			TradeChance: 1, AcceptMargin: -0.05, AskMargin: 0.05, Generosity: 0.1, Splurge: 0.2,
		},
		style: style{buildOrder: cheapestFirst, bidStep: 0.1, rotate: true, prospects: true, collects: true, packages: true, volume: 1, major: 1, chatter: 0.3},
		lines: &hustlerLines,
	}
	// Turtle keeps $800-1,200, buys only streets up to $120 (Brown and
	// Light Blue), bids little and only for bargains above that, builds
	// only with three times the cost of developing the group in hand,
	// lifts mortgages first, says no to almost every trade and never
	// concedes, and always tries for doubles in jail.
	Turtle = &Profile{
		Name:  "turtle",
		Title: "The Turtle",
		Doc:   "001's Turtle: hoards $800-1,200, buys only cheap streets, rarely bids or trades, builds slowly, stays in jail",
		Defaults: agent.Params{
			CashReserve: 800, ReserveMax: 1200, CompleteReserve: 600, BuildReserve: 800, BuildCover: 3, TradeReserve: 800,
			BuyPriceCap: 120, BidCompletes: 1.2, BidBlocks: 1, BidFactor: 0.6, BidChance: 0.5,
			StretchBudget: 1, PropertyWeight: 1,
			JailLeaveUnowned: 99, RichFactor: 1, RetryTurns: 20,
			BuyChance: 1, BuildChance: 1,
			TradeChance: 0.05, AcceptMargin: 0.2, AskMargin: -0.25,
		},
		style: style{buildOrder: cheapestFirst, liftFirst: true, hard: true, bidStep: 0.02, volume: 0.15, major: 0.5, chatter: 0.02},
		lines: &turtleLines,
	}
)

// Profiles lists the four personalities.
func Profiles() []*Profile { return []*Profile{Shark, Professor, Hustler, Turtle} }

// planners are the knobs of the planning players, which no personality
// reads (it reads all the others).
var planners = []string{"rollouts", "win_weight", "net_worth_weight", "cash_weight", "monopoly_weight",
	"plan_property_weight", "bankruptcy_penalty", "confidence", "tight_cash", "thin_cash"}

func init() {
	var reads []string
	for _, k := range agent.ParamNames() {
		if !slices.Contains(planners, k) {
			reads = append(reads, k)
		}
	}
	for _, prof := range Profiles() {
		agent.Register(agent.Bot{
			Name:     prof.Name,
			Doc:      prof.Doc,
			Defaults: prof.Defaults,
			Reads:    reads,
			Make: func(p agent.Params, seat int, seed uint64) agent.Agent {
				return New(prof, p, seat, seed)
			},
		})
	}
}
