// Package rotate plays a bot against a field of others with rotating
// seats: game i seats the bot in seat i mod players, so that every seat
// is played equally often. The strength harness and the planning tests
// measure with it.
package rotate

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
)

// Config is a measurement.
type Config struct {
	Rules   *monopoly.Rules
	Players int
	Bot     string
	Spec    agent.ParamSpec // the bot's overrides
	Field   []string        // the other seats' bots, in order after the bot's seat, repeated
	Seed    uint64
	Games   int
	Workers int // 0: all cores
}

// Result is one game's outcome for the bot.
type Result struct {
	Seat      int  // where the bot sat
	Won       bool // the bot won
	Tie       bool // nobody won (a timed game tied)
	Rounds    int
	Decisions int
}

// Run plays the games, in parallel; results are in game order and do not
// depend on the number of workers (game i is seeded by arena.GameSeed).
func Run(c Config) ([]Result, error) {
	if len(c.Field) == 0 {
		return nil, fmt.Errorf("rotate: no field")
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := make([]Result, c.Games)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range workers {
		wg.Go(func() {
			agents := make([]agent.Agent, c.Players)
			for {
				i := int(next.Add(1) - 1)
				if i >= c.Games {
					return
				}
				gs := arena.GameSeed(c.Seed, i)
				seat := i % c.Players
				for s := range c.Players {
					name, sp := c.Field[(s-seat-1+c.Players)%c.Players%len(c.Field)], agent.ParamSpec{}
					if s == seat {
						name, sp = c.Bot, c.Spec
					}
					a, err := agent.NewWith(name, sp, s, arena.SeatSeed(gs, s))
					if err != nil {
						fail(err)
						return
					}
					agents[s] = a
				}
				g := monopoly.New(c.Rules, c.Players, gs)
				n, err := arena.Play(g, agents)
				if err != nil {
					fail(fmt.Errorf("rotate: game %d: %w", i, err))
					return
				}
				res[i] = Result{Seat: seat, Won: g.Winner() == seat, Tie: g.Winner() < 0, Rounds: g.Round(), Decisions: n}
			}
		})
	}
	wg.Wait()
	return res, firstErr
}

// Wins counts the games the bot won.
func Wins(rs []Result) int {
	n := 0
	for _, r := range rs {
		if r.Won {
			n++
		}
	}
	return n
}
