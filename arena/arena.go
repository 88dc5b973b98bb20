// Package arena runs games between agents: one game, or many in parallel
// with per-game seeds derived from a run seed so that results do not
// depend on how many workers play them.
package arena

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/stats"
)

// MaxDecisions bounds one game. A game still going after this many
// decisions (without a round limit, players that never go bankrupt can
// play for ever) is adjourned as a timed game (monopoly.Game.Adjourn):
// the richest player wins, and the game is recorded as capped and
// stalled, so that a run always ends and keeps its games. The bound is
// far above any game that ends by itself (a 500-round game is some
// 20,000 decisions), and depends only on the game, so a stalled game
// ends the same way on every replay.
const MaxDecisions = 2_000_000

// GameSeed derives the seed of game i of a run (SplitMix64), so any game
// of a run can be replayed alone.
func GameSeed(run uint64, i int) uint64 { return monopoly.DeriveSeed(run, i) }

// SeatSeed derives the seed a bot in a seat receives (agent.SeatSeed).
func SeatSeed(game uint64, seat int) uint64 { return agent.SeatSeed(game, seat) }

// Play runs g to the end with one agent per seat and returns how many
// decisions the agents answered; a game that reaches MaxDecisions is
// adjourned. An agent's illegal action is an error (a *SeatError): bots
// must answer legally. When g records events, agents that are
// agent.Talker answer with words, recorded before their action.
func Play(g *monopoly.Game, agents []agent.Agent) (decisions int, err error) {
	decisions, _, err = play(g, agents, g.Recording(), nil)
	if err != nil {
		err = fmt.Errorf("arena: %w", err)
	}
	return decisions, err
}

// play is Play with talkers asked for words only when words is set, and
// watch (if not nil) called before the first decision and after every
// action (the adjournment included); stalled reports an adjourned game.
func play(g *monopoly.Game, agents []agent.Agent, words bool, watch func(*monopoly.Game)) (n int, stalled bool, err error) {
	d := agent.Driver{Agents: agents, Words: words, Max: MaxDecisions}
	if watch != nil {
		watch(g)
		d.Applied = func(g *monopoly.Game, _ int, _ agent.Answer) error { watch(g); return nil }
	}
	n, stop, err := d.Run(context.Background(), g)
	switch {
	case err != nil:
		return n, false, err
	case stop == agent.StopWaiting:
		return n, false, errors.New("a seat has no player")
	case stop == agent.StopLimit:
		g.Adjourn()
		d.Follow(g)
		if watch != nil {
			watch(g)
		}
		return n, true, nil
	}
	return n, false, nil
}

// SeatError is a player's action the rules refused: a bug in a bot, which
// must answer legally whatever its parameters.
type SeatError = agent.SeatError

// Config describes a simulation run.
type Config struct {
	Rules   *monopoly.Rules
	Players int
	Bots    []string // per seat, repeated cyclically if shorter
	Params  agent.SeatParams
	Seed    uint64
	Games   int
	Workers int // 0: all cores
	// Registry finds the bots (nil: agent.Lookup, programs included).
	Registry Registry
}

// GameResult is the outcome of one game.
type GameResult struct {
	Winner    int // -1: none (a timed game tied)
	Rounds    int // rounds played: max_rounds when capped at the limit
	Rolls     int64
	Decisions int64 // answered by the agents
	Capped    bool  // ended as a timed game: at the round limit, or stalled
	Stalled   bool  // adjourned after MaxDecisions decisions
	// Accounts are, for the seats whose players are agent.Accountable
	// (programs; bit s of Accountable for seat s), the answers their
	// fallbacks gave and their retirements. An array, not a slice, keeps
	// a result comparable and costs no allocation.
	Accounts    [monopoly.MaxPlayers]agent.Account
	Accountable uint8
}

// SeatBot returns the bot name seated at seat.
func (c *Config) SeatBot(seat int) string { return c.Bots[seat%len(c.Bots)] }

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.Players < 2 || c.Players > monopoly.MaxPlayers {
		return fmt.Errorf("arena: %d players; the game takes 2 to %d", c.Players, monopoly.MaxPlayers)
	}
	if len(c.Bots) == 0 {
		return fmt.Errorf("arena: no bots")
	}
	for _, b := range c.Bots {
		if _, err := c.Registry.Lookup(b); err != nil {
			return err
		}
	}
	if err := c.Params.Check(c.Players); err != nil {
		return err
	}
	if c.Games < 1 {
		return fmt.Errorf("arena: games must be at least 1")
	}
	return nil
}

// RunGame plays game i of the run at table t (nil: a table of its own).
func (c *Config) RunGame(i int, t *Table) (GameResult, error) {
	if t == nil {
		t = &Table{}
	}
	// The seats are kept in the table: a slice of a local array would
	// escape through Play and cost an allocation per game.
	t.config = t.config[:0]
	for s := range c.Players {
		t.config = append(t.config, Seat{Bot: c.SeatBot(s), Params: c.Params.ForSeat(s)})
	}
	seed := GameSeed(c.Seed, i)
	r, err := t.play(Match{Rules: c.Rules, Seats: t.config, Seed: seed, Game: i, Registry: c.Registry})
	if err != nil {
		return GameResult{}, fmt.Errorf("arena: game %d (seed %d): %w", i, seed, err)
	}
	return r, nil
}

// Simulate plays c.Games games on c.Workers goroutines. progress, if not
// nil, is called after each game. Results are in game order whatever the
// number of workers. A cancelled context, or a game that fails (a bot's
// illegal action), stops the run, which returns the games finished
// before it (a prefix, in order) with the error, so that the caller can
// still report them. The results take memory in proportion to the games
// played: a run too long to keep them sums them with SimulateEach and a
// SimTally instead.
func Simulate(ctx context.Context, c Config, progress func()) ([]GameResult, error) {
	var results []GameResult
	err := SimulateEach(ctx, c, func(_ int, r GameResult) {
		results = append(results, r)
		if progress != nil {
			progress()
		}
	})
	return results, err
}

// SimulateEach plays c.Games games on c.Workers goroutines as Simulate
// does, and hands each result to each as its game finishes, in game order
// whatever the number of workers, one at a time. It keeps nothing itself,
// so that a run of any length takes the memory each keeps.
func SimulateEach(ctx context.Context, c Config, each func(i int, r GameResult)) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return Run(ctx, c.Games, c.Workers, c.RunGame, func(i int, r GameResult) error {
		each(i, r)
		return nil
	})
}

// SimTally sums the games of a simulation as they finish, into what
// Summarize reports, in memory that does not grow with the games (game
// lengths are counted by length). The zero SimTally is empty and ready
// to use.
type SimTally struct {
	games            int
	rolls, decisions int64
	endings          Endings
	rounds           lengths
	seatWins         []int
	faults           []Faults // by seat; nil while no seat is a program
}

// Add counts one game. It allocates only for a game length or a winning
// seat not seen before.
func (t *SimTally) Add(r GameResult) {
	t.games++
	t.rolls += r.Rolls
	t.decisions += r.Decisions
	t.endings.Add(r.Capped, r.Stalled, r.Winner)
	t.rounds.add(r.Rounds)
	if r.Winner >= 0 {
		if r.Winner >= len(t.seatWins) {
			t.seatWins = append(t.seatWins, make([]int, r.Winner+1-len(t.seatWins))...)
		}
		t.seatWins[r.Winner]++
	}
	for s := range r.Accounts {
		if r.Accountable&(1<<s) == 0 {
			continue
		}
		if t.faults == nil {
			t.faults = make([]Faults, monopoly.MaxPlayers)
		}
		f, a := &t.faults[s], r.Accounts[s]
		f.Fallbacks += a.Fallbacks
		if a.Retirements > 0 {
			f.Retirements++
			if r.Winner == s {
				f.WinsWhileRetired++
			}
		}
	}
}

// Games returns how many games the tally holds.
func (t *SimTally) Games() int { return t.games }

// Summary returns the summary of the games counted, run with c; timing
// figures are filled by the caller.
func (t *SimTally) Summary(c Config) Summary {
	s := Summary{Games: t.games, Rolls: t.rolls, Decisions: t.decisions, Endings: t.endings,
		RoundsMean: t.rounds.mean(), RoundsMed: t.rounds.median(), Wins: map[string]int{}, ByBot: map[string]BotWR{}, Seed: c.Seed}
	for seat := range c.Players {
		w := 0
		if seat < len(t.seatWins) {
			w = t.seatWins[seat]
		}
		bot := c.SeatBot(seat)
		s.Wins[fmt.Sprintf("seat%d:%s", seat, bot)] = w
		lo, hi := stats.Wilson(float64(w), s.Games)
		rate := 0.0
		if s.Games > 0 {
			rate = float64(w) / float64(s.Games)
		}
		sw := SeatWins{Seat: seat, Bot: bot, Wins: w, Rate: rate, CI95: [2]float64{lo, hi}}
		if seat < len(t.faults) {
			sw.Faults = t.faults[seat]
		}
		s.WinRates = append(s.WinRates, sw)
		b := s.ByBot[bot]
		b.Seats++
		b.Wins += w
		s.ByBot[bot] = b
	}
	for name, b := range s.ByBot {
		n := b.Seats * s.Games
		if n > 0 {
			b.Rate = float64(b.Wins) / float64(n)
			lo, hi := stats.Wilson(float64(b.Wins), n)
			b.CI95 = [2]float64{lo, hi}
		}
		s.ByBot[name] = b
	}
	return s
}

// Summary aggregates a run.
type Summary struct {
	Games      int     `json:"games"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	GamesPerS  float64 `json:"games_per_sec"`
	GamesPerCS float64 `json:"games_per_cpu_sec"`
	Rolls      int64   `json:"rolls"`
	Decisions  int64   `json:"decisions"`
	Endings
	RoundsMean float64          `json:"rounds_mean"`
	RoundsMed  float64          `json:"rounds_median"`
	Wins       map[string]int   `json:"wins"`
	WinRates   []SeatWins       `json:"win_rates"`
	ByBot      map[string]BotWR `json:"by_bot"`
	Workers    int              `json:"workers"`
	Seed       uint64           `json:"seed"`
}

// Endings counts how the games of a run, tournament or variant ended.
type Endings struct {
	Finished int `json:"finished"` // by bankruptcies
	Capped   int `json:"capped"`   // as timed games: at the round limit, or stalled
	Stalled  int `json:"stalled"`  // adjourned after MaxDecisions decisions
	Ties     int `json:"ties"`     // capped without a single richest player
}

// Add counts one game.
func (e *Endings) Add(capped, stalled bool, winner int) {
	if capped {
		e.Capped++
	} else {
		e.Finished++
	}
	if stalled {
		e.Stalled++
	}
	if winner < 0 {
		e.Ties++
	}
}

// SeatWins is one seat's wins with a 95% Wilson interval.
type SeatWins struct {
	Seat int        `json:"seat"`
	Bot  string     `json:"bot"`
	Wins int        `json:"wins"`
	Rate float64    `json:"rate"`
	CI95 [2]float64 `json:"ci95"`
	// Faults are what a program's fallback did in its place; absent
	// for bots.
	Faults
}

// BotWR is one bot's share of wins over the seats it held.
type BotWR struct {
	Seats int        `json:"seats"`
	Wins  int        `json:"wins"`
	Rate  float64    `json:"rate"` // wins per game it played in, per seat
	CI95  [2]float64 `json:"ci95"`
}

// Summarize aggregates results; timing figures are filled by the caller.
func Summarize(c Config, results []GameResult) Summary {
	var t SimTally
	for _, r := range results {
		t.Add(r)
	}
	return t.Summary(c)
}
