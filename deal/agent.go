package deal

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// Agent chooses an abstract action at an information set. Agents see only
// the key of their seat's abstraction (acting player, streak index,
// available actions, and under Situation a few bucketed facts), the same
// information the learner has; a Resolver then picks the card.
type Agent interface {
	Choose(is InfoSet, rng *rand.PCG) Abstract
}

// Seat is an agent with the resolver it plays through and the
// abstraction its keys are made with (the zero value: Intent).
type Seat struct {
	Agent       Agent
	Resolver    Resolver
	Abstraction Abstraction
}

// Decide asks the seat's agent for its move in g, the seat being the
// player to act: the key it saw, its abstract choice and the card the
// resolver picked for it. An agent choosing an action that is not
// available is an error.
func (s *Seat) Decide(g *Game, rng *rand.PCG) (InfoSet, Abstract, Action, error) {
	is := g.Key(s.Abstraction)
	ab := s.Agent.Choose(is, rng)
	a, ok := g.Resolve(ab, s.Resolver)
	if !ok {
		return is, ab, a, fmt.Errorf("deal: the agent chose %s, which it cannot play", ab)
	}
	return is, ab, a, nil
}

// intn returns a uniform number in [0, n).
func intn(rng *rand.PCG, n int) int {
	hi, _ := bits.Mul64(rng.Uint64(), uint64(n))
	return int(hi)
}

// float01 returns a uniform number in [0, 1).
func float01(rng *rand.PCG) float64 { return float64(rng.Uint64()>>11) * 0x1p-53 }

// sample draws an action of mask with probabilities proportional to w.
// Weights outside the mask are ignored; if the weights in the mask sum to
// zero, it draws uniformly.
func sample(w *[NumAbstract]float64, m Mask, rng *rand.PCG) Abstract {
	total := 0.0
	for x := m; x != 0; x &= x - 1 {
		total += w[bits.TrailingZeros16(uint16(x))]
	}
	if !(total > 0) {
		return m.Nth(intn(rng, m.Count()))
	}
	u := float01(rng) * total
	last := Abstract(0)
	for x := m; x != 0; x &= x - 1 {
		a := Abstract(bits.TrailingZeros16(uint16(x)))
		u -= w[a]
		if w[a] > 0 {
			last = a
		}
		if u < 0 {
			return a
		}
	}
	return last // rounding left u at 0: take the last positive weight
}

// Random is the uniform baseline: every available abstract action (hence
// every resolved action) is equally likely.
type Random struct{}

// Choose implements Agent.
func (Random) Choose(is InfoSet, rng *rand.PCG) Abstract {
	m := is.Mask
	return m.Nth(intn(rng, m.Count()))
}

// RiskAware is the paper's heuristic baseline: property plays weigh
// exp(a*T), banking cash exp((1-a)*T), rent, Just Say No and payments
// 0.5*T, and Pass, Yield and Other nothing unless they are the only
// action; 1e-6 is added to every weight before sampling.
type RiskAware struct {
	w [NumAbstract]float64
}

// NewRiskAware builds the baseline for aggressiveness a and temperature t.
func NewRiskAware(a, t float64) *RiskAware {
	var ra RiskAware
	prop := math.Exp(a * t)
	for _, x := range []Abstract{StartNewPropertySet, AddToPropertySet, CompletePropertySet} {
		ra.w[x] = prop
	}
	ra.w[Cash] = math.Exp((1 - a) * t)
	for _, x := range []Abstract{AttemptCollectRent, JustSayNo, GiveOpponentCash, GiveOpponentProperty} {
		ra.w[x] = 0.5 * t
	}
	for i := range ra.w {
		ra.w[i] += 1e-6
	}
	return &ra
}

// DefaultRiskAware is the paper's setting: a = 0.5, T = 2.
func DefaultRiskAware() *RiskAware { return NewRiskAware(0.5, 2) }

// Choose implements Agent.
func (ra *RiskAware) Choose(is InfoSet, rng *rand.PCG) Abstract {
	m := is.Mask
	if m.Count() == 1 {
		return m.Nth(0)
	}
	return sample(&ra.w, m, rng)
}

// Probabilities returns the baseline's distribution over mask.
func (ra *RiskAware) Probabilities(m Mask) [NumAbstract]float64 {
	var p [NumAbstract]float64
	if m.Count() == 1 {
		p[m.Nth(0)] = 1
		return p
	}
	total := 0.0
	for _, a := range m.Actions() {
		total += ra.w[a]
	}
	for _, a := range m.Actions() {
		p[a] = ra.w[a] / total
	}
	return p
}

// PlayOut plays g to the end with the given seats, drawing the agents'
// random choices from rng, and returns the result. It does not allocate.
func PlayOut(g *Game, seats *[2]Seat, rng *rand.PCG) Result {
	for g.phase != PhaseOver {
		_, _, a, err := seats[g.ToAct()].Decide(g, rng)
		if err != nil {
			panic(err)
		}
		g.apply(a)
	}
	return g.Result()
}

// newRNG returns a generator seeded from one number.
func newRNG(seed uint64) *rand.PCG { return rand.NewPCG(seed, streamGame) }
