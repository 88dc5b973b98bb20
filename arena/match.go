package arena

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// Seat is one player of a match: a registered bot and overrides of its
// parameters.
type Seat struct {
	Bot    string
	Params agent.ParamSpec
}

// Match is one game to play: its rules, its seats in playing order and
// its seed.
type Match struct {
	Rules *monopoly.Rules
	Seats []Seat
	Seed  uint64
	// Game is the game's number in its run, as the run's results give
	// it, told to players that are agent.Numbered.
	Game int
	// Watch, when set, is called after every action (and once before the
	// first) with the game, which then records its events: the watcher
	// reads them with TakeEvents.
	Watch func(g *monopoly.Game)
	// Observe, when set, is called as Watch is, but the game records no
	// events for it: it reads the game's state. (Recording them would
	// cost a tournament of bots about a sixth of its speed.)
	Observe func(g *monopoly.Game)
	// Words asks players that talk (agent.Talker) for their speech and
	// thought, recorded as events. It costs time and is off for
	// statistics: a talker's action is the same either way.
	Words bool
	// Registry finds the seats' bots (nil: agent.Lookup).
	Registry Registry
}

// Table is a game and its players, which one worker reuses from one game
// of a run to the next so that a simulation allocates nothing per game.
// A player that is agent.Resetter is reset for the next game when its bot
// and parameters are wanted again: in its own seat, or, when seats rotate
// (tournaments, experiments), in another, from the players set aside.
// Others, and players with drawn parameters, are made anew. The zero
// Table is ready to use.
type Table struct {
	g      *monopoly.Game
	agents []agent.Agent
	seats  []Seat // who the players were made for
	idle   []idlePlayer
	config []Seat // Config.RunGame's seating
}

// idlePlayer is a player set aside when its seat went to another bot.
type idlePlayer struct {
	seat Seat
	a    agent.Agent // an agent.Resetter
}

// maxIdle bounds the players a table sets aside: enough for every seat of
// a rotation of several bots.
const maxIdle = 4 * monopoly.MaxPlayers

// reusable reports whether a player made for was can play as want.
func reusable(was, want Seat) bool {
	return was.Bot == want.Bot && !want.Params.Sampled() && was.Params.Equal(want.Params)
}

// Play plays m at the table.
func (t *Table) Play(m Match) (GameResult, error) {
	r, err := t.play(m)
	if err != nil {
		return r, fmt.Errorf("arena: seed %d: %w", m.Seed, err)
	}
	return r, nil
}

// play is Play with errors left for the caller to place: a bot's illegal
// action is a *SeatError naming its bot.
func (t *Table) play(m Match) (GameResult, error) {
	n := len(m.Seats)
	if t.g == nil || t.g.Rules() != m.Rules || t.g.Players() != n {
		t.g, t.agents, t.seats, t.idle = monopoly.New(m.Rules, n, m.Seed), make([]agent.Agent, n), make([]Seat, n), nil
	} else {
		t.g.Reset(m.Seed)
	}
	g := t.g
	// Players whose seat goes to another bot are set aside first, so
	// that a rotation finds them for the seats they move to.
	// Players neither kept nor set aside are closed: a program's seat
	// would leave its program running.
	for s, seat := range m.Seats {
		if _, ok := t.agents[s].(agent.Resetter); ok && !reusable(t.seats[s], seat) {
			if !t.seats[s].Params.Sampled() && len(t.idle) < maxIdle {
				t.idle = append(t.idle, idlePlayer{t.seats[s], t.agents[s]})
			} else {
				agent.CloseAll(t.agents[s : s+1])
			}
			t.agents[s] = nil
		}
	}
	for s, seat := range m.Seats {
		if r, ok := t.agents[s].(agent.Resetter); ok && reusable(t.seats[s], seat) {
			r.Reset(s, SeatSeed(m.Seed, s))
			continue
		}
		if i := slices.IndexFunc(t.idle, func(p idlePlayer) bool { return reusable(p.seat, seat) }); i >= 0 {
			t.idle[i].a.(agent.Resetter).Reset(s, SeatSeed(m.Seed, s))
			t.agents[s], t.seats[s] = t.idle[i].a, seat
			t.idle = slices.Delete(t.idle, i, i+1)
			continue
		}
		agent.CloseAll(t.agents[s : s+1])
		b, err := m.Registry.Lookup(seat.Bot)
		if err != nil {
			return GameResult{}, err
		}
		t.agents[s], t.seats[s] = b.New(seat.Params, s, SeatSeed(m.Seed, s)), seat
	}
	for _, a := range t.agents {
		if n, ok := a.(agent.Numbered); ok {
			n.Number(m.Game)
		}
	}
	g.Record(m.Watch != nil || m.Words || agent.Following(t.agents))
	watch := m.Watch
	switch {
	case watch == nil:
		watch = m.Observe
	case m.Observe != nil:
		watch = func(g *monopoly.Game) { m.Watch(g); m.Observe(g) }
	}
	dec, stalled, err := play(g, t.agents, m.Words, watch)
	g.Record(false)
	if err != nil {
		var se *SeatError
		if errors.As(err, &se) {
			se.Bot = m.Seats[se.Seat].Bot
		}
		return GameResult{}, err
	}
	rounds := g.RoundsPlayed()
	if stalled {
		rounds = g.Round()
	}
	res := GameResult{Winner: g.Winner(), Rounds: rounds, Rolls: g.Rolls(), Decisions: int64(dec), Capped: g.Capped(), Stalled: stalled}
	for s, a := range t.agents {
		if ac, ok := a.(agent.Accountable); ok {
			res.Accounts[s] = ac.Account()
			res.Accountable |= 1 << s
		}
	}
	return res, nil
}

// Measures are the own measures of the game last played of the table's
// players that are agent.Measurers, by seat (nil for the others); nil
// when none is, as for bots, and nothing is allocated.
func (t *Table) Measures() []map[string]float64 {
	var out []map[string]float64
	for s, a := range t.agents {
		if m, ok := a.(agent.Measurer); ok {
			if out == nil {
				out = make([]map[string]float64, len(t.agents))
			}
			out[s] = m.Measures()
		}
	}
	return out
}

// exampler is a player with quoted examples of its own measures (an
// LLM seat's answers whose words disagree with the game's values).
type exampler interface {
	Examples() map[string][]string
}

// Examples are the examples of the game last played of the table's
// players that have any, by seat; nil when none has.
func (t *Table) Examples() []map[string][]string {
	var out []map[string][]string
	for s, a := range t.agents {
		if e, ok := a.(exampler); ok {
			if ex := e.Examples(); len(ex) > 0 {
				if out == nil {
					out = make([]map[string][]string, len(t.agents))
				}
				out[s] = ex
			}
		}
	}
	return out
}

// Close closes the table's players that hold something to close (a
// child process, a connection: agent.CloseAll), those set aside too. Run
// closes the tables of its workers; the table may be used again after.
func (t *Table) Close() error {
	err := agent.CloseAll(t.agents)
	for _, p := range t.idle {
		if e := agent.CloseAll([]agent.Agent{p.a}); e != nil && err == nil {
			err = e
		}
	}
	t.g, t.agents, t.seats, t.idle = nil, nil, nil, nil
	return err
}

// Game returns the table's game: after Play, the position it ended in.
func (t *Table) Game() *monopoly.Game { return t.g }

// Run plays jobs 0..n-1 on workers goroutines (0: all cores), each with a
// Table of its own, and hands the results to emit in job order, one at a
// time, so that what a run writes does not depend on the number of
// workers. It stops at the first error of play or emit in job order, or
// when ctx is cancelled (returning ctx.Err()); emit has then seen a
// prefix of the jobs. After an error, the jobs before the failed one
// that are under way still finish and are emitted, so the prefix is
// every job before the first failure, whatever the number of workers.
func Run[R any](ctx context.Context, n, workers int, play func(i int, t *Table) (R, error), emit func(i int, r R) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var (
		next     atomic.Int64
		mu       sync.Mutex
		firstErr error
		failAt   = n // the first job that failed, in job order
		done     = map[int]R{}
		emitted  int
		wg       sync.WaitGroup
	)
	fail := func(i int, err error) {
		if i < failAt {
			failAt, firstErr = i, err
		}
		next.Store(int64(n)) // no new jobs
	}
	for range workers {
		wg.Go(func() {
			var t Table
			defer t.Close() // a player's failure to close changes no result
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				// Past the last job the counter goes on by one per worker,
				// and wraps to negative jobs when n is math.MaxInt.
				if i >= n || i < 0 {
					return
				}
				r, err := play(i, &t)
				mu.Lock()
				if err != nil {
					fail(i, err)
				} else if i < failAt {
					done[i] = r
				}
				for emitted < failAt {
					r, ok := done[emitted]
					if !ok {
						break
					}
					delete(done, emitted)
					if err := emit(emitted, r); err != nil {
						fail(emitted, err)
						break
					}
					emitted++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
