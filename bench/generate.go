package bench

import (
	"slices"

	"github.com/gopoly/gopoly/monopoly"
)

// minSpread is how far apart, in shares of net worth, the best and the
// worst candidate answers of a position must be for the set to take it:
// where every answer is worth the same, every seat scores 0 and the
// position only adds noise.
const minSpread = 0.02

// sourceRules are the rules of the source games by seed: odd seeds
// under the default rules, even seeds under sealed deals, where the
// sealed_limit positions come from.
func sourceRules(seed uint64) (string, *monopoly.Rules) {
	if seed%2 == 1 {
		return "default", monopoly.DefaultRules()
	}
	r, err := monopoly.DefaultRules().WithOverrides("sealed", []byte("deal_protocol: sealed"))
	if err != nil {
		panic(err) // a fixed, valid override
	}
	return "sealed", r
}

// common are the kinds a game has many decisions of, of which the set
// takes every third.
var common = map[string]bool{"buy": true, "bid": true, "build": true, "mortgage": true, "jail": true}

// Generate draws perKind positions of every kind from the games between
// baselines of seeds 1, 2 ... (at most maxSeeds): every third decision
// of a common kind, every one of the others, at most two of a kind from
// one game, so that the set
// spreads over many games and over their course, and only positions
// where the candidate answers' values, by o's rollouts, spread by
// minSpread or more. o's seed should not be the one the set is scored
// with, so that the choice of positions does not pick the scoring's
// noise.
func Generate(perKind, maxSeeds int, o Options) (Set, error) {
	s := Set{Version: Version}
	count := map[string]int{}
	var err error
	for seed := uint64(1); seed <= uint64(maxSeeds) && err == nil; seed++ {
		name, rules := sourceRules(seed)
		g := monopoly.New(rules, 4, seed)
		seen, taken, n := map[string]int{}, map[string]int{}, 0
		play(g, baselines(seed), func(g *monopoly.Game, d monopoly.Decision, a monopoly.Action) bool {
			n++
			k := kindOf(g, d, a)
			if k == "" {
				return false
			}
			seen[k]++
			if (common[k] && seen[k]%3 != 1) || taken[k] >= 2 || count[k] >= perKind {
				return false
			}
			var proposals []monopoly.Action
			if k == "trade_proposal" {
				proposals = []monopoly.Action{a}
			}
			if spread(g, d, proposals, o, len(s.Positions)) < minSpread {
				return false
			}
			taken[k]++
			count[k]++
			err = s.store(g, name, k, seed, n-1, proposals)
			return err != nil
		})
	}
	slices.SortStableFunc(s.Positions, func(a, b Position) int {
		return slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind)
	})
	return s, err
}

// spread is the best candidate's value less the worst's (0 for a
// position with fewer than two).
func spread(g *monopoly.Game, d monopoly.Decision, proposals []monopoly.Action, o Options, pos int) float64 {
	best, worst := bounds(g, d, proposals, o, pos)
	return max(0, best-worst)
}
