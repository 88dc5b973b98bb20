package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/bench"
)

// newBenchCmd is gopoly bench, the decision-quality benchmark.
func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Score players' decisions by their regret on a fixed set of positions",
	}
	cmd.AddCommand(newBenchDecisionsCmd())
	return cmd
}

func newBenchDecisionsCmd() *cobra.Command {
	var (
		seats  string
		o      = bench.DefaultOptions
		asJSON bool
		lf     llmFlags
	)
	cmd := &cobra.Command{
		Use:   "decisions",
		Short: "Mean regret per decision kind of each seat on the stored positions, with a leaderboard",
		Long: `Puts every position of the stored, versioned set (bench/positions.json:
games at a decision, drawn from games between baselines under open and
sealed deals, 12 of each kind: buy, bid, build, mortgage, jail,
trade_proposal, trade_response, sealed_limit, mortgaged_transfer) to each
seat of --seats (any bot name: baseline, planning, random, llm:shark,
prog:CMD ...) and scores its answer by its regret: the rollout value of the
best candidate answer there (the legal answers; for a bid, raises to half,
one, one and a half and two times the price; at a trade_proposal, the
proposal made there; at a sealed_limit, limits from paying to taking the
printed prices at stake) minus that of the answer given. The seat answers
through the decision's episode: the rest of an auction, of its phase. A
value is the seat's mean share of the table's net worth after --horizon
rounds (1 won, 0 bankrupt) over --rollouts rollouts by baseline players;
every answer is played out with the same seeds (common random numbers).
An illegal answer scores the worst candidate's value. Regret is in shares
of net worth: 0 is the best answer, 0.05 is five points of the table's
wealth.

Prints, per seat and decision kind, the mean regret with its 95% interval,
the cost per decision of LLM seats, and a leaderboard with each seat's
regret less the one above it, paired over the positions, with its 95%
interval. The same --seed gives the same figures.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lf.apply(cmd); err != nil {
				return err
			}
			names := strings.Split(seats, ",")
			if seats == "" || o.Rollouts < 1 || o.Horizon < 1 {
				return usageErr(fmt.Errorf("bench decisions: --seats names at least one seat, --rollouts and --horizon are at least 1"))
			}
			if err := ready(cmd, names); err != nil {
				return err
			}
			set, err := bench.Positions()
			if err != nil {
				return err
			}
			rs, err := bench.Score(names, set, o, cmd.ErrOrStderr())
			if err != nil {
				return usageErr(fmt.Errorf("bench decisions: %w", err))
			}
			w := cmd.OutOrStdout()
			if asJSON {
				type seatOut struct {
					Seat string      `json:"seat"`
					Rows []bench.Row `json:"rows"`
					Cost float64     `json:"cost_per_decision"`
					N    int         `json:"decisions"`
				}
				var out []seatOut
				for _, r := range bench.Leaderboard(rs) {
					out = append(out, seatOut{r.Seat, r.Rows(), r.Cost / float64(r.Decisions), r.Decisions})
				}
				e := json.NewEncoder(w)
				e.SetIndent("", "  ")
				return e.Encode(map[string]any{"version": bench.Version, "seed": o.Seed, "rollouts": o.Rollouts, "horizon": o.Horizon, "seats": out})
			}
			fmt.Fprintf(w, "positions v%d (%d), %d rollouts of %d rounds each, seed %d; mean regret ± 95%% interval, in shares of net worth\n\n",
				bench.Version, len(set.Positions), o.Rollouts, o.Horizon, o.Seed)
			fmt.Fprintf(w, "%-24s", "kind")
			for _, r := range rs {
				fmt.Fprintf(w, " %18s", r.Seat)
			}
			fmt.Fprintln(w)
			rows := make([][]bench.Row, len(rs))
			for i, r := range rs {
				rows[i] = r.Rows()
			}
			for k := range rows[0] {
				fmt.Fprintf(w, "%-24s", fmt.Sprintf("%s (%d)", rows[0][k].Kind, rows[0][k].N))
				for i := range rs {
					fmt.Fprintf(w, " %18s", fmt.Sprintf("%.4f ± %.4f", rows[i][k].Mean, rows[i][k].Half))
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, "\nleaderboard:")
			board := bench.Leaderboard(rs)
			for i, r := range board {
				all := r.Rows()[len(r.Rows())-1]
				fmt.Fprintf(w, "%2d. %-18s %.4f ± %.4f", i+1, r.Seat, all.Mean, all.Half)
				if i > 0 {
					m, h := bench.Difference(board[i-1], r)
					fmt.Fprintf(w, "   %+.4f ± %.4f over %s", m, h, board[i-1].Seat)
				}
				if r.Cost > 0 {
					fmt.Fprintf(w, "   $%.4f a decision (%d decisions)", r.Cost/float64(r.Decisions), r.Decisions)
				}
				fmt.Fprintln(w)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&seats, "seats", "planning,baseline,random", "the seats to score, comma-separated bot names")
	cmd.Flags().IntVar(&o.Rollouts, "rollouts", o.Rollouts, "rollouts per answer")
	cmd.Flags().IntVar(&o.Horizon, "horizon", o.Horizon, "rounds a rollout plays after the position")
	cmd.Flags().Uint64Var(&o.Seed, "seed", o.Seed, "the seed of the rollouts and of the seats")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	lf.register(cmd)
	return cmd
}
