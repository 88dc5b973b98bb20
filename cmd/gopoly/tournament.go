package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/internal/dirlock"
)

func newTournamentCmd() *cobra.Command {
	var (
		games, players, maxRounds, workers, resamples int
		bots, rulesPath, paramsPath, outDir           string
		seed                                          uint64
		asJSON                                        bool
		lf                                            llmFlags
	)
	cmd := &cobra.Command{
		Use:   "tournament --bots a,b,c,d[,...] [--games N]",
		Short: "Play bots against each other in rotating seats and rate them",
		Long: `Plays bot-only games with the seats rotating over every ordering, scores
the bots by wins (a timed game tied in net worth is shared), and rates them
on the Elo scale by a multinomial-logit fit of who wins, with 95% bootstrap
intervals. A name given k times holds k seats; with more names than seats
each game seats a balanced subset. Game i's seating and seed depend only on
--seed and i, so the results do not depend on --workers.

With --out DIR (new or empty; another process writing it is refused):
games.jsonl (one line per game), summary.json, and plots of the wins per
seat and the ratings (winrate.png/.svg, rating.png/.svg). Ctrl-C stops and
reports the games finished so far (exit 130). A program's seat (exec:, tcp:,
monopyly:) whose fallback bot answered for it, or played on once it was
retired, has the counts in every output and a warning under the table:
those wins are not the program's own. A game a bot cannot finish
(an action the rules refuse: a bug) stops the run too; the games finished
before it are written and reported, then the error (exit 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lf.apply(cmd); err != nil {
				return err
			}
			rules, params, err := loadGames(cmd, rulesPath, &maxRounds, paramsPath)
			if err != nil {
				return err
			}
			names, err := splitBots(bots)
			if err != nil {
				return usageErr(fmt.Errorf("tournament: %w", err))
			}
			if err := ready(cmd, names); err != nil {
				return err
			}
			if len(names) == 0 {
				return usageErr(errors.New("tournament: --bots names the bots, at least two, comma-separated"))
			}
			if err := checkWorkers(cmd, workers); err != nil {
				return err
			}
			if players == 0 {
				players = max(2, min(4, len(names)))
			}
			if resamples < 100 || resamples > 100_000 {
				return usageErr(fmt.Errorf("tournament: --bootstrap %d: give 100 to 100000 resamples", resamples))
			}
			t, err := arena.NewTournament(arena.TournamentConfig{Rules: rules, Bots: names, Players: players,
				Games: games, Seed: seed, Workers: workers, Params: params})
			if err != nil {
				return usageErr(err)
			}
			warnUnread(cmd.ErrOrStderr(), params, t.Entrants())
			if t.Workers <= 0 {
				t.Workers = runtime.GOMAXPROCS(0)
			}
			var (
				jsonl *bufio.Writer
				jf    *os.File
			)
			if outDir != "" {
				if err := checkOutDir(cmd, outDir); err != nil {
					return err
				}
				lock, err := openTournamentDir(outDir)
				if err != nil {
					return err
				}
				defer lock.Release()
				if jf, err = os.Create(filepath.Join(outDir, "games.jsonl")); err != nil {
					return fmt.Errorf("tournament: %w", err)
				}
				defer jf.Close() // on the error paths; closed below otherwise
				jsonl = bufio.NewWriterSize(jf, 1<<16)
			}

			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			bar := newProgress(cmd.ErrOrStderr(), games, "tournament")
			tally := t.NewTally()
			cpu0, t0 := cpuTime(), time.Now()
			playErr := t.Play(ctx, func(g arena.TournamentGame) error {
				if jsonl != nil {
					line, err := json.Marshal(g)
					if err != nil {
						return err
					}
					jsonl.Write(append(line, '\n'))
				}
				if bar != nil {
					bar.Add(1)
				}
				return tally.Add(g)
			})
			wall, cpu := time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
			if bar != nil {
				bar.Finish()
			}
			// Whatever stopped the run, the games finished before it are
			// written and reported.
			if jsonl != nil {
				if err := jsonl.Flush(); err != nil {
					return fmt.Errorf("tournament: %w", err)
				}
				if err := jf.Close(); err != nil {
					return fmt.Errorf("tournament: %w", err)
				}
			}
			if tally.Games() == 0 {
				return gamesStopped(cmd, playErr, 0, games)
			}
			s := tally.Summary(resamples)
			if outDir != "" {
				if err := writeTournamentFiles(outDir, s); err != nil {
					return err
				}
			}
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), s.Standings()); err != nil {
					return err
				}
			} else {
				printTournament(cmd.OutOrStdout(), t, s, tally, wall, cpu)
			}
			return gamesStopped(cmd, playErr, s.Games, games)
		},
	}
	f := cmd.Flags()
	lf.register(cmd)
	f.StringVar(&bots, "bots", "", "comma-separated bots, one per seat they hold (a name given k times holds k seats)")
	f.IntVar(&games, "games", 1000, "number of games")
	f.IntVar(&players, "players", 0, "seats per game, 2-8 (0: 4, or the number of bots when fewer)")
	f.Uint64Var(&seed, "seed", 1, "run seed: seatings, games and the bootstrap")
	f.IntVar(&maxRounds, "max-rounds", 500, "round limit; the richest player wins a capped game, a tie is shared (0: none)")
	f.StringVar(&rulesPath, "rules", "", "rules file (YAML) overriding the defaults")
	f.StringVar(&paramsPath, "params", "", "bot parameters file (YAML): overrides for all seats (all:) and for single bots (seats: N: the Nth of --bots, from 0, wherever it sits), values or {mean, std}")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: all cores)")
	f.IntVar(&resamples, "bootstrap", 1000, "bootstrap resamples for the rating intervals")
	f.StringVar(&outDir, "out", "", "directory for games.jsonl, summary.json and the plots")
	f.BoolVar(&asJSON, "json", false, "print the standings as one JSON object")
	return cmd
}

// openTournamentDir makes dir, which must be new or empty, and locks it
// for the tournament: what another command left there (an experiment's
// summary.json, an earlier tournament's games) is never written over.
func openTournamentDir(dir string) (*dirlock.Lock, error) {
	empty := func() error {
		names, err := dirlock.Entries(dir)
		if err != nil {
			return usageErr(fmt.Errorf("tournament: --out: %w", err))
		}
		if len(names) > 0 {
			shown := strings.Join(names[:min(3, len(names))], ", ")
			if len(names) > 3 {
				shown += ", ..."
			}
			return usageErr(fmt.Errorf("tournament: --out %s is not empty (%s): give a new or empty directory", dir, shown))
		}
		return nil
	}
	// Checked before the lock is taken, so that a refused directory is
	// left as it was, and again after, when no other process can fill it.
	if err := empty(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, usageErr(fmt.Errorf("tournament: --out: %w", err))
	}
	lock, err := dirlock.Exclusive(dir)
	if err != nil {
		return nil, usageErr(fmt.Errorf("tournament: --out: %w", err))
	}
	if err := empty(); err != nil {
		lock.Release()
		return nil, err
	}
	return lock, nil
}

// writeTournamentFiles writes summary.json and the plots to dir.
func writeTournamentFiles(dir string, s arena.TournamentSummary) error {
	f, err := os.Create(filepath.Join(dir, "summary.json"))
	if err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	if err := writeJSON(f, s); err != nil {
		f.Close()
		return fmt.Errorf("tournament: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	// Wins per seat played, not win share, so that a bot holding three
	// seats is compared with one holding a single seat: every bar's
	// parity is 1/players.
	parity := 1 / float64(s.Players)
	win := chart.BarChart{
		Title:  fmt.Sprintf("Wins per seat played, %d games of %d players (dashed: parity %.1f%%)", s.Games, s.Players, 100*parity),
		YLabel: "wins per seat played (95% CI)", YMin: chart.Ptr(0), Ref: &parity,
	}
	rating := chart.BarChart{
		Title:  fmt.Sprintf("Rating, %d games (Elo scale, mean %d; 95%% bootstrap CI)", s.Games, arena.EloMean),
		YLabel: fmt.Sprintf("rating − %d", arena.EloMean), Ref: chart.Ptr(0),
	}
	hi := 0.0
	for _, b := range s.Bots {
		label := b.Name
		if k := float64(b.SeatsPlayed) / float64(max(1, b.GamesPlayed)); k != 1 {
			label = fmt.Sprintf("%s (%.3g seats)", b.Name, k)
		}
		win.Bars = append(win.Bars, chart.Bar{Label: label, Value: b.PerSeat, Lo: b.PerSeatCI95[0], Hi: b.PerSeatCI95[1]})
		hi = max(hi, b.PerSeatCI95[1])
		rating.Bars = append(rating.Bars, chart.Bar{Label: b.Name, Value: b.Rating - arena.EloMean,
			Lo: b.RatingCI95[0] - arena.EloMean, Hi: b.RatingCI95[1] - arena.EloMean})
	}
	win.YMax = chart.Ptr(min(1, max(hi, parity)*1.15))
	for _, ext := range []string{".png", ".svg"} {
		if err := win.Save(filepath.Join(dir, "winrate"+ext)); err != nil {
			return err
		}
		if err := rating.Save(filepath.Join(dir, "rating"+ext)); err != nil {
			return err
		}
	}
	return nil
}

// printTournament prints the standings, best rating first.
func printTournament(w io.Writer, t *arena.Tournament, s arena.TournamentSummary, tally *arena.Tally, wall, cpu float64) {
	fmt.Fprintf(w, "tournament   %s in %d seats, seed %d\n", strings.Join(t.Bots, ", "), s.Players, s.Seed)
	order := "table orders drawn at random per cycle"
	if s.OrderCycle > 0 {
		order = fmt.Sprintf("every table order equally often per %d games", s.OrderCycle)
	}
	fmt.Fprintf(w, "seating      %d entrants, each in every seat once per %d games; %s\n", len(s.Entrants), s.SeatCycle, order)
	if line := paramsLine(s); line != "" {
		fmt.Fprintf(w, "params       %s\n", line)
	}
	fmt.Fprintf(w, "games        %d (%s, %d tied and shared)\n", s.Games, endings(s.Finished, s.Capped, s.Stalled, s.MaxRounds), s.Ties)
	fmt.Fprintf(w, "time         %.2f s wall, %.2f s CPU on %s: %.0f games/s, %.0f games per CPU-second\n",
		wall, cpu, plural(t.Workers, "worker"), float64(s.Games)/max(wall, 1e-9), float64(s.Games)/max(cpu, 1e-9))
	fmt.Fprintf(w, "rounds       mean %.1f, median %.1f; %.0f decisions per game\n", s.RoundsMean, s.RoundsMedian, float64(tally.Decisions())/float64(s.Games))
	fmt.Fprintf(w, "by seat     ")
	for _, r := range s.Seats {
		fmt.Fprintf(w, " %d: %.1f%% [%.1f, %.1f]", r.Seat, 100*r.Rate, 100*r.CI95[0], 100*r.CI95[1])
	}
	fmt.Fprintln(w)

	bots := slices.Clone(s.Bots)
	slices.SortStableFunc(bots, func(a, b arena.BotResult) int {
		switch {
		case a.Rating > b.Rating:
			return -1
		case a.Rating < b.Rating:
			return 1
		}
		return 0
	})
	width := len("bot")
	var faults faultCols
	for _, b := range bots {
		width = max(width, len(b.Name))
		faults = faults || anyFaults(b.Faults)
	}
	const ratingWidth = len("1500 [1400, 1600] ")
	fmt.Fprintf(w, "\n%4s  %-*s %7s %9s  %-24s %8s %9s  %s%s\n", "rank", width, "bot", "seats", "wins", "win share (95% CI)", "parity", "per seat",
		faults.last("rating (95% CI)", ratingWidth), faults.head())
	for i, b := range bots {
		fmt.Fprintf(w, "%4d  %-*s %7d %9.1f  %5.1f%% [%5.1f%%, %5.1f%%]  %7.1f%% %8.1f%%  %s%s\n",
			i+1, width, b.Name, b.SeatsPlayed, b.Wins, 100*b.WinShare, 100*b.CI95[0], 100*b.CI95[1],
			100*b.Parity, 100*b.PerSeat, faults.last(fmt.Sprintf("%4.0f [%.0f, %.0f]", b.Rating, b.RatingCI95[0], b.RatingCI95[1]), ratingWidth), faults.cells(b.Faults))
	}
	for _, b := range bots {
		printMeasures(w, b.Name, b.Measures)
	}
	printGroups(w, bots, width)
	for _, b := range bots {
		warnFaults(w, b.Name, b.Faults, b.Wins)
	}
	fmt.Fprintf(w, "\nwin share: of all games, draws shared; parity: the share if all bots were equal; per seat: wins per seat played (parity %.1f%%);\nrating: Elo scale, mean %d, from a multinomial-logit fit of the winners, %d bootstrap resamples.\n",
		100/float64(s.Players), arena.EloMean, s.Resamples)
}

// printGroups prints where each bot's colour groups came from, and how
// it did in the games another player's dice gave a group first.
func printGroups(w io.Writer, bots []arena.BotResult, width int) {
	fmt.Fprintf(w, "\n%-*s  %s\n", width, "groups", "completed: bought on landing, at auction, by trade, from a bankrupt; behind: seat-games in which another completed one by landing or at auction first")
	for _, b := range bots {
		fmt.Fprintf(w, "%-*s  %d bought, %d auction, %d trade, %d bankruptcy; behind in %d, won %.1f",
			width, b.Name, b.Groups[arena.ByLanding], b.Groups[arena.ByAuction], b.Groups[arena.ByTrade], b.Groups[arena.ByBankruptcy], b.Behind, b.BehindWins)
		if b.SeatsPlayed > b.Behind {
			fmt.Fprintf(w, "; won %.1f of the other %d", b.Wins-b.BehindWins, b.SeatsPlayed-b.Behind)
		}
		fmt.Fprintln(w)
	}
}

// printMeasures prints a player's own measures (an LLM seat's), as
// tournaments and experiments sum them up: per game, means.
func printMeasures(w io.Writer, name string, m map[string]float64) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "%s: $%.4f a game", name, m["cost"])
	if c, ok := m["cost_per_win"]; ok {
		fmt.Fprintf(w, " ($%.4f a win)", c)
	}
	fmt.Fprintf(w, ", %.0f calls, fallbacks %.1f%%, invalid answers %.1f%%, latency p50 %.0f ms p95 %.0f ms (gate wait p50 %.0f ms apart), tokens %.0f in %.0f out",
		m["calls"], 100*m["fallback_rate"], 100*m["invalid_rate"], m["latency_p50_ms"], m["latency_p95_ms"], m["queued_p50_ms"], m["tokens_prompt"], m["tokens_completion"])
	fmt.Fprintf(w, "; words against values: bids over their stated limit %.2f of %.2f, over 1.5x worth %.2f and bluffs %.2f of %.2f bids, misleading pitches %.2f of %.2f claiming fairness (%.2f proposals), speech vs action %.2f and thought vs action %.2f of %.2f choices\n",
		m["bid_over_limit"], m["limits_stated"], m["bid_over_worth"], m["bid_bluff"], m["bids"], m["pitch_misleading"], m["pitch_claims"], m["proposals"],
		m["speech_vs_action"], m["thought_vs_action"], m["choices"])
}

// paramsLine lists a tournament's overrides, for all seats and then by
// bot, each as JSON ("" when there are none).
func paramsLine(s arena.TournamentSummary) string {
	var parts []string
	add := func(who string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			b = []byte(fmt.Sprint(v))
		}
		parts = append(parts, who+": "+string(b))
	}
	if s.Params != nil {
		add("all", s.Params)
	}
	for _, name := range slices.Sorted(maps.Keys(s.BotParams)) {
		add(name, s.BotParams[name])
	}
	return strings.Join(parts, "; ")
}
