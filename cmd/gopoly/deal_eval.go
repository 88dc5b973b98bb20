package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/deal"
)

// dealEvalResult is the JSON report of one evaluation.
type dealEvalResult struct {
	Policy               string     `json:"policy"`
	Opponent             string     `json:"opponent"`
	Games                int        `json:"games"`
	Seed                 uint64     `json:"seed"`
	WinRateFirst         float64    `json:"win_rate_first"`
	WinRateAlternating   float64    `json:"win_rate_alternating"`
	CI95First            [2]float64 `json:"ci95_first"`
	CI95Alternating      [2]float64 `json:"ci95_alternating"`
	First                deal.Score `json:"first"`
	Alternating          deal.Score `json:"alternating"`
	MaxTurns             int        `json:"max_turns"`
	WallSeconds          float64    `json:"wall_seconds"`
	GamesPerWallSecond   float64    `json:"games_per_wall_second"`
	ScoreRule            string     `json:"score_rule"`
	AlternatingStartRule string     `json:"alternating_start_rule"`
}

func newDealEvalCmd() *cobra.Command {
	var (
		policy, vs, preset, plot string
		games, workers           int
		seed                     uint64
		asJSON                   bool
	)
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Evaluate a trained agent against a baseline in both start settings",
		Long: `Plays the agent of --policy (a checkpoint; or "untrained", "random" or
"risk-aware" for reference agents) against a baseline, --games games with
the agent always starting and --games with starts alternating. Game i uses
seed --seed + i. Scores are 1 for a win, 0 for a loss and 0.5 for a draw;
each setting reports the mean with its 95% (Wilson) confidence interval.
--vs all evaluates against both baselines.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if games < 1 {
				return usageErr(fmt.Errorf("deal: --games must be at least 1"))
			}
			if workers < 0 {
				return usageErr(fmt.Errorf("deal: --workers must not be negative"))
			}
			var opponents []string
			switch vs {
			case "random", "risk-aware":
				opponents = []string{vs}
			case "all":
				opponents = []string{"random", "risk-aware"}
			default:
				return usageErr(fmt.Errorf("deal: --vs must be random, risk-aware or all, got %q", vs))
			}
			if plot != "" && !strings.HasSuffix(plot, ".png") && !strings.HasSuffix(plot, ".svg") {
				return usageErr(fmt.Errorf("deal: --plot must end in .png or .svg, got %q", plot))
			}
			if plot != "" {
				if err := checkOutFile(cmd, "plot", plot); err != nil {
					return err
				}
			}
			agent, rules, err := dealAgent(policy, preset)
			if err != nil {
				return err
			}
			if workers == 0 {
				workers = runtime.NumCPU()
			}
			var results []dealEvalResult
			for _, opp := range opponents {
				t0 := time.Now()
				ev, err := deal.EvaluateAgainst(rules, agent, opp, games, seed, workers)
				if err != nil {
					return usageErr(err)
				}
				wall := time.Since(t0).Seconds()
				results = append(results, dealEvalResult{
					Policy: policy, Opponent: opp, Games: games, Seed: seed,
					WinRateFirst: ev.First.Mean, WinRateAlternating: ev.Alternating.Mean,
					CI95First: ev.First.CI95, CI95Alternating: ev.Alternating.CI95,
					First: ev.First, Alternating: ev.Alternating, MaxTurns: rules.MaxTurns(),
					WallSeconds: wall, GamesPerWallSecond: float64(2*games) / wall,
					ScoreRule: "win 1, loss 0, draw 0.5", AlternatingStartRule: "agent starts even-numbered games",
				})
			}
			if plot != "" {
				var bars []chart.Bar
				for _, r := range results {
					bars = append(bars,
						chart.Bar{Label: r.Opponent + ", agent first", Value: r.WinRateFirst, Lo: r.CI95First[0], Hi: r.CI95First[1]},
						chart.Bar{Label: r.Opponent + ", alternating", Value: r.WinRateAlternating, Lo: r.CI95Alternating[0], Hi: r.CI95Alternating[1]})
				}
				// About an inch and a half per bar, so that one
				// opponent's two bars do not stand far apart in an empty
				// plot.
				c := chart.BarChart{Title: fmt.Sprintf("%s: mean score, %d games per setting", policy, games), YLabel: "mean score (95% CI)", YMin: chart.Ptr(0), YMax: chart.Ptr(1), Bars: bars,
					Width: vg.Length(len(bars))*1.5*vg.Inch + 1.5*vg.Inch}
				if err := c.Save(plot); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if len(results) == 1 {
					return writeJSON(out, results[0])
				}
				return writeJSON(out, results)
			}
			dealPrintEval(out, results)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "", `checkpoint file of the agent ("bundled" for the trained policy gopoly carries; "untrained", "random" or "risk-aware" for reference agents)`)
	f.StringVar(&vs, "vs", "risk-aware", "baseline: random, risk-aware or all")
	f.IntVar(&games, "games", 2000, "games per start setting")
	f.Uint64Var(&seed, "seed", 1_000_000, "game i uses seed+i (the default keeps clear of training seeds)")
	f.IntVar(&workers, "workers", 0, "worker goroutines (0: all cores); results do not depend on it")
	f.StringVar(&preset, "preset", "paper", "game configuration for the reference agents (a checkpoint brings its own)")
	f.StringVar(&plot, "plot", "", "also draw the win rates with 95% CIs to this .png or .svg file")
	f.BoolVar(&asJSON, "json", false, "print JSON (one object, or an array with --vs all)")
	return cmd
}

func dealPrintEval(w io.Writer, rs []dealEvalResult) {
	for _, r := range rs {
		fmt.Fprintf(w, "%s vs %s, %d games per setting (seed %d, cap %d turns)\n", r.Policy, r.Opponent, r.Games, r.Seed, r.MaxTurns)
		for _, s := range []struct {
			name string
			sc   deal.Score
		}{{"agent first", r.First}, {"alternating", r.Alternating}} {
			fmt.Fprintf(w, "  %-12s %.3f  95%% CI [%.3f, %.3f]  (%d wins, %d losses, %d draws)\n",
				s.name, s.sc.Mean, s.sc.CI95[0], s.sc.CI95[1], s.sc.Wins, s.sc.Losses, s.sc.Draws)
		}
	}
}
