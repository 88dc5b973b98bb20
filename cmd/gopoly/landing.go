package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
)

func newLandingCmd() *cobra.Command {
	var (
		rolls          int64
		jail, plotPath string
		rulesPath      string
		seed           uint64
		workers        int
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "landing",
		Short: "Measure the long-run probability that a roll ends on each square",
		Long: `Plays the real engine with four players who never buy, bid or trade, and
counts where every roll ends: on a square, or in jail (the jail square
itself counts only rolls that end just visiting). A card move counts where
the card sends; a third doubles and a failed roll in jail count as in jail.

--jail leave uses a Get Out of Jail Free card if held, else pays the fine,
at the first chance; --jail stay always rolls for doubles. Under a rules
file with speed_die: true, Mr. Monopoly's move counts where it ends, and a
Bus or triples roll takes the dice's plain move (the Bus both white dice,
triples the three dice together).

The rolls are split into a fixed number of chunks, each its own game seeded
from --seed, so the figures do not depend on --workers.

Ctrl-C (or SIGTERM) stops once the chunks under way are done and reports
the rolls of the chunks finished so far (exit 130); a second one stops at
once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			policy, err := arena.ParseJailPolicy(jail)
			if err != nil {
				return usageErr(err)
			}
			if rolls < 1 {
				return usageErr(fmt.Errorf("landing: --rolls must be at least 1"))
			}
			if plotPath != "" {
				if _, err := boardPlotFormat(plotPath); err != nil {
					return usageErr(err)
				}
				if err := checkOutFile(cmd, "plot", plotPath); err != nil {
					return err
				}
			}
			rules, err := loadRules(cmd, rulesPath, nil)
			if err != nil {
				return err
			}
			if err := checkWorkers(cmd, workers); err != nil {
				return err
			}
			if plotPath != "" {
				if err := boardPlotFits(rules); err != nil {
					return usageErr(err)
				}
			}
			if workers <= 0 {
				workers = runtime.GOMAXPROCS(0)
			}
			var progress func(int64)
			var bar *progressbar.ProgressBar
			if stderr := cmd.ErrOrStderr(); isTerminal(stderr) {
				bar = progressbar.NewOptions64(rolls,
					progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("rolling"),
					progressbar.OptionShowCount(),
					progressbar.OptionSetPredictTime(true),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish(),
				)
				progress = func(n int64) { bar.Add64(n) }
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() {
				// A second signal kills at once: a chunk under way may be
				// long.
				<-ctx.Done()
				stop()
			}()
			t0 := time.Now()
			res, err := arena.Landing(ctx, arena.LandingConfig{Rules: rules, Rolls: rolls, Jail: policy, Seed: seed, Workers: workers, Progress: progress})
			elapsed := time.Since(t0)
			if bar != nil {
				bar.Finish()
			}
			interrupted := errors.Is(err, context.Canceled)
			switch {
			case err != nil && !interrupted:
				return err
			case interrupted && res.Rolls == 0:
				return &exitError{code: 130, err: errors.New("landing: interrupted before any chunk of rolls finished")}
			}
			if plotPath != "" {
				if err := plotLandingBoard(plotPath, rules, res); err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := writeLandingJSON(w, rules, res); err != nil {
					return err
				}
			} else {
				writeLandingText(w, rules, res, seed, workers, elapsed)
				if plotPath != "" {
					fmt.Fprintf(w, "\nheatmap written to %s\n", plotPath)
				}
			}
			if interrupted {
				return &exitError{code: 130, err: fmt.Errorf("interrupted: %s of %s rolls counted and reported", groupDigits(res.Rolls), groupDigits(rolls))}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Int64Var(&rolls, "rolls", 10_000_000, "rolls to count")
	f.StringVar(&jail, "jail", "leave", "jail policy: leave (card, else fine, at once) or stay (roll for doubles)")
	f.Uint64Var(&seed, "seed", 1, "run seed")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: all cores)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	f.StringVar(&plotPath, "plot", "", "also draw a heatmap of the board to this file (.png or .svg)")
	f.StringVar(&rulesPath, "rules", "", "rules file (YAML) overriding the defaults")
	return cmd
}

// landingJSON is the --json output; the field order is the documented one.
type landingJSON struct {
	Rolls   int64           `json:"rolls"`
	Jail    string          `json:"jail"`
	Squares []landingSquare `json:"squares"`
	InJail  float64         `json:"in_jail"`
}

type landingSquare struct {
	Index       int     `json:"index"`
	Name        string  `json:"name"`
	Probability float64 `json:"probability"`
}

func writeLandingJSON(w io.Writer, rules *monopoly.Rules, res arena.LandingResult) error {
	out := landingJSON{Rolls: res.Rolls, Jail: res.Jail.String(), InJail: res.InJailProbability()}
	for i, s := range rules.Squares {
		out.Squares = append(out.Squares, landingSquare{Index: i, Name: s.Name, Probability: res.Probability(i)})
	}
	return writeJSON(w, out)
}

// landingEntry is one line of the ranking: a square, or in jail (index -1).
type landingEntry struct {
	index int
	name  string
	p     float64
}

func landingEntries(rules *monopoly.Rules, res arena.LandingResult) []landingEntry {
	var es []landingEntry
	for i, s := range rules.Squares {
		name := s.Name
		if i == rules.JailSquare {
			name += " (just visiting)"
		}
		es = append(es, landingEntry{i, name, res.Probability(i)})
	}
	return append(es, landingEntry{-1, "In Jail", res.InJailProbability()})
}

func writeLandingText(w io.Writer, rules *monopoly.Rules, res arena.LandingResult, seed uint64, workers int, elapsed time.Duration) {
	es := landingEntries(rules, res)
	top := slices.Clone(es)
	// Ties are broken by board order so that the ranking is stable.
	slices.SortStableFunc(top, func(a, b landingEntry) int { return cmp.Compare(b.p, a.p) })
	maxP := top[0].p
	fmt.Fprintf(w, "Where a roll ends: %s rolls, jail policy %q, seed %d (%.1f s on %s)\n\n",
		groupDigits(res.Rolls), res.Jail, seed, elapsed.Seconds(), plural(workers, "worker"))
	fmt.Fprintf(w, "%3s  %-34s %7s\n", "#", "square", "share")
	for _, e := range es {
		idx := fmt.Sprint(e.index)
		if e.index < 0 {
			idx = ""
		}
		bar := ""
		if maxP > 0 {
			bar = strings.Repeat("█", int(30*e.p/maxP+0.5))
		}
		fmt.Fprintf(w, "%3s  %-34s %6.3f%%  %s\n", idx, e.name, 100*e.p, bar)
	}
	fmt.Fprintf(w, "\njail corner (in jail + just visiting): %.3f%%\n", 100*(res.InJailProbability()+res.Probability(rules.JailSquare)))
	fmt.Fprintf(w, "uniform share of %d squares: %.3f%%\n", len(rules.Squares), 100/float64(len(rules.Squares)))
	fmt.Fprintf(w, "\ntop 10\n")
	for i, e := range top[:min(10, len(top))] {
		idx := fmt.Sprintf("(%d)", e.index)
		if e.index < 0 {
			idx = ""
		}
		fmt.Fprintf(w, "%3d. %-34s %6.3f%%  %s\n", i+1, e.name, 100*e.p, idx)
	}
}

// groupDigits writes n with thousands separators, for counts a reader
// compares by eye.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
