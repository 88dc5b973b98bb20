// Command strength measures a bot against a field of others over many
// games with rotating seats (the bot in each seat equally often). It
// prints the bot's wins with a 95% Wilson interval and the CPU time per
// game; results do not depend on the number of workers.
//
//	go run ./agent/planning/internal/strength -bot adaptive -games 2000
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/planning/internal/rotate"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/stats"
)

func main() {
	var (
		bot      = flag.String("bot", "planning", "the bot measured")
		field    = flag.String("field", "baseline", "the other seats' bots, comma-separated, repeated")
		games    = flag.Int("games", 2000, "games")
		players  = flag.Int("players", 4, "players per game")
		seed     = flag.Uint64("seed", 1, "run seed")
		workers  = flag.Int("workers", 0, "parallel games (0: all cores)")
		rounds   = flag.Int("max-rounds", 500, "round limit (0: none)")
		params   = flag.String("params", "", `the bot's parameter overrides as YAML, e.g. "{rollouts: 16}"`)
		rulesDoc = flag.String("rules", "", `rules overrides as YAML, e.g. "{auctions: false}"`)
	)
	flag.Parse()
	c := rotate.Config{Players: *players, Bot: *bot, Field: strings.Split(*field, ","), Seed: *seed, Games: *games, Workers: *workers}
	if err := run(c, *rounds, *params, *rulesDoc); err != nil {
		fmt.Fprintln(os.Stderr, "strength:", err)
		os.Exit(2)
	}
}

func run(c rotate.Config, maxRounds int, params, rulesDoc string) error {
	r, err := monopoly.DefaultRules().WithOverrides("--max-rounds", fmt.Appendf(nil, "max_rounds: %d", maxRounds))
	if err != nil {
		return err
	}
	if rulesDoc != "" {
		if r, err = r.WithOverrides("--rules", []byte(rulesDoc)); err != nil {
			return err
		}
	}
	c.Rules = r
	if params != "" {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(params), &n); err != nil || len(n.Content) == 0 {
			return fmt.Errorf("--params: not a YAML mapping: %q", params)
		}
		if c.Spec, err = agent.ParseParamSpec("--params", n.Content[0], ""); err != nil {
			return err
		}
	}
	cpu0, t0 := cpuTime(), time.Now()
	res, err := rotate.Run(c)
	if err != nil {
		return err
	}
	wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
	wins, ties := rotate.Wins(res), 0
	seatWins := make([]int, c.Players)
	rounds := make([]float64, len(res))
	for i, x := range res {
		if x.Won {
			seatWins[x.Seat]++
		}
		if x.Tie {
			ties++
		}
		rounds[i] = float64(x.Rounds)
	}
	lo, hi := stats.Wilson(float64(wins), c.Games)
	fmt.Printf("%s vs %s: %d games, %d wins = %.1f%% [%.1f, %.1f] (parity %.1f%%), ties %d, rounds mean %.1f\n",
		c.Bot, strings.Join(c.Field, ","), c.Games, wins, 100*float64(wins)/float64(c.Games), 100*lo, 100*hi, 100/float64(c.Players), ties, stats.Mean(rounds))
	fmt.Printf("wins by seat %v; %.3f CPU-s per game, %.1f s wall\n", seatWins, cpu/float64(c.Games), wall)
	return nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
