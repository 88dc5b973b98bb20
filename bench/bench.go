// Package bench is the decision-quality benchmark: a fixed, versioned set
// of positions drawn from real games, each put to a seat (a bot, an LLM
// player, a program), whose answer is scored by its regret: the rollout
// value of the best answer there minus that of the answer given, both
// played out from the same position with the same random numbers
// (common random numbers), so that the difference is the answer's and not
// the dice's.
package bench

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the baseline of the games and rollouts
	"github.com/gopoly/gopoly/monopoly"
)

// Version is the version of the position set: it changes whenever the
// recipes, or the engine's play from them, change.
const Version = 1

// Position is the recipe of one position: the game of Seed between four
// baseline players under the default rules, at its Index-th decision of
// Kind. The engine is deterministic, so the recipe is the position.
type Position struct {
	Kind  string `json:"kind"`
	Seed  uint64 `json:"seed"`
	Index int    `json:"index"`
}

// Set is the stored position set.
type Set struct {
	Version   int        `json:"version"`
	Positions []Position `json:"positions"`
}

//go:embed positions.json
var positionsJSON []byte

// Positions returns the stored position set.
func Positions() (Set, error) {
	var s Set
	if err := json.Unmarshal(positionsJSON, &s); err != nil {
		return Set{}, fmt.Errorf("bench: positions.json: %v", err)
	}
	if s.Version != Version {
		return Set{}, fmt.Errorf("bench: positions.json is version %d, this gopoly reads %d", s.Version, Version)
	}
	return s, nil
}

// Kinds are the decision kinds of the set, in the order reports list them.
var Kinds = []string{"buy", "bid", "build", "mortgage", "jail", "trade_response", "mortgaged_transfer"}

// kindOf names the kind of decision d in g for the set ("" for none of
// them): a manage decision counts as build when a build is legal.
func kindOf(g *monopoly.Game, d monopoly.Decision) string {
	switch d.Kind {
	case monopoly.DecisionBuy:
		return "buy"
	case monopoly.DecisionBid:
		return "bid"
	case monopoly.DecisionRaiseCash:
		return "mortgage"
	case monopoly.DecisionJail:
		return "jail"
	case monopoly.DecisionTradeResponse:
		return "trade_response"
	case monopoly.DecisionMortgagedTransfer:
		return "mortgaged_transfer"
	case monopoly.DecisionManage:
		for _, a := range g.LegalActions(nil) {
			if a.Kind == monopoly.ActBuild {
				return "build"
			}
		}
	}
	return ""
}

// maxDecisions bounds the play of one game.
const maxDecisions = 20_000

// baselines are four baseline players for game seed.
func baselines(seed uint64) []agent.Agent {
	out := make([]agent.Agent, 4)
	for i := range out {
		a, err := agent.New("baseline", i, agent.SeatSeed(seed, i))
		if err != nil {
			panic(err) // baseline is always registered
		}
		out[i] = a
	}
	return out
}

// play plays g with agents until stop says so or the game ends; it
// reports whether stop did.
func play(g *monopoly.Game, agents []agent.Agent, stop func(*monopoly.Game, monopoly.Decision) bool) bool {
	for range maxDecisions {
		d := g.Pending()
		if g.Over() || d.Kind == monopoly.DecisionNone {
			return false
		}
		if stop != nil && stop(g, d) {
			return true
		}
		a := agents[d.Player].Decide(g.View(d.Player), d)
		if g.Apply(a) != nil {
			// A bot's illegal answer: the first legal one stands in.
			g.Apply(g.LegalActions(nil)[0])
		}
	}
	return false
}

// Generate draws perKind positions of every kind from the games of seeds
// 1, 2 ... (at most maxSeeds), at most two of a kind from one game, so
// that the set spreads over many games.
func Generate(perKind, maxSeeds int) Set {
	s := Set{Version: Version}
	count := map[string]int{}
	for seed := uint64(1); seed <= uint64(maxSeeds); seed++ {
		g := monopoly.New(monopoly.DefaultRules(), 4, seed)
		seen := map[string]int{}
		play(g, baselines(seed), func(g *monopoly.Game, d monopoly.Decision) bool {
			k := kindOf(g, d)
			if k == "" {
				return false
			}
			i := seen[k]
			seen[k]++
			// Every fifth decision of a kind, so as not to take the
			// first rounds' only.
			if i%5 == 2 && i/5 < 2 && count[k] < perKind {
				count[k]++
				s.Positions = append(s.Positions, Position{Kind: k, Seed: seed, Index: i})
			}
			return false
		})
	}
	slices.SortStableFunc(s.Positions, func(a, b Position) int {
		return slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind)
	})
	return s
}

// Load plays position p's game to the position: the game and its
// decision.
func Load(p Position) (*monopoly.Game, monopoly.Decision, error) {
	g := monopoly.New(monopoly.DefaultRules(), 4, p.Seed)
	seen := 0
	found := play(g, baselines(p.Seed), func(g *monopoly.Game, d monopoly.Decision) bool {
		if kindOf(g, d) != p.Kind {
			return false
		}
		seen++
		return seen == p.Index+1
	})
	if !found {
		return nil, monopoly.Decision{}, fmt.Errorf("bench: game %d has no %s decision %d", p.Seed, p.Kind, p.Index)
	}
	return g, g.Pending(), nil
}

// interval is a mean with its 95% half-width (normal approximation).
func interval(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
}
