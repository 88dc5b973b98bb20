package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/internal/dirlock"
)

func newExperimentCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "experiment",
		Short: "Run, merge and show experiments: variants of seats, parameters and rules on a common seed range",
		Long: `An experiment plays every variant of a spec (YAML) on the same seeds and
writes per-game results, summaries with 95% confidence intervals and
behaviour metrics, and plots to a directory. Runs can be split into shards
that run anywhere and merge to the same files as one run; a stopped run
resumes where it stopped.`,
	}
	cmd.AddCommand(newExperimentRunCmd(), newExperimentMergeCmd(), newExperimentShowCmd(), newExperimentManifestCmd(), newExperimentSubmitCmd(), newExperimentStatusCmd(), newExperimentResubmitCmd())
	return cmd
}

// parseShard reads "i/N" (0 <= i < N); "" (no --shard) is the one
// shard 0/1.
func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want i/N with 0 <= i < N (shards count from 0)", s)
	}
	return i, n, nil
}

// checkRun checks, before a run of games starts, what experiment run
// and tune are given alike: that the bots can play here, --workers and
// --shard (returned as i of N). Problems are bad input.
func checkRun(cmd *cobra.Command, bots []string, workers int, shard string) (int, int, error) {
	if err := ready(cmd, bots); err != nil {
		return 0, 0, err
	}
	if err := checkWorkers(cmd, workers); err != nil {
		return 0, 0, err
	}
	si, sn, err := parseShard(shard)
	if err != nil {
		return 0, 0, usageErr(err)
	}
	return si, sn, nil
}

// dirErr maps the arena's errors about directories (one that does not
// fit, or one another process is writing) to bad input.
func dirErr(err error) error {
	if errors.Is(err, arena.ErrBadDir) || errors.Is(err, dirlock.ErrBusy) {
		return usageErr(err)
	}
	return err
}

// runJSON is what `experiment run --json` prints.
type runJSON struct {
	Out        string        `json:"out"`
	Experiment string        `json:"experiment"`
	Shard      int           `json:"shard"`
	Shards     int           `json:"shards"`
	Games      int           `json:"games"`
	Done       int           `json:"done"`
	Resumed    int           `json:"resumed"`
	Played     int           `json:"played"`
	Complete   bool          `json:"complete"`
	Seconds    float64       `json:"seconds"`
	CPUSeconds float64       `json:"cpu_seconds"`
	GamesPerS  float64       `json:"games_per_sec"`
	GamesPerCS float64       `json:"games_per_cpu_sec"`
	Variants   []showVariant `json:"variants"`
}

func newExperimentRunCmd() *cobra.Command {
	var (
		out, shard string
		workers    int
		asJSON     bool
		lf         llmFlags
	)
	cmd := &cobra.Command{
		Use:   "run SPEC.yaml",
		Short: "Run an experiment (or one shard of it), resuming what a stopped run left",
		Long: `Plays the games of the spec, or with --shard i/N every variant on the seeds
j with j mod N = i, into --out (default runs/NAME, runs/NAME-shard-i-of-N).
Ctrl-C stops cleanly, keeping the finished games (exit 130); running the
same command again resumes. The directory then holds spec.yaml, run.json,
results.jsonl, summary.json, winrates.png/svg and variants/NAME/
(summary.json, plots and, at detail full, traces.jsonl). --out must be new,
empty, or hold this run already; another process writing it is refused.
A game a bot cannot finish (an action the rules refuse: a bug) stops the
run with an error (exit 1), keeping the games before it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lf.apply(cmd); err != nil {
				return err
			}
			e, err := arena.LoadExperiment(args[0])
			if err != nil {
				return usageErr(err)
			}
			var bots []string
			for _, v := range e.Variants {
				for _, seat := range v.Seats {
					bots = append(bots, seat.Bot)
				}
			}
			si, sn, err := checkRun(cmd, bots, workers, shard)
			if err != nil {
				return err
			}
			if out == "" {
				out = filepath.Join("runs", e.Name)
				if sn > 1 {
					out = fmt.Sprintf("%s-shard-%d-of-%d", out, si, sn)
				}
			}
			if err := checkOutDir(cmd, out); err != nil {
				return err
			}
			ctx, stop := resumable(cmd)
			defer stop()
			progress, finish := lazyProgress(cmd.ErrOrStderr(), "experiment "+e.Name)
			opts := arena.RunOptions{Dir: out, Shard: si, Shards: sn, Workers: workers,
				Warn:     func(msg string) { fmt.Fprintln(cmd.ErrOrStderr(), "gopoly: warning:", msg) },
				Progress: progress,
			}
			cpu0, t0 := cpuTime(), time.Now()
			rep, err := e.Run(ctx, opts)
			wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
			finish()
			interrupted := err != nil && ctx.Err() != nil
			if err != nil && !interrupted {
				if rep.Summary.Results == nil {
					return dirErr(err) // refused before it played
				}
				return fmt.Errorf("%w\n(the %d games before it are kept in %s, summaries included)", err, rep.Resumed+rep.Played, out)
			}
			sum := rep.Summary
			r := runJSON{Out: out, Experiment: e.Name, Shard: si, Shards: sn, Games: rep.Info.Games, Done: rep.Resumed + rep.Played,
				Resumed: rep.Resumed, Played: rep.Played, Complete: rep.Complete, Seconds: wall, CPUSeconds: cpu,
				Variants: showVariants(sum)}
			if wall > 0 {
				r.GamesPerS = float64(rep.Played) / wall
			}
			if cpu > 0 {
				r.GamesPerCS = float64(rep.Played) / cpu
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(w, r); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(w, "%s: %d of %d games in %s", e.Name, r.Done, r.Games, out)
				if sn > 1 {
					fmt.Fprintf(w, " (shard %d/%d)", si, sn)
				}
				fmt.Fprintf(w, "\nplayed %d", r.Played)
				if r.Resumed > 0 {
					fmt.Fprintf(w, " after the %d found there", r.Resumed)
				}
				fmt.Fprintf(w, " in %.2f s: %.0f games/s, %.0f games per CPU-second\n\n", wall, r.GamesPerS, r.GamesPerCS)
				printExperiment(w, sum)
			}
			if interrupted {
				return &exitError{code: 130, err: fmt.Errorf("interrupted: %d of %d games kept in %s; run the same command again to resume", r.Done, r.Games, out)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	lf.register(cmd)
	f.StringVar(&out, "out", "", "output directory (default runs/NAME, or runs/NAME-shard-i-of-N)")
	f.StringVar(&shard, "shard", "", "run only shard i of N (i/N, from 0/N to N-1/N): every variant on the seeds j with j mod N = i")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: all cores)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func newExperimentMergeCmd() *cobra.Command {
	var (
		out    string
		asJSON bool
		wait   time.Duration
		// whileQueued are Slurm jobs (arrays) whose queued or running
		// tasks the merge waits for.
		whileQueued []string
	)
	cmd := &cobra.Command{
		Use:   "merge DIR...",
		Short: "Merge the shard directories of one experiment into the directory one run would write",
		Long: `Checks that the directories are every shard of one experiment (same spec,
no shard twice, none missing, each complete) and writes into --out
(default runs/NAME) the results, traces, summaries and plots of an
unsharded run: the same bytes. The shards' spec.yaml may differ in
comments, layout or description; --out gets shard 0's, whatever the order
of the directories. --out must be new, empty, or hold a merge of this
experiment, which is replaced. With --wait, it first waits until every
directory holds a complete shard (as a merge Job does beside its shards);
with --while-queued, it waits for them as long as Slurm holds a task of
one of those jobs queued or running (as the merge job of experiment
submit does: a requeued task is queued again).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := waitShards(cmd, args, wait, whileQueued); err != nil {
				return err
			}
			if out == "" {
				info, err := arena.ReadRunInfo(args[0])
				if err != nil {
					return usageErr(fmt.Errorf("%s: %w", args[0], err))
				}
				out = filepath.Join("runs", info.Experiment)
			}
			if err := checkOutDir(cmd, out); err != nil {
				return err
			}
			e, info, err := arena.MergeExperiment(args, out)
			if err != nil {
				return dirErr(err)
			}
			sum, _, err := arena.LoadSummary(out, e, info)
			if err != nil {
				return dirErr(err)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), showJSON{Variants: showVariants(sum)})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "merged %d shards into %s\n\n", len(args), out)
			printExperiment(cmd.OutOrStdout(), sum)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory (default runs/NAME)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged summary as show --json does")
	cmd.Flags().DurationVar(&wait, "wait", 0, "wait up to this long for every shard to be complete (0: not at all)")
	cmd.Flags().StringSliceVar(&whileQueued, "while-queued", nil, "Slurm job ids: wait for incomplete shards while a task of one of these jobs is queued or running")
	return cmd
}

// squeueGrace is how long a merge waiting on Slurm jobs goes on waiting
// while squeue fails, before it gives up.
const squeueGrace = 5 * time.Minute

// waitShards waits until every directory holds a complete shard: up to
// limit, and, with jobs, for as long as Slurm holds a task of one of them
// queued or running (a requeued task is pending again). It says on
// stderr which shards it waits for when that changes.
func waitShards(cmd *cobra.Command, dirs []string, limit time.Duration, jobs []string) error {
	if limit <= 0 && len(jobs) == 0 {
		return nil
	}
	deadline := time.Now().Add(limit)
	said := ""
	var failing time.Time // since when squeue has failed, unbroken
	for {
		var waiting []string
		for _, d := range dirs {
			if !shardComplete(d) {
				waiting = append(waiting, d)
			}
		}
		if len(waiting) == 0 {
			return nil
		}
		notDone := fmt.Sprintf("%s of %d not complete: %s", plural(len(waiting), "shard"), len(dirs), strings.Join(waiting, " "))
		if limit <= 0 || time.Now().After(deadline) {
			if len(jobs) == 0 {
				return fmt.Errorf("%s: after %s, %s", cmdName(cmd), limit, notDone)
			}
			more, err := anyQueued(jobs)
			switch {
			case err != nil && failing.IsZero():
				failing = time.Now()
				fmt.Fprintf(cmd.ErrOrStderr(), "gopoly: %v; asking again for up to %s\n", err, squeueGrace)
			case err != nil && time.Since(failing) > squeueGrace:
				return fmt.Errorf("%s: %s, and Slurm could not be asked for %s: %v", cmdName(cmd), notDone, squeueGrace, err)
			case err == nil:
				failing = time.Time{}
				if !more {
					return fmt.Errorf("%s: %s, and no task of Slurm job %s is queued or running", cmdName(cmd), notDone, strings.Join(jobs, ", "))
				}
			}
		}
		if msg := strings.Join(waiting, " "); msg != said {
			fmt.Fprintf(cmd.ErrOrStderr(), "gopoly: waiting for %d of %d shards: %s\n", len(waiting), len(dirs), msg)
			said = msg
		}
		pause := 5 * time.Second
		if time.Now().Before(deadline) {
			pause = min(10*time.Second, time.Until(deadline)+time.Millisecond)
		}
		time.Sleep(pause)
	}
}

func newExperimentShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show DIR",
		Short: "Show an experiment directory's win rates and behaviour metrics",
		Long: `Prints the summary of an experiment directory, from its summary.json when
results.jsonl is still what it sums up (summary.json records its size and
SHA-256); otherwise, with a note, from results.jsonl itself, checked line
by line as a resumed run checks it: damaged results are an error naming
the line (exit 2).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, info, err := arena.OpenExperimentDir(args[0])
			if err != nil {
				return usageErr(err)
			}
			sum, stale, err := arena.LoadSummary(args[0], e, info)
			if err != nil {
				return dirErr(err)
			}
			if stale != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "gopoly: note: %s: %s; the figures are made afresh from %s\n", args[0], stale, arena.ResultsFile)
			}
			var tallies map[string][]arena.SeatTally
			if seatsLLM(e) {
				// Read again only for LLM seats: their examples are in the
				// games' records, not in the summary.
				if tallies, err = arena.TallyResults(args[0], e, info); err != nil {
					return dirErr(err)
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, showJSON{Variants: showVariants(sum), Tallies: tallies})
			}
			done := 0
			for _, v := range sum.Variants {
				done += v.Games
			}
			fmt.Fprintf(w, "%s: %d of %d games", args[0], done, info.Games)
			if info.Shards > 1 {
				fmt.Fprintf(w, " (shard %d/%d)", info.Shard, info.Shards)
			}
			fmt.Fprint(w, "\n\n")
			printExperiment(w, sum)
			printConsistency(w, sum, tallies)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// showJSON is what `experiment show --json` prints.
type showJSON struct {
	Variants []showVariant `json:"variants"`
	// Tallies are, by variant, the measured seats' measures summed over
	// their games with their first examples (show only).
	Tallies map[string][]arena.SeatTally `json:"tallies,omitempty"`
}

type showVariant struct {
	Name  string     `json:"name"`
	Games int        `json:"games"`
	Seats []showSeat `json:"seats"`
}

// showSeat holds a seat's figures; the behaviour metrics are null at
// detail summary, which records none.
type showSeat struct {
	Seat                       int        `json:"seat"`
	Bot                        string     `json:"bot"`
	Wins                       int        `json:"wins"`
	WinRate                    float64    `json:"win_rate"`
	CI95                       [2]float64 `json:"ci95"`
	MeanCash                   *float64   `json:"mean_cash"`
	MinCash                    *float64   `json:"min_cash"`
	PropertiesBought           *float64   `json:"properties_bought"`
	AuctionBids                *float64   `json:"auction_bids"`
	AuctionsWon                *float64   `json:"auctions_won"`
	TradesProposed             *float64   `json:"trades_proposed"`
	TradesAccepted             *float64   `json:"trades_accepted"`
	TradesReceived             *float64   `json:"trades_received"`
	TradesAcceptedWhenReceived *float64   `json:"trades_accepted_when_received"`
	HousesBuilt                *float64   `json:"houses_built"`
	HotelsBuilt                *float64   `json:"hotels_built"`
	FirstBuildRoundMean        *float64   `json:"first_build_round_mean"`
	JailTurnsServed            *float64   `json:"jail_turns_served"`
	JailFinesPaid              *float64   `json:"jail_fines_paid"`
	Mortgages                  *float64   `json:"mortgages"`
	Bankruptcies               *float64   `json:"bankruptcies"`
	NetWorthMean               *float64   `json:"net_worth_mean"`
	arena.Faults                          // a program's; absent for bots
}

func showVariants(s arena.ExperimentSummary) []showVariant {
	vs := []showVariant{}
	for _, v := range s.Variants {
		sv := showVariant{Name: v.Name, Games: v.Games, Seats: []showSeat{}}
		for _, ss := range v.Seats {
			o := showSeat{Seat: ss.Seat, Bot: ss.Bot, Wins: ss.Wins, WinRate: ss.WinRate, CI95: ss.CI95, Faults: ss.Faults}
			if b := ss.Behaviour; b != nil {
				o.MeanCash, o.MinCash, o.PropertiesBought = &b.MeanCash, &b.MinCash, &b.PropertiesBought
				o.AuctionBids, o.AuctionsWon = &b.AuctionBids, &b.AuctionsWon
				o.TradesProposed, o.TradesAccepted, o.TradesReceived = &b.TradesProposed, &b.TradesAccepted, &b.TradesReceived
				o.TradesAcceptedWhenReceived = &b.TradesAcceptedWhenReceived
				o.HousesBuilt, o.HotelsBuilt, o.FirstBuildRoundMean = &b.HousesBuilt, &b.HotelsBuilt, b.FirstBuildRoundMean
				o.JailTurnsServed, o.JailFinesPaid, o.Mortgages = &b.JailTurnsServed, &b.JailFinesPaid, &b.Mortgages
				o.Bankruptcies, o.NetWorthMean = &b.Bankruptcies, &b.NetWorthMean
			}
			sv.Seats = append(sv.Seats, o)
		}
		vs = append(vs, sv)
	}
	return vs
}

// behaviourKey explains the behaviour table's column heads, which are cut
// short to keep a row on one line.
var behaviourKey = [][2]string{
	{"cash", "mean cash held"}, {"min", "least cash held"},
	{"bought", "properties bought"}, {"bids", "auction bids"},
	{"won", "auctions won"}, {"prop", "trades proposed"},
	{"acc", "of those, accepted"}, {"recv", "trades received"},
	{"acc'd", "of those, it accepted"}, {"houses", "houses built"},
	{"hotels", "hotels built"}, {"1stbld", "round of its first building"},
	{"jail", "turns served in jail"}, {"fines", "jail fines paid"},
	{"mortg", "mortgages taken"}, {"bkrpt", "share of games it went bankrupt"},
	{"worth", "net worth at the end"},
}

// printBehaviourKey prints behaviourKey in two columns.
func printBehaviourKey(w io.Writer) {
	fmt.Fprintln(w, "\nkey: each a mean over the games (1stbld: over those in which it built)")
	for i := 0; i < len(behaviourKey); i += 2 {
		line := fmt.Sprintf("  %-7s %-32s", behaviourKey[i][0], behaviourKey[i][1])
		if i+1 < len(behaviourKey) {
			line += fmt.Sprintf("%-7s %s", behaviourKey[i+1][0], behaviourKey[i+1][1])
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// printExperiment prints a summary as tables: per variant, game length,
// win rates and (when recorded) behaviour, with a key to the behaviour
// columns after the last table.
func printExperiment(w io.Writer, s arena.ExperimentSummary) {
	fmt.Fprintf(w, "experiment %s, detail %s, seeds %d + %d·j for j < %d\n", s.Experiment, s.Detail, s.Seeds.Start, s.Seeds.Step, s.Seeds.Count)
	behaviour := false
	for _, v := range s.Variants {
		rot := ""
		if v.Rotate {
			rot = ", seats rotating"
		}
		stalled := ""
		if v.Stalled > 0 {
			stalled = fmt.Sprintf(", %d adjourned after %d decisions", v.Stalled, arena.MaxDecisions)
		}
		fmt.Fprintf(w, "\n== %s: %d games%s (%d ended by bankruptcy, %d at the round limit%s, %d tied)\n", v.Name, v.Games, rot, v.Finished, v.Capped-v.Stalled, stalled, v.Ties)
		if v.Games == 0 {
			continue
		}
		r := v.Rounds
		fmt.Fprintf(w, "rounds: mean %.1f ± %.1f, median %.0f, p10 %.0f, p90 %.0f, max %.0f\n\n", r.Mean, r.CI95, r.Median, r.P10, r.P90, r.Max)
		nw := 0
		for _, ss := range v.Seats {
			nw = nameWidth(nw, ss.Bot)
		}
		fmt.Fprintf(w, "%-4s %-*s %6s %7s  %-16s\n", "seat", nw, "bot", "wins", "rate", "95% CI")
		for _, ss := range v.Seats {
			fmt.Fprintf(w, "%-4d %-*s %6d %6.1f%%  [%.1f%%, %.1f%%]\n", ss.Seat, nw, ss.Bot, ss.Wins, 100*ss.WinRate, 100*ss.CI95[0], 100*ss.CI95[1])
		}
		for _, ss := range v.Seats {
			printMeasures(w, fmt.Sprintf("seat %d %s", ss.Seat, ss.Bot), ss.Measures)
		}
		for _, ss := range v.Seats {
			warnFaults(w, fmt.Sprintf("seat %d %s", ss.Seat, ss.Bot), ss.Faults, float64(ss.Wins))
		}
		if len(v.Seats) == 0 || v.Seats[0].Behaviour == nil {
			continue
		}
		behaviour = true
		fmt.Fprintf(w, "\n%-*s %7s %7s %6s %5s %5s %5s %5s %5s %5s %6s %6s %6s %6s %5s %5s %5s %7s\n",
			5+nw, "per game (means)", "cash", "min", "bought", "bids", "won", "prop", "acc", "recv", "acc'd", "houses", "hotels", "1stbld", "jail", "fines", "mortg", "bkrpt", "worth")
		for _, ss := range v.Seats {
			b := ss.Behaviour
			first := "-"
			if b.FirstBuildRoundMean != nil {
				first = fmt.Sprintf("%.1f", *b.FirstBuildRoundMean)
			}
			fmt.Fprintf(w, "%-4d %-*s %7.0f %7.0f %6.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %6.2f %6.2f %6s %6.2f %5.2f %5.2f %5.2f %7.0f\n",
				ss.Seat, nw, ss.Bot, b.MeanCash, b.MinCash, b.PropertiesBought, b.AuctionBids, b.AuctionsWon, b.TradesProposed,
				b.TradesAccepted, b.TradesReceived, b.TradesAcceptedWhenReceived, b.HousesBuilt, b.HotelsBuilt, first,
				b.JailTurnsServed, b.JailFinesPaid, b.Mortgages, b.Bankruptcies, b.NetWorthMean)
		}
	}
	if behaviour {
		printBehaviourKey(w)
	}
}
