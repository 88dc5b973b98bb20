// Package bots holds gopoly's rule-based players. Each registers itself
// with package agent by name; all of them see only views.
package bots

import (
	"math/bits"
	"math/rand/v2"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

func init() {
	agent.Register(agent.Bot{Name: "random", Doc: "uniform over the legal actions", Reads: []string{},
		Make: func(_ agent.Params, seat int, seed uint64) agent.Agent { return NewRandom(seed) }})
	agent.Register(agent.Bot{Name: "baseline", Doc: "sound rule-based play: the control of every experiment",
		Defaults: BaselineParams(), Reads: BaselineKnobs(),
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent { return NewBaseline(p) }})
}

// randomPhaseBudget is how many actions a random player takes in one
// management phase before it goes on: uniform choice alone could mortgage
// and lift the same property for ever.
const randomPhaseBudget = 8

// Random answers uniformly among the legal actions the engine enumerates
// (a bid is always the lowest raise). It proposes no trades.
type Random struct {
	rng     rand.PCG
	buf     []monopoly.Action
	turn    int
	phase   monopoly.Phase
	actions int
}

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random {
	r := &Random{buf: make([]monopoly.Action, 0, 64)}
	r.Reset(0, seed)
	return r
}

// Reset implements agent.Resetter.
func (r *Random) Reset(seat int, seed uint64) {
	*r = Random{buf: r.buf[:0]}
	r.rng.Seed(seed, seed^0xda3e39cb94b95bdb)
}

// Decide implements agent.Agent.
func (r *Random) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if d.Kind == monopoly.DecisionManage {
		if v.Turn() != r.turn || v.Phase() != r.phase {
			r.turn, r.phase, r.actions = v.Turn(), v.Phase(), 0
		}
		r.actions++
		if r.actions > randomPhaseBudget {
			return monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}
		}
	}
	r.buf = v.LegalActions(r.buf[:0])
	if len(r.buf) == 0 {
		// Only a scripted-dice wait has no legal action; never in play.
		return monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}
	}
	return r.buf[uintn(&r.rng, len(r.buf))]
}

// uintn returns a uniform integer in [0, n) (Lemire's method) without the
// allocation of a rand.Rand.
func uintn(rng *rand.PCG, n int) int {
	un := uint64(n)
	thresh := -un % un
	for {
		hi, lo := bits.Mul64(rng.Uint64(), un)
		if lo >= thresh {
			return int(hi)
		}
	}
}
