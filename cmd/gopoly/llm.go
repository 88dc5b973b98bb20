package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/llm" // the llm:NAME seats
	"github.com/gopoly/gopoly/session"
)

// llmFlags are the settings of the LLM seats a command may seat.
type llmFlags struct {
	config  string
	maxCost float64
}

func (f *llmFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.config, "llm-config", "", "LLM seats (llm:shark, llm:FILE ...): providers, models, prices and limits (YAML over the defaults in llm/defaults.yaml)")
	cmd.Flags().Float64Var(&f.maxCost, "max-cost", 0, "LLM seats: dollars one seat may spend in a game; past it, its rule-based personality plays (0: the config's, else no limit)")
}

// apply makes the flags' configuration the LLM seats': checked before
// anything is played, fallbacks logged to stderr.
func (f *llmFlags) apply(cmd *cobra.Command) error {
	cfg := llm.DefaultConfig()
	if f.config != "" {
		var err error
		if cfg, err = llm.LoadConfig(f.config); err != nil {
			return usageErr(err)
		}
	}
	if cmd.Flags().Changed("max-cost") {
		if f.maxCost < 0 {
			return usageErr(fmt.Errorf("%s: --max-cost %g: want 0 or more dollars", cmdName(cmd), f.maxCost))
		}
		cfg.MaxCost = f.maxCost
	}
	cfg.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	llm.Use(cfg)
	return nil
}

// ready refuses, before the game starts, a bot that cannot play here:
// an LLM seat without its API key names the variable to set.
func ready(cmd *cobra.Command, bots []string) error {
	for i, b := range bots {
		if b == "" || slices.Contains(bots[:i], b) {
			continue
		}
		if err := agent.Ready(b); err != nil {
			return usageErr(fmt.Errorf("%s: %w", cmdName(cmd), err))
		}
	}
	return nil
}

// llmUsage is one LLM seat's line of a game's summary.
type llmUsage struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Bot  string `json:"bot"`
	llm.Metrics
}

// measure sums up the LLM seats of a game from their answers (by seat;
// a seat without research records is not an LLM seat).
func measure(names, bots []string, answers [][]llm.Answered, winner int) []llmUsage {
	var out []llmUsage
	for s, as := range answers {
		if len(as) == 0 || !slices.ContainsFunc(as, func(a llm.Answered) bool { return len(a.Record) > 0 }) {
			continue
		}
		wins := 0.0
		if winner == s {
			wins = 1
		}
		out = append(out, llmUsage{Seat: s, Name: names[s], Bot: bots[s], Metrics: llm.Measure(as, wins)})
	}
	return out
}

// sessionAnswers reads a session's answers by seat from its export,
// which holds every thought and research record.
func sessionAnswers(s *session.Session) ([][]llm.Answered, error) {
	data, err := s.Export()
	if err != nil {
		return nil, err
	}
	var x struct {
		Log []struct {
			Seat   int `json:"seat"`
			Action struct {
				Kind string `json:"kind"`
			} `json:"action"`
			Speech   string          `json:"speech"`
			Thought  string          `json:"thought"`
			Research json.RawMessage `json:"research"`
		} `json:"log"`
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return nil, err
	}
	out := make([][]llm.Answered, len(s.Setup().Seats))
	for _, e := range x.Log {
		out[e.Seat] = append(out[e.Seat], llm.Answered{Action: e.Action.Kind, Speech: e.Speech, Thought: e.Thought, Record: e.Research})
	}
	return out, nil
}

// printUsage writes the LLM seats' lines under the standings.
func printUsage(w io.Writer, us []llmUsage) {
	if len(us) == 0 {
		return
	}
	fmt.Fprintln(w, "\nLLM seats:")
	for _, u := range us {
		fmt.Fprintf(w, "  %-4s %-14s %4d decisions, %4d calls, %6d+%d tokens (%d cached), $%.4f; invalid %.1f%%, fallback %.1f%%, latency p50 %.0f ms, p95 %.0f ms\n",
			u.Name, u.Bot, u.Decisions, u.Calls, u.Usage.Prompt, u.Usage.Completion, u.Usage.Cached, u.Cost,
			100*u.InvalidRate, 100*u.FallbackRate, u.LatencyP50, u.LatencyP95)
		for _, m := range slices.Sorted(maps.Keys(u.Consistency.Examples)) {
			for _, e := range u.Consistency.Examples[m] {
				fmt.Fprintf(w, "       %s: %s\n", m, e)
			}
		}
	}
}

// seatsLLM reports whether an experiment seats an LLM player.
func seatsLLM(e *arena.Experiment) bool {
	for _, v := range e.Variants {
		for _, s := range v.Seats {
			if strings.HasPrefix(s.Bot, "llm:") {
				return true
			}
		}
	}
	return false
}

// printConsistency writes, for experiment show, each LLM seat's
// consistency measures as counts over all its games (the disagreeing
// answers of those the measure applies to) with the examples kept, each
// quoted with the value that judged it.
func printConsistency(w io.Writer, s arena.ExperimentSummary, tallies map[string][]arena.SeatTally) {
	for _, v := range s.Variants {
		for _, t := range tallies[v.Name] {
			if _, ok := t.Totals["choices"]; !ok {
				continue // a measured seat that is no LLM seat
			}
			fmt.Fprintf(w, "\n%s, seat %d %s: words against values over %d games\n", v.Name, t.Seat, t.Bot, t.Games)
			for _, m := range llm.ConsistencyMeasures {
				fmt.Fprintf(w, "  %-17s %4.0f of %4.0f %-12s %s\n", m.Name, t.Totals[m.Name], t.Totals[m.Of], m.Of, m.Counts)
				for _, e := range t.Examples[m.Name] {
					fmt.Fprintf(w, "      %s\n", e)
				}
			}
		}
	}
}
