package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// tuneJSON is what `tune --json` prints.
type tuneJSON struct {
	Out         string            `json:"out"`
	Shard       int               `json:"shard"`
	Shards      int               `json:"shards"`
	Resumed     int               `json:"resumed"`
	Played      int               `json:"played"`
	GamesPlayed int               `json:"games_played"`
	Seconds     float64           `json:"seconds"`
	Summary     arena.TuneSummary `json:"summary"`
}

func newTuneCmd() *cobra.Command {
	var (
		out, shard string
		workers    int
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "tune SPEC.yaml",
		Short: "Search a bot's knobs for the largest win share against a field (CMA-ES over experiments)",
		Long: `Tunes the knobs of one bot (agent.Params) against a field of opponents:
each generation of CMA-ES candidates plays one experiment on common seeds,
the bot in every seat in turn, and a validation plays the starting knobs
and the best found on fresh seeds. --out (default runs/NAME) gets
progress.jsonl (every candidate: knobs, win share, 95% CI), best.yaml (the
best knobs as a --params file), progress.png/svg, summary.json, tune.yaml,
tune.json, and each generation's experiment in generations/G (gopoly
experiment show reads them). Ctrl-C stops cleanly (exit 130); the same
command again resumes, and the run ends as one never stopped. With
--shard i/N, N processes share one --out (on storage they all see): each
plays shard i of every generation and waits for the others; shard 0
merges and writes the outputs.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := arena.LoadTune(args[0])
			if err != nil {
				return usageErr(err)
			}
			si, sn, err := checkRun(cmd, t.Seats(), workers, shard)
			if err != nil {
				return err
			}
			if out == "" {
				out = filepath.Join("runs", t.Name)
			}
			if err := checkOutDir(cmd, out); err != nil {
				return err
			}
			ctx, stop := resumable(cmd)
			defer stop()
			progress, finish := lazyProgress(cmd.ErrOrStderr(), "tune "+t.Name)
			opts := arena.TuneOptions{Dir: out, Shard: si, Shards: sn, Workers: workers,
				Note:     func(msg string) { fmt.Fprintln(cmd.ErrOrStderr(), "gopoly: note:", msg) },
				Progress: progress,
			}
			t0 := time.Now()
			rep, err := t.Run(ctx, opts)
			finish()
			interrupted := err != nil && ctx.Err() != nil
			if err != nil && !interrupted {
				return dirErr(err)
			}
			w := cmd.OutOrStdout()
			if asJSON {
				r := tuneJSON{Out: out, Shard: si, Shards: sn, Resumed: rep.Resumed, Played: rep.Played, GamesPlayed: rep.Games,
					Seconds: time.Since(t0).Seconds(), Summary: rep.Summary}
				if err := writeJSON(w, r); err != nil {
					return err
				}
			} else {
				printTune(w, t, rep, out, si, sn, time.Since(t0))
			}
			if interrupted {
				return &exitError{code: 130, err: fmt.Errorf("interrupted: %d of %d generations kept in %s; run the same command again to resume",
					rep.Summary.Done, t.Generations, out)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "output directory (default runs/NAME)")
	f.StringVar(&shard, "shard", "", "play shard i of N of every generation (i/N), the other shards run by other processes into the same --out")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: all cores)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// printTune prints a tuning run's summary: the generations, the best
// knobs against the start, and the validation.
func printTune(w io.Writer, t *arena.Tune, rep arena.TuneReport, out string, shard, shards int, took time.Duration) {
	s := rep.Summary
	fmt.Fprintf(w, "tune %s: %s against %s in %s", s.Tune, s.Bot, strings.Join(s.Field, ", "), out)
	if shards > 1 {
		fmt.Fprintf(w, " (shard %d/%d)", shard, shards)
	}
	fmt.Fprintf(w, "\n%d of %d generations of %d candidates, %d games each", s.Done, s.Generations, s.Population, s.GamesPerCandidate)
	if s.Converged {
		fmt.Fprint(w, " (CMA-ES converged)")
	}
	fmt.Fprintf(w, "; played %d games in %.2f s", rep.Games, took.Seconds())
	if rep.Resumed > 0 {
		fmt.Fprintf(w, " after the %d experiments found there", rep.Resumed)
	}
	fmt.Fprintln(w)
	if len(s.PerGeneration) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%4s %7s  %-16s %7s\n", "gen", "best", "95% CI", "mean")
	for _, g := range s.PerGeneration {
		fmt.Fprintf(w, "%4d %6.1f%%  [%.1f%%, %.1f%%] %6.1f%%\n", g.Generation, 100*g.BestWinShare, 100*g.BestCI95[0], 100*g.BestCI95[1], 100*g.MeanWinShare)
	}
	b := s.Best
	fmt.Fprintf(w, "\nbest: generation %d, candidate %d: %.1f%% of %d games [%.1f%%, %.1f%%]\n",
		b.Generation, b.Candidate, 100*b.WinShare, b.Games, 100*b.CI95[0], 100*b.CI95[1])
	nw := len("knob")
	for _, k := range s.Knobs {
		nw = max(nw, len(k.Name))
	}
	fmt.Fprintf(w, "%-*s  %-20s %12s %12s\n", nw, "knob", "bounds", "start", "best")
	num := func(x float64) string { return fmt.Sprint(x) }
	for _, k := range s.Knobs {
		fmt.Fprintf(w, "%-*s  %-20s %12s %12s\n", nw, k.Name, "["+num(k.Lo)+", "+num(k.Hi)+"]", num(k.Start), num(*k.Best))
	}
	if v := s.Validation; v != nil {
		fmt.Fprintf(w, "\nvalidation on %d fresh games: start %.1f%% [%.1f%%, %.1f%%], best %.1f%% [%.1f%%, %.1f%%]\n", v.Games,
			100*v.Start.WinShare, 100*v.Start.CI95[0], 100*v.Start.CI95[1], 100*v.Best.WinShare, 100*v.Best.CI95[0], 100*v.Best.CI95[1])
	}
	if shard == 0 {
		best := filepath.Join(out, arena.BestParamsFile)
		fmt.Fprintf(w, "\nbest knobs: %s (gopoly sim --bots %s --params %s)\n", best, strings.Join(t.Seats(), ","), best)
	}
}
