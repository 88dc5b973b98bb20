// Command strength measures a bot against a field of others over many
// games with rotating seats: game i seats the bot in seat i mod players,
// so every seat is played equally often. It prints the bot's wins with a
// 95% Wilson interval and the CPU time per game; results do not depend on
// the number of workers.
//
//	go run ./agent/planning/internal/strength -bot adaptive -games 2000
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/stats"
)

type result struct {
	won, tie  bool
	rounds    int
	decisions int
	seat      int
}

func main() {
	var (
		bot      = flag.String("bot", "planning", "the bot measured")
		opp      = flag.String("opp", "baseline", "the other seats' bots, comma-separated, repeated")
		games    = flag.Int("games", 2000, "games")
		players  = flag.Int("players", 4, "players per game")
		seed     = flag.Uint64("seed", 1, "run seed")
		workers  = flag.Int("workers", runtime.GOMAXPROCS(0), "parallel games")
		rounds   = flag.Int("max-rounds", 500, "round limit (0: none)")
		params   = flag.String("params", "", `the bot's parameter overrides as YAML, e.g. "{rollouts: 16}"`)
		rulesDoc = flag.String("rules", "", "rules overrides as YAML")
	)
	flag.Parse()
	if err := run(*bot, strings.Split(*opp, ","), *games, *players, *seed, *workers, *rounds, *params, *rulesDoc); err != nil {
		fmt.Fprintln(os.Stderr, "strength:", err)
		os.Exit(2)
	}
}

func run(bot string, opp []string, games, players int, seed uint64, workers, maxRounds int, params, rulesDoc string) error {
	r, err := monopoly.DefaultRules().WithOverrides("--max-rounds", fmt.Appendf(nil, "max_rounds: %d", maxRounds))
	if err != nil {
		return err
	}
	if rulesDoc != "" {
		if r, err = r.WithOverrides("--rules", []byte(rulesDoc)); err != nil {
			return err
		}
	}
	var spec agent.ParamSpec
	if params != "" {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(params), &n); err != nil {
			return fmt.Errorf("--params: %w", err)
		}
		if spec, err = agent.ParseParamSpec("--params", n.Content[0], ""); err != nil {
			return err
		}
	}
	res := make([]result, games)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	cpu0, t0 := cpuTime(), time.Now()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= games {
					return
				}
				gs := arena.GameSeed(seed, i)
				g := monopoly.New(r, players, gs)
				seat := i % players
				agents := make([]agent.Agent, players)
				for s := range players {
					name, sp := opp[(s-seat-1+players)%players%len(opp)], agent.ParamSpec{}
					if s == seat {
						name, sp = bot, spec
					}
					a, err := agent.NewWith(name, sp, s, arena.SeatSeed(gs, s))
					if err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
						return
					}
					agents[s] = a
				}
				n, err := arena.Play(g, agents)
				if err != nil {
					mu.Lock()
					firstErr = fmt.Errorf("game %d: %w", i, err)
					mu.Unlock()
					return
				}
				res[i] = result{won: g.Winner() == seat, tie: g.Winner() < 0, rounds: g.Round(), decisions: n, seat: seat}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
	wins, ties := 0, 0
	seatWins := make([]int, players)
	var rs []float64
	for _, x := range res {
		if x.won {
			wins++
			seatWins[x.seat]++
		}
		if x.tie {
			ties++
		}
		rs = append(rs, float64(x.rounds))
	}
	lo, hi := stats.Wilson(float64(wins), games)
	fmt.Printf("%s vs %s: %d games, %d wins = %.1f%% [%.1f, %.1f] (parity %.1f%%), ties %d, rounds mean %.1f\n",
		bot, strings.Join(opp, ","), games, wins, 100*float64(wins)/float64(games), 100*lo, 100*hi, 100/float64(players), ties, stats.Mean(rs))
	fmt.Printf("by seat: %v; %.3f CPU-s per game, %.1f s wall, %d workers\n", seatWins, cpu/float64(games), wall, workers)
	return nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
