package arena

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/stats"
)

// A tournament seats its entrants so that no bot gains from its
// position, and scores them by wins.
//
// Seating. The entrants (the --bots list, a name given k times holding k
// seats) are put round a circle, and a cycle of m games (m entrants)
// seats, in game j of the cycle, the P entrants found clockwise from
// position j of the circle: seat s holds circle[(j+s) mod m]. So over
// every cycle each entrant plays exactly P games, once in each seat;
// with as many entrants as seats the cycle is the P rotations of the
// circle. Rotations alone would keep the order round the table (who
// plays just after whom, which matters in Monopoly as much as the seat
// does), so each cycle uses another circle: with up to
// MaxEnumeratedEntrants entrants the (m-1)! circles are all used, once
// each, in an order shuffled by the run seed, so after m! games every
// ordered table has been played equally often (for four bots in four
// seats: all 24 seatings once per 24 games); with more entrants each
// cycle draws its circle at random from the run seed. Game i's seating
// and seed depend only on the run seed and i.
//
// Fewer names than seats: the list is repeated when the names divide
// the seats (two names in four seats hold two seats each), as the other
// commands repeat --bots; otherwise seat counts would be unequal without
// the user having asked for it, and the tournament is refused.
//
// Scoring. The winner scores 1. A timed game (max_rounds) that ends in a
// tie of net worth has no winner (monopoly.Game.Winner is -1): the
// solvent players with the highest net worth share the win equally. A
// bot's wins sum over its seats, so the wins of a tournament add up to
// its number of games.

// MaxEnumeratedEntrants is the number of entrants up to which every
// circle is used in turn ((m-1)! of them: 40,320 for nine).
const MaxEnumeratedEntrants = 9

// seatingSalt keeps the seating generator apart from the game seeds.
const seatingSalt = 0x7365617473656174 // "seatseat"

// TournamentConfig describes a tournament.
type TournamentConfig struct {
	Rules   *monopoly.Rules // nil: the default rules
	Bots    []string        // the entrants; a name given k times holds k seats
	Players int             // seats per game
	Games   int
	Seed    uint64
	Workers int // 0: all cores
	// Params are overrides for every seat (All) and for single bots:
	// seats rotate, so the key of Seats is a bot's index in Bots, and its
	// overrides go with it to every seat it takes. A name given more than
	// once is scored as one bot and cannot have overrides of its own.
	Params agent.SeatParams
	// Registry finds the entrants (nil: agent.Lookup, programs included).
	Registry Registry
}

// Tournament is a validated tournament with its seating plan.
type Tournament struct {
	TournamentConfig
	entries []string // the entrants, after repetition
	names   []string // distinct, in order of first appearance
	nameOf  []int    // entrant -> name
	orders  []uint32 // circles in the order cycles use them; nil: drawn
}

// NewTournament checks c and plans its seating.
func NewTournament(c TournamentConfig) (*Tournament, error) {
	if c.Rules == nil {
		c.Rules = monopoly.DefaultRules()
	}
	if c.Players < 2 || c.Players > monopoly.MaxPlayers {
		return nil, fmt.Errorf("arena: %d players; the game takes 2 to %d", c.Players, monopoly.MaxPlayers)
	}
	if len(c.Bots) == 0 {
		return nil, fmt.Errorf("arena: no bots")
	}
	if c.Games < 1 {
		return nil, fmt.Errorf("arena: games must be at least 1")
	}
	for _, b := range slices.Sorted(maps.Keys(c.Params.Seats)) {
		if b >= len(c.Bots) {
			return nil, c.Params.ErrorFor(b, fmt.Sprintf("parameters for bot %d, but the tournament's bots are numbered from 0 to %d, in the order they are named", b, len(c.Bots)-1))
		}
		if n := countOf(c.Bots, c.Bots[b]); n > 1 {
			return nil, c.Params.ErrorFor(b, fmt.Sprintf("parameters for bot %d, %s, which is named %d times: its seats are scored as one bot and take the same parameters", b, c.Bots[b], n))
		}
	}
	t := &Tournament{TournamentConfig: c}
	for _, b := range c.Bots {
		if _, err := c.Registry.Lookup(b); err != nil {
			return nil, err
		}
		i := slices.Index(t.names, b)
		if i < 0 {
			i = len(t.names)
			t.names = append(t.names, b)
		}
		t.nameOf = append(t.nameOf, i)
	}
	if len(t.names) < 2 {
		return nil, fmt.Errorf("arena: a tournament needs at least two different bots (only %q given)", t.names[0])
	}
	t.entries = slices.Clone(c.Bots)
	if m := len(c.Bots); m < c.Players {
		if c.Players%m != 0 {
			return nil, fmt.Errorf("arena: %d bots for %d seats: name at least as many bots as seats (repeat a name to give it more seats), or a number that divides the seats", m, c.Players)
		}
		t.entries = slices.Repeat(c.Bots, c.Players/m)
		t.nameOf = slices.Repeat(t.nameOf, c.Players/m)
	}
	if m := len(t.entries); m <= MaxEnumeratedEntrants {
		rng := rand.New(rand.NewPCG(c.Seed, seatingSalt))
		perm := rng.Perm(factorial(m - 1))
		t.orders = make([]uint32, len(perm))
		for i, p := range perm {
			t.orders[i] = uint32(p)
		}
	}
	return t, nil
}

// countOf is how many times name is in names.
func countOf(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// Entrants returns the bot of each entrant (the --bots list, repeated
// when it was shorter than the seats).
func (t *Tournament) Entrants() []string { return slices.Clone(t.entries) }

// Names returns the distinct bots in order of first appearance: the
// players of the rating and the lines of the standings.
func (t *Tournament) Names() []string { return slices.Clone(t.names) }

// SeatCycle is the number of games after which every entrant has played
// equally often in every seat.
func (t *Tournament) SeatCycle() int { return len(t.entries) }

// OrderCycle is the number of games after which every ordered table of
// entrants has been played equally often, or 0 when circles are drawn at
// random (more than MaxEnumeratedEntrants entrants).
func (t *Tournament) OrderCycle() int {
	if t.orders == nil {
		return 0
	}
	return len(t.entries) * len(t.orders)
}

// Seating returns the entrant in each seat of game i, appended to
// dst[:0].
func (t *Tournament) Seating(i int, dst []int) []int {
	m := len(t.entries)
	var buf [64]int
	circle := t.circle(i/m, buf[:0])
	dst = dst[:0]
	for s := range t.Players {
		dst = append(dst, circle[(i%m+s)%m])
	}
	return dst
}

// circle returns the arrangement of entrants round the table in cycle c.
func (t *Tournament) circle(c int, dst []int) []int {
	m := len(t.entries)
	if t.orders == nil {
		rng := rand.New(rand.NewPCG(monopoly.DeriveSeed(t.Seed, c), seatingSalt))
		return append(dst, rng.Perm(m)...)
	}
	// Circle k, read from entrant 0 clockwise, is the k-th permutation
	// of entrants 1..m-1 in lexicographic order (Lehmer code).
	k := int(t.orders[c%len(t.orders)])
	var rest [MaxEnumeratedEntrants]int
	for i := range m - 1 {
		rest[i] = i + 1
	}
	left := rest[:m-1]
	dst = append(dst, 0)
	for n := m - 1; n > 0; n-- {
		f := factorial(n - 1)
		d := k / f
		k %= f
		dst = append(dst, left[d])
		left = slices.Delete(left, d, d+1)
	}
	return dst
}

// TournamentGame is the record of one game: a line of games.jsonl.
type TournamentGame struct {
	Game     int      `json:"game"`
	Seed     uint64   `json:"seed"`
	Seating  []string `json:"seating"`  // bot per seat, in playing order
	Entrants []int    `json:"entrants"` // entrant per seat (index in the entrant list)
	Winner   int      `json:"winner"`   // seat; -1 when a timed game tied
	Tied     []int    `json:"tied,omitempty"`
	Rounds   int      `json:"rounds"` // rounds played: max_rounds when capped at the limit
	Capped   bool     `json:"capped"`
	Stalled  bool     `json:"stalled,omitempty"` // adjourned after MaxDecisions decisions
	NetWorth []int    `json:"net_worth"`         // per seat, at the end
	// Measures are the players' own measures of the game, by seat
	// (agent.Measurer: an LLM seat's calls, tokens, cost); absent for bots.
	Measures []map[string]float64 `json:"measures,omitempty"`
	// Fallbacks are, by seat, the answers programs' fallbacks gave
	// (agent.Accountable); absent when no seat is a program. Retired are
	// the seats whose program was retired, its fallback playing on.
	Fallbacks []int `json:"fallbacks,omitempty"`
	Retired   []int `json:"retired,omitempty"`
	// Groups are the colour groups completed in the game, in order;
	// absent when nobody completed one.
	Groups []GroupCompletion `json:"groups,omitempty"`
	// Rolls and Decisions are for speed figures, not the record.
	Rolls     int64 `json:"-"`
	Decisions int64 `json:"-"`
}

// shareUnits is the unit in which wins are counted: a tie shares a win
// among up to MaxPlayers seats, and every such share is a whole number
// of 1/840ths (840 is the least common multiple of 1 to 8). Counted in
// these units wins add up exactly, however many ties, and a total is
// turned into a number once, by one division: the float nearest to the
// exact value, never a sum's rounding noise (58.00000000000004 wins).
const shareUnits = 840

// winUnits returns each seat's share of the game's win in shareUnits.
func (g *TournamentGame) winUnits() []int64 {
	u := make([]int64, len(g.Seating))
	if g.Winner >= 0 {
		u[g.Winner] = shareUnits
	}
	for _, s := range g.Tied {
		u[s] = shareUnits / int64(len(g.Tied))
	}
	return u
}

// units turns a count of shareUnits into wins.
func units(n int64) float64 { return float64(n) / shareUnits }

// Shares returns each seat's share of the game's win.
func (g *TournamentGame) Shares() []float64 {
	sh := make([]float64, len(g.Seating))
	if g.Winner >= 0 {
		sh[g.Winner] = 1
	}
	for _, s := range g.Tied {
		sh[s] = 1 / float64(len(g.Tied))
	}
	return sh
}

// PlayGame plays game i at table tb (nil: a table of its own).
func (t *Tournament) PlayGame(i int, tb *Table) (TournamentGame, error) {
	if tb == nil {
		tb = &Table{}
	}
	g := TournamentGame{Game: i, Seed: GameSeed(t.Seed, i), Entrants: t.Seating(i, nil)}
	seats := make([]Seat, t.Players)
	g.Seating = make([]string, t.Players)
	for s, e := range g.Entrants {
		seats[s] = Seat{Bot: t.entries[e], Params: t.Params.ForSeat(e % len(t.Bots))}
		g.Seating[s] = t.entries[e]
	}
	var groups groupWatch
	res, err := tb.play(Match{Rules: t.Rules, Seats: seats, Seed: g.Seed, Game: i, Registry: t.Registry, Observe: groups.Observe})
	if err != nil {
		return TournamentGame{}, fmt.Errorf("arena: game %d (seed %d): %w", i, g.Seed, err)
	}
	end := tb.Game()
	g.Winner, g.Rounds, g.Capped, g.Stalled, g.Rolls, g.Decisions = res.Winner, res.Rounds, res.Capped, res.Stalled, res.Rolls, res.Decisions
	g.Measures = tb.Measures()
	g.Fallbacks, g.Retired = fallbacks(res, t.Players), retiredSeats(res)
	g.Groups = groups.out
	g.NetWorth = make([]int, t.Players)
	best := -1
	for s := range g.NetWorth {
		g.NetWorth[s] = end.NetWorth(s)
		if !end.Bankrupt(s) {
			best = max(best, g.NetWorth[s])
		}
	}
	if g.Winner < 0 {
		if !g.Capped {
			return TournamentGame{}, fmt.Errorf("arena: game %d ended without a winner before the round limit", i)
		}
		for s, w := range g.NetWorth {
			if w == best && !end.Bankrupt(s) {
				g.Tied = append(g.Tied, s)
			}
		}
	}
	return g, nil
}

// Play plays the tournament's games on its workers and hands them to
// emit in game order. A cancelled context stops the run (returning
// ctx.Err()) after emit has seen a prefix of the games.
func (t *Tournament) Play(ctx context.Context, emit func(TournamentGame) error) error {
	return Run(ctx, t.Games, t.Workers, t.PlayGame, func(_ int, g TournamentGame) error { return emit(g) })
}

// Tally accumulates a tournament's games, in game order, into its
// result, as they finish: it keeps sums and counts, not the games, so
// that its memory does not grow with their number.
type Tally struct {
	t                *Tournament
	games            int
	endings          Endings
	rounds           lengths
	seats, appear    []int   // per name
	wins             []int64 // per name, in shareUnits
	seatWins         []int64 // per seat position, in shareUnits
	rating           *RatingSet
	players          []int // scratch: name per seat
	rolls, decisions int64
	measures         []map[string]float64 // per name: sums of its players' own measures
	measured         []int                // per name: seat-games that measured them
	faults           []Faults             // per name, but WinsWhileRetired
	winsRetired      []int64              // per name, in shareUnits
	groups           []map[string]int     // per name: groups its seats completed, by how
	behind           []int                // per name: seat-games in which a rival's luck gave it a group first
	behindWins       []int64              // per name: its wins in those, in shareUnits
}

// NewTally returns an empty tally for t's games.
func (t *Tournament) NewTally() *Tally {
	n := len(t.names)
	return &Tally{t: t, seats: make([]int, n), appear: make([]int, n), wins: make([]int64, n),
		seatWins: make([]int64, t.Players), rating: NewRatingSet(n), faults: make([]Faults, n), winsRetired: make([]int64, n),
		groups: make([]map[string]int, n), behind: make([]int, n), behindWins: make([]int64, n)}
}

// Games returns how many games the tally holds.
func (a *Tally) Games() int { return a.games }

// Rolls returns the dice rolls of the games, for speed figures.
func (a *Tally) Rolls() int64 { return a.rolls }

// Decisions returns the decisions the bots answered in the games.
func (a *Tally) Decisions() int64 { return a.decisions }

// Add counts game g, which must be the next game of the tournament, so
// that a tally always holds the games a run has finished, in order.
func (a *Tally) Add(g TournamentGame) error {
	if g.Game != a.games {
		return fmt.Errorf("arena: game %d counted after %d games", g.Game, a.games)
	}
	if len(g.Entrants) != a.t.Players {
		return fmt.Errorf("arena: game %d has %d seats, the tournament %d", g.Game, len(g.Entrants), a.t.Players)
	}
	for _, c := range g.Groups {
		if c.Seat < 0 || c.Seat >= a.t.Players {
			return fmt.Errorf("arena: game %d: a group completed by seat %d of %d", g.Game, c.Seat, a.t.Players)
		}
	}
	shares := g.Shares()
	units := g.winUnits()
	a.players = a.players[:0]
	in := make([]bool, len(a.t.names))
	for s, e := range g.Entrants {
		p := a.t.nameOf[e]
		a.players = append(a.players, p)
		a.seats[p]++
		a.wins[p] += units[s]
		a.seatWins[s] += units[s]
		in[p] = true
		if s < len(g.Fallbacks) {
			a.faults[p].Fallbacks += g.Fallbacks[s]
		}
		if slices.Contains(g.Retired, s) {
			a.faults[p].Retirements++
			a.winsRetired[p] += units[s]
		}
		if RivalLuckFirst(g.Groups, s) {
			a.behind[p]++
			a.behindWins[p] += units[s]
		}
		if s < len(g.Measures) && g.Measures[s] != nil {
			if a.measures == nil {
				a.measures, a.measured = make([]map[string]float64, len(a.t.names)), make([]int, len(a.t.names))
			}
			if a.measures[p] == nil {
				a.measures[p] = map[string]float64{}
			}
			for k, v := range g.Measures[s] {
				a.measures[p][k] += v
			}
			a.measured[p]++
		}
	}
	for _, c := range g.Groups {
		p := a.players[c.Seat]
		if a.groups[p] == nil {
			a.groups[p] = map[string]int{}
		}
		a.groups[p][c.How]++
	}
	if err := a.rating.Add(a.players, shares); err != nil {
		return fmt.Errorf("game %d: %w", g.Game, err)
	}
	for p, ok := range in {
		if ok {
			a.appear[p]++
		}
	}
	a.games++
	a.endings.Add(g.Capped, g.Stalled, g.Winner)
	a.rounds.add(g.Rounds)
	a.rolls += g.Rolls
	a.decisions += g.Decisions
	return nil
}

// Standing is one bot's line of the result, as `gopoly tournament
// --json` prints it.
type Standing struct {
	Name        string     `json:"name"`
	SeatsPlayed int        `json:"seats_played"`
	Wins        float64    `json:"wins"`      // draws shared
	WinShare    float64    `json:"win_share"` // wins / games
	CI95        [2]float64 `json:"ci95"`      // Wilson, on wins out of games
	Rating      float64    `json:"rating"`    // Elo scale, mean EloMean over the bots
	RatingCI95  [2]float64 `json:"rating_ci95"`
	// Faults are what its programs' fallbacks did in their place;
	// absent for bots.
	Faults
	// Measures are its players' own measures (agent.Measurer: an LLM
	// seat's calls, fallbacks, tokens, cost, consistency), per-seat-game
	// means, with cost_per_win; absent for bots.
	Measures map[string]float64 `json:"measures,omitempty"`
	// Groups counts the colour groups its seats completed, by how
	// (GroupCompletion.How).
	Groups map[string]int `json:"groups"`
	// Behind counts its seat-games in which another player completed a
	// colour group by landing or at auction before it held one
	// (RivalLuckFirst); BehindWins is its wins among them, draws shared.
	// Against a field that never sells these are the games the dice
	// decide: what is left to play for is the rest.
	Behind     int     `json:"behind"`
	BehindWins float64 `json:"behind_wins"`
}

// Standings is the result as `gopoly tournament --json` prints it.
type Standings struct {
	Games   int        `json:"games"`
	Players int        `json:"players"`
	Bots    []Standing `json:"bots"`
}

// BotResult is a Standing with the figures that compare bots holding
// different numbers of seats.
type BotResult struct {
	Standing
	GamesPlayed int        `json:"games_played"` // games with at least one of its seats
	PerSeat     float64    `json:"per_seat"`     // wins per seat played: 1/players at parity
	PerSeatCI95 [2]float64 `json:"per_seat_ci95"`
	Parity      float64    `json:"parity"` // the win share it would have if all bots were equal
}

// SeatResult is the share of wins of one seat position (seat 0 plays
// first), whoever sat there: the seat advantage the rotation cancels.
type SeatResult struct {
	Seat int        `json:"seat"`
	Wins float64    `json:"wins"`
	Rate float64    `json:"rate"`
	CI95 [2]float64 `json:"ci95"`
}

// TournamentSummary is the full result: summary.json.
type TournamentSummary struct {
	Games          int         `json:"games"`
	Players        int         `json:"players"`
	Bots           []BotResult `json:"bots"`
	GamesRequested int         `json:"games_requested"`
	Seed           uint64      `json:"seed"`
	Entrants       []string    `json:"entrants"`
	MaxRounds      int         `json:"max_rounds"`
	SeatCycle      int         `json:"seat_cycle"`
	OrderCycle     int         `json:"order_cycle"` // 0: circles drawn at random
	Endings
	RoundsMean   float64      `json:"rounds_mean"`
	RoundsMedian float64      `json:"rounds_median"`
	Seats        []SeatResult `json:"seats"`
	Resamples    int          `json:"rating_resamples"`
	// Params are the overrides for all seats, as written; absent when
	// none.
	Params any `json:"params,omitempty"`
	// BotParams are the overrides of single bots, as written, by name.
	BotParams map[string]any `json:"bot_params,omitempty"`
}

// Summary scores the games counted so far; rating intervals come from
// resamples bootstrap resamples seeded by the run seed.
//
// The interval of a win share is Wilson's on wins out of games, also for
// a bot holding several seats or sitting out some games: in each game
// the bot wins (with any of its seats) or not, at most once, so its
// wins are a count of independent games. Games differ in how many seats
// it holds, which makes them unequal trials, and for unequal trials the
// binomial variance is an upper bound: the interval is, if anything,
// conservative. Draws make a few trials fractional, which Wilson's
// formula accepts.
func (a *Tally) Summary(resamples int) TournamentSummary {
	t := a.t
	s := TournamentSummary{Games: a.games, Players: t.Players, GamesRequested: t.Games, Seed: t.Seed,
		Entrants: slices.Clone(t.entries), MaxRounds: t.Rules.MaxRounds, SeatCycle: t.SeatCycle(),
		OrderCycle: t.OrderCycle(), Endings: a.endings,
		RoundsMean: a.rounds.mean(), RoundsMedian: a.rounds.median(), Resamples: resamples,
		Params: t.Params.Written()["all"], BotParams: t.botParams()}
	elo, eloCI := a.rating.Bootstrap(resamples, t.Seed)
	for p, name := range t.names {
		wins := units(a.wins[p])
		b := BotResult{Standing: Standing{Name: name, SeatsPlayed: a.seats[p], Wins: wins,
			Rating: elo[p], RatingCI95: eloCI[p]}, GamesPlayed: a.appear[p]}
		if a.games > 0 {
			b.WinShare = float64(a.wins[p]) / float64(shareUnits*int64(a.games))
			b.Parity = float64(a.seats[p]) / float64(a.games*t.Players)
		}
		b.CI95 = wilson(wins, a.games, b.WinShare, 1)
		b.Faults = a.faults[p]
		b.Groups, b.Behind, b.BehindWins = a.groups[p], a.behind[p], units(a.behindWins[p])
		if b.Groups == nil {
			b.Groups = map[string]int{}
		}
		b.WinsWhileRetired = units(a.winsRetired[p])
		if a.measured != nil && a.measured[p] > 0 {
			b.Measures = meanMeasures(a.measures[p], a.measured[p], wins)
		}
		if a.seats[p] > 0 {
			// Per seat: the share of the games it played in, spread
			// over the seats it held in them.
			b.PerSeat = float64(a.wins[p]) / float64(shareUnits*int64(a.seats[p]))
			b.PerSeatCI95 = wilson(wins, a.appear[p], b.PerSeat, float64(a.appear[p])/float64(a.seats[p]))
		}
		s.Bots = append(s.Bots, b)
	}
	for seat, w := range a.seatWins {
		r := SeatResult{Seat: seat, Wins: units(w)}
		if a.games > 0 {
			r.Rate = float64(w) / float64(shareUnits*int64(a.games))
		}
		r.CI95 = wilson(r.Wins, a.games, r.Rate, 1)
		s.Seats = append(s.Seats, r)
	}
	return s
}

// wilson returns Wilson's interval for wins out of n, scaled by k, and
// widened by the rounding error that can leave rate (wins/n·k) just
// outside it when all or none are wins.
func wilson(wins float64, n int, rate, k float64) [2]float64 {
	lo, hi := stats.Wilson(wins, n)
	return [2]float64{min(lo*k, rate), max(hi*k, rate)}
}

// Standings returns the --json form of the summary.
func (s TournamentSummary) Standings() Standings {
	st := Standings{Games: s.Games, Players: s.Players, Bots: make([]Standing, len(s.Bots))}
	for i, b := range s.Bots {
		st.Bots[i] = b.Standing
	}
	return st
}

// botParams are the overrides of single bots as written, by name (nil:
// none).
func (t *Tournament) botParams() map[string]any {
	var m map[string]any
	for k, v := range t.Params.Written() {
		if b, err := strconv.Atoi(k); err == nil {
			if m == nil {
				m = map[string]any{}
			}
			m[t.Bots[b]] = v
		}
	}
	return m
}
