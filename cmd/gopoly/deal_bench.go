package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/deal"
)

// dealBenchResult is the engine benchmark's report.
type dealBenchResult struct {
	Games              int     `json:"games"`
	Workers            int     `json:"workers"`
	Config             string  `json:"game_config"`
	WallSeconds        float64 `json:"wall_seconds"`
	CPUSeconds         float64 `json:"cpu_seconds"`
	GamesPerCPUSecond  float64 `json:"games_per_cpu_second"`
	GamesPerWallSecond float64 `json:"games_per_wall_second"`
	MeanTurns          float64 `json:"mean_turns"`
	AllocsPerGame      float64 `json:"allocs_per_game"`
	StarterWins        float64 `json:"starter_win_rate"`
	Draws              float64 `json:"draw_rate"`
}

func newDealBenchCmd() *cobra.Command {
	var (
		games, workers int
		preset         string
		seed           uint64
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the engine: random-vs-random games per CPU-second",
		Long: `Plays random-vs-random games (both players uniform over the resolved
actions) on all cores and reports games per CPU-second (process user+system
time), games per wall-second, mean length and heap allocations per game.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if games < 1 || workers < 0 {
				return usageErr(fmt.Errorf("deal: --games must be at least 1 and --workers not negative"))
			}
			cfg, err := dealConfig(preset, "")
			if err != nil {
				return err
			}
			rules := deal.MustRules(cfg)
			if workers == 0 {
				workers = runtime.NumCPU()
			}
			type tally struct{ turns, starterWins, draws int }
			tallies := make([]tally, workers)
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			cpu0, t0 := cpuTime(), time.Now()
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Go(func() {
					seats := [2]deal.Seat{{Agent: deal.Random{}}, {Agent: deal.Random{}}}
					var g deal.Game
					var rng rand.PCG
					t := &tallies[w]
					for i := w; i < games; i += workers {
						s := seed + uint64(i)
						g.Reset(rules, s, i&1)
						rng.Seed(s, 1)
						res := deal.PlayOut(&g, &seats, &rng)
						t.turns += g.Turn()
						switch res.Utility(g.Starter()) {
						case 1:
							t.starterWins++
						case 0:
							t.draws++
						}
					}
				})
			}
			wg.Wait()
			wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
			runtime.ReadMemStats(&ms1)
			var sum tally
			for _, t := range tallies {
				sum.turns += t.turns
				sum.starterWins += t.starterWins
				sum.draws += t.draws
			}
			n := float64(games)
			r := dealBenchResult{
				Games: games, Workers: workers, Config: cfg.Name, WallSeconds: wall, CPUSeconds: cpu,
				GamesPerWallSecond: n / wall, MeanTurns: float64(sum.turns) / n,
				AllocsPerGame: float64(ms1.Mallocs-ms0.Mallocs) / n,
				StarterWins:   float64(sum.starterWins) / n, Draws: float64(sum.draws) / n,
			}
			if cpu > 0 {
				r.GamesPerCPUSecond = n / cpu
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), r)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d random-vs-random games (%s deck) on %s: %.0f games per CPU-second, %.0f per wall-second\n",
				games, r.Config, plural(workers, "worker"), r.GamesPerCPUSecond, r.GamesPerWallSecond)
			fmt.Fprintf(cmd.OutOrStdout(), "  %.1f turns per game, %.3f allocations per game, starter wins %.3f, draws %.3f\n",
				r.MeanTurns, r.AllocsPerGame, r.StarterWins, r.Draws)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 1_000_000, "games to play")
	f.IntVar(&workers, "workers", 0, "worker goroutines (0: all cores)")
	f.StringVar(&preset, "preset", "paper", "game configuration: paper, small or tiny")
	f.Uint64Var(&seed, "seed", 1, "game i uses seed+i")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
