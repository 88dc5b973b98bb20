package arena

import (
	"context"
	"fmt"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/stats"
)

// OddsOptions say how WinOdds samples a position.
type OddsOptions struct {
	Samples int    // playouts; 0: DefaultOddsSamples
	Seed    uint64 // playout i is forked and played with seeds derived from Seed and i
	Bot     string // the bot every seat plays in the playouts; "": baseline
	// Horizon is how many rounds a playout may run before it is decided
	// as a timed game (net worth, 7.10); 0: DefaultOddsHorizon.
	Horizon int
	Workers int // 0: all cores; the estimate does not depend on it
	// Registry finds Bot (nil: agent.Lookup).
	Registry Registry
}

// Defaults of OddsOptions.
const (
	DefaultOddsSamples = 1000
	DefaultOddsHorizon = 150
	maxOddsSamples     = 1_000_000
	oddsChunks         = 32 // jobs the samples are split into, whatever the workers
)

// Odds is an estimate of each player's chance to win from a position.
type Odds struct {
	Samples int          `json:"samples"` // playouts played
	Win     []float64    `json:"win"`     // by seat: the share of playouts it won
	CI95    [][2]float64 `json:"ci95"`    // by seat: Wilson 95% interval
	Ties    float64      `json:"ties"`    // the share of playouts with no winner
	Horizon int          `json:"horizon"` // rounds a playout ran at most before net worth decided it
	Bot     string       `json:"bot"`     // who played the playouts
}

// WinOdds estimates each player's chance to win from the position of g as
// viewer sees it (-1: a spectator), by Monte Carlo playouts: each sample
// forks the public position (the order of the decks and the dice drawn
// afresh, sealed limits hidden) and plays it out with one bot in every
// seat. A game that is over has its winner's odds at 1. The estimate
// depends on the options and the position only.
func WinOdds(ctx context.Context, g *monopoly.Game, viewer int, o OddsOptions) (Odds, error) {
	if o.Samples == 0 {
		o.Samples = DefaultOddsSamples
	}
	if o.Horizon == 0 {
		o.Horizon = DefaultOddsHorizon
	}
	if o.Bot == "" {
		o.Bot = "baseline"
	}
	n := g.Players()
	switch {
	case o.Samples < 1 || o.Samples > maxOddsSamples:
		return Odds{}, fmt.Errorf("arena: samples must be between 1 and %d, got %d", maxOddsSamples, o.Samples)
	case o.Horizon < 1:
		return Odds{}, fmt.Errorf("arena: horizon must be at least 1 round, got %d", o.Horizon)
	case viewer < -1 || viewer >= n:
		return Odds{}, fmt.Errorf("arena: no seat %d to view from", viewer)
	}
	b, err := o.Registry.Lookup(o.Bot)
	if err != nil {
		return Odds{}, fmt.Errorf("arena: playout bot: %w", err)
	}
	if b.Outside {
		// Thousands of playouts of a program or a language model are
		// neither quick nor free, and nothing would close them.
		return Odds{}, fmt.Errorf("arena: playout bot %q plays from outside this process: playouts take a bot of this process", o.Bot)
	}
	odds := Odds{Win: make([]float64, n), CI95: make([][2]float64, n), Horizon: o.Horizon, Bot: o.Bot}
	if g.Over() {
		odds.Samples = 1
		if w := g.Winner(); w >= 0 {
			odds.Win[w] = 1
		} else {
			odds.Ties = 1
		}
		for p := range n {
			odds.CI95[p] = [2]float64{odds.Win[p], odds.Win[p]}
		}
		return odds, nil
	}
	wins := make([]int, n+1) // by seat, and ties last
	v := g.View(viewer)
	err = Run(ctx, oddsChunks, o.Workers, func(chunk int, _ *Table) ([]int, error) {
		return playouts(v, b, o, chunk)
	}, func(_ int, w []int) error {
		for i, k := range w {
			wins[i] += k
		}
		return nil
	})
	if err != nil {
		return Odds{}, err
	}
	odds.Samples = o.Samples
	for p := range n {
		odds.Win[p] = float64(wins[p]) / float64(o.Samples)
		lo, hi := stats.Wilson(float64(wins[p]), o.Samples)
		odds.CI95[p] = [2]float64{lo, hi}
	}
	odds.Ties = float64(wins[n]) / float64(o.Samples)
	return odds, nil
}

// playouts plays the samples of one chunk and counts their winners, by
// seat and ties last.
func playouts(v monopoly.View, b agent.Bot, o OddsOptions, chunk int) ([]int, error) {
	n := v.Players()
	wins := make([]int, n+1)
	bots := make([]agent.Agent, n)
	for p := range bots {
		bots[p] = b.New(agent.ParamSpec{}, p, 0)
	}
	f := new(monopoly.Game)
	for i := chunk; i < o.Samples; i += oddsChunks {
		seed := monopoly.DeriveSeed(o.Seed, i)
		v.ForkInto(f, seed)
		for p, a := range bots {
			if r, ok := a.(agent.Resetter); ok {
				r.Reset(p, monopoly.DeriveSeed(seed, p))
			}
		}
		last := f.Round() + o.Horizon
		// A decision budget as well: bots that stop rolling (they never do,
		// but a playout must end) are adjourned like a timed game.
		for budget := 200_000; !f.Over(); budget-- {
			if f.Round() > last || budget == 0 {
				f.Adjourn()
				break
			}
			d := f.Pending()
			if err := f.Apply(bots[d.Player].Decide(f.View(d.Player), d)); err != nil {
				return nil, fmt.Errorf("arena: playout %d: %s: %w", i, o.Bot, err)
			}
		}
		if w := f.Winner(); w >= 0 {
			wins[w]++
		} else {
			wins[n]++
		}
	}
	return wins, nil
}
