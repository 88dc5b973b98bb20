package arena

import (
	"context"
	"fmt"
	"runtime"
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
	// Watch, when set, is called after every action (and once before the
	// first) with the game, which then records its events: the watcher
	// reads them with TakeEvents.
	Watch func(g *monopoly.Game)
	// Words asks players that talk (agent.Talker) for their speech and
	// thought, recorded as events. It costs time and is off for
	// statistics: a talker's action is the same either way.
	Words bool
}

// Table is a game and its players, which one worker reuses from one game
// of a run to the next so that a simulation allocates nothing per game:
// a seat keeps its player while the bot and its parameters stay the same
// (players that are agent.Resetter are reset, others made anew). The zero
// Table is ready to use.
type Table struct {
	g      *monopoly.Game
	agents []agent.Agent
	seats  []Seat // who the players were made for
	config []Seat // Config.RunGame's seating
}

// Play plays m at the table.
func (t *Table) Play(m Match) (GameResult, error) {
	n := len(m.Seats)
	if t.g == nil || t.g.Rules() != m.Rules || t.g.Players() != n {
		t.g, t.agents, t.seats = monopoly.New(m.Rules, n, m.Seed), make([]agent.Agent, n), make([]Seat, n)
	} else {
		t.g.Reset(m.Seed)
	}
	g := t.g
	for s, seat := range m.Seats {
		r, ok := t.agents[s].(agent.Resetter)
		if ok && t.seats[s].Bot == seat.Bot && !seat.Params.Sampled() && t.seats[s].Params.Equal(seat.Params) {
			r.Reset(s, SeatSeed(m.Seed, s))
			continue
		}
		a, err := agent.NewWith(seat.Bot, seat.Params, s, SeatSeed(m.Seed, s))
		if err != nil {
			return GameResult{}, err
		}
		t.agents[s], t.seats[s] = a, seat
	}
	g.Record(m.Watch != nil || m.Words)
	dec, err := play(g, t.agents, m.Words, m.Watch)
	g.Record(false)
	if err != nil {
		return GameResult{}, fmt.Errorf("seed %d: %w", m.Seed, err)
	}
	rounds := g.Round()
	if g.Capped() {
		rounds = m.Rules.MaxRounds // the counter has moved on to the round not played
	}
	return GameResult{Winner: g.Winner(), Rounds: rounds, Rolls: g.Rolls(), Decisions: int64(dec), Capped: g.Capped()}, nil
}

// Game returns the table's game: after Play, the position it ended in.
func (t *Table) Game() *monopoly.Game { return t.g }

// Run plays jobs 0..n-1 on workers goroutines (0: all cores), each with a
// Table of its own, and hands the results to emit in job order, one at a
// time, so that what a run writes does not depend on the number of
// workers. It stops at the first error of play or emit, or when ctx is
// cancelled (returning ctx.Err()); emit has then seen a prefix of the
// jobs.
func Run[R any](ctx context.Context, n, workers int, play func(i int, t *Table) (R, error), emit func(i int, r R) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var (
		next     atomic.Int64
		mu       sync.Mutex
		firstErr error
		done     = map[int]R{}
		emitted  int
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	for range workers {
		wg.Go(func() {
			var t Table
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				r, err := play(i, &t)
				mu.Lock()
				if err != nil || firstErr != nil {
					if err != nil {
						fail(err)
					}
					mu.Unlock()
					next.Store(int64(n)) // the others stop too
					return
				}
				done[i] = r
				for {
					r, ok := done[emitted]
					if !ok {
						break
					}
					delete(done, emitted)
					if err := emit(emitted, r); err != nil {
						fail(err)
						next.Store(int64(n))
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
