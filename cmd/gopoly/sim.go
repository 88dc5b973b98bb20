package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

func newSimCmd() *cobra.Command {
	var (
		games, players, maxRounds, workers int
		bots, rulesPath, paramsPath        string
		seed                               uint64
		asJSON                             bool
	)
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Simulate many bot-only games on all cores",
		Long: `Plays many bot-only games in parallel and reports speed, game length and
wins per seat with 95% confidence intervals. Game i uses a seed derived
from --seed and i, so the results do not depend on --workers.

Ctrl-C (or SIGTERM) stops and reports the games finished so far (exit
130). A game a
bot cannot finish (an action the rules refuse: a bug) stops the run too;
the games finished before it are reported, then the error (exit 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rules, params, err := loadGames(cmd, rulesPath, &maxRounds, paramsPath)
			if err != nil {
				return err
			}
			if err := checkWorkers(cmd, workers); err != nil {
				return err
			}
			names, err := splitBots(bots)
			if err != nil {
				return usageErr(fmt.Errorf("sim: %w", err))
			}
			c := arena.Config{Rules: rules, Players: players, Bots: names, Params: params, Seed: seed, Games: games, Workers: workers}
			if err := c.Validate(); err != nil {
				return usageErr(err)
			}
			if len(names) > players {
				return usageErr(fmt.Errorf("sim: %d bots for %d players: name at most one bot per player (a shorter list is repeated)", len(names), players))
			}
			seated := make([]string, players)
			for i := range seated {
				seated[i] = c.SeatBot(i)
			}
			warnUnread(cmd.ErrOrStderr(), params, seated)
			if c.Workers <= 0 {
				c.Workers = runtime.GOMAXPROCS(0)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			bar := newProgress(cmd.ErrOrStderr(), games, "simulating")
			// The games are summed as they finish, not kept: --games may be
			// far more than memory could hold.
			var tally arena.SimTally
			cpu0, t0 := cpuTime(), time.Now()
			err = arena.SimulateEach(ctx, c, func(_ int, r arena.GameResult) {
				tally.Add(r)
				if bar != nil {
					bar.Add(1)
				}
			})
			wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
			if bar != nil {
				bar.Finish()
			}
			if err != nil && tally.Games() == 0 {
				return gamesStopped(cmd, err, 0, games)
			}
			s := tally.Summary(c)
			s.Seconds, s.CPUSeconds, s.Workers = wall, cpu, c.Workers
			if wall > 0 {
				s.GamesPerS = float64(s.Games) / wall
			}
			if cpu > 0 {
				s.GamesPerCS = float64(s.Games) / cpu
			}
			if asJSON {
				if werr := writeJSON(cmd.OutOrStdout(), s); werr != nil {
					return werr
				}
			} else {
				printSummary(cmd, s, rules.MaxRounds)
			}
			return gamesStopped(cmd, err, s.Games, games)
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 10000, "number of games")
	f.IntVar(&players, "players", 4, "players per game (2-8)")
	f.StringVar(&bots, "bots", "baseline", "comma-separated bots per seat, repeated if fewer than the players")
	f.Uint64Var(&seed, "seed", 1, "run seed")
	f.IntVar(&maxRounds, "max-rounds", 500, "round limit; the richest player wins a capped game (0: none)")
	f.StringVar(&rulesPath, "rules", "", "rules file (YAML) overriding the defaults")
	f.StringVar(&paramsPath, "params", "", "bot parameters file (YAML): overrides for all seats and per seat, values or {mean, std}")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: all cores)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// nameWidth is the width of a column of bot names: at least 12, and w
// or more, wide enough for names.
func nameWidth(w int, names ...string) int {
	w = max(w, 12)
	for _, n := range names {
		w = max(w, utf8.RuneCountInString(n))
	}
	return w
}

func printSummary(cmd *cobra.Command, s arena.Summary, maxRounds int) {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "games        %d (%s, %d tied)\n", s.Games, endings(s.Finished, s.Capped, s.Stalled, maxRounds), s.Ties)
	fmt.Fprintf(w, "time         %.2f s wall, %.2f s CPU on %s\n", s.Seconds, s.CPUSeconds, plural(s.Workers, "worker"))
	fmt.Fprintf(w, "speed        %.0f games/s, %.0f games per CPU-second\n", s.GamesPerS, s.GamesPerCS)
	perGame := func(n int64) float64 { return float64(n) / max(1, float64(s.Games)) }
	fmt.Fprintf(w, "rolls        %d (%.0f per game)\n", s.Rolls, perGame(s.Rolls))
	fmt.Fprintf(w, "decisions    %d (%.0f per game)\n", s.Decisions, perGame(s.Decisions))
	fmt.Fprintf(w, "rounds       mean %.1f, median %.1f\n", s.RoundsMean, s.RoundsMed)
	nw := 0
	for _, sw := range s.WinRates {
		nw = nameWidth(nw, sw.Bot)
	}
	var faults faultCols
	for _, sw := range s.WinRates {
		faults = faults || anyFaults(sw.Faults)
	}
	const ciWidth = len("[100.0%, 100.0%]")
	fmt.Fprintf(w, "\n%-6s %-*s %8s %8s   %s%s\n", "seat", nw, "bot", "wins", "rate", faults.last("95% CI", ciWidth), faults.head())
	for _, sw := range s.WinRates {
		ci := fmt.Sprintf("[%.1f%%, %.1f%%]", 100*sw.CI95[0], 100*sw.CI95[1])
		fmt.Fprintf(w, "%-6d %-*s %8d %7.1f%%   %s%s\n", sw.Seat, nw, sw.Bot, sw.Wins, 100*sw.Rate, faults.last(ci, ciWidth), faults.cells(sw.Faults))
	}
	for _, sw := range s.WinRates {
		warnFaults(w, fmt.Sprintf("seat %d %s", sw.Seat, sw.Bot), sw.Faults, float64(sw.Wins))
	}
	if len(s.ByBot) > 1 {
		names := make([]string, 0, len(s.ByBot))
		for n := range s.ByBot {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(w, "\n%-*s %6s %8s %12s   %s\n", nw, "bot", "seats", "wins", "per seat", "95% CI")
		for _, n := range names {
			b := s.ByBot[n]
			fmt.Fprintf(w, "%-*s %6d %8d %11.1f%%   [%.1f%%, %.1f%%]\n", nw, n, b.Seats, b.Wins, 100*b.Rate, 100*b.CI95[0], 100*b.CI95[1])
		}
	}
}
