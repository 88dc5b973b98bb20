package deal

import (
	"math/rand/v2"
)

// Policy is a trained agent: the average policy of every key, played by
// argmax. It is read-only and safe for concurrent use.
type Policy struct {
	keys     keyspace
	slotOf   []int32 // key number → row of avg, -1 for a key never updated
	avg      [][NumAbstract]float64
	intent   [][NumAbstract]float64 // by intent key: the fallback of unmet Situation keys
	intentOK []bool
	resolver Resolver
}

// NewPolicy snapshots the average policies of the tables. An empty table
// gives the untrained agent: every key uniform, so it plays a random card
// and never passes while it holds a playable card.
//
// Under the Situation abstraction a key never updated in training plays
// the visit-weighted mean of the average policies of the keys that share
// its intent key (the same player, streak index and actions): what the
// agent does in similar positions, rather than a random card.
func NewPolicy(t *Tables, res Resolver) *Policy {
	p := &Policy{keys: t.keyspace, slotOf: make([]int32, len(t.slotOf)), resolver: res}
	for k := range p.slotOf {
		p.slotOf[k] = -1
	}
	for _, s := range t.slotOf {
		if s >= 0 && t.HasPolicy(int(s)) {
			p.slotOf[t.keyOf[s]] = int32(len(p.avg))
			p.avg = append(p.avg, *t.Average(int(s)))
		}
	}
	if t.abs != Intent {
		n := len(t.slotOf) / t.space
		p.intent = make([][NumAbstract]float64, n)
		p.intentOK = make([]bool, n)
		weight := make([]float64, n)
		for _, s := range t.Visited() {
			if !t.HasPolicy(s) {
				continue
			}
			i := int(t.keyOf[s]) / t.space
			w := float64(t.visits[s])
			for a, x := range t.Average(s) {
				p.intent[i][a] += w * x
			}
			weight[i] += w
		}
		for i, w := range weight {
			if w > 0 {
				for a := range p.intent[i] {
					p.intent[i][a] /= w
				}
				p.intentOK[i] = true
			}
		}
	}
	return p
}

// Resolver is the resolver the policy was trained with.
func (p *Policy) Resolver() Resolver { return p.resolver }

// Abstraction is the abstraction the policy was trained with.
func (p *Policy) Abstraction() Abstraction { return p.keys.abs }

// Seat returns the policy with its resolver and abstraction, ready to
// play.
func (p *Policy) Seat() Seat { return Seat{Agent: p, Resolver: p.resolver, Abstraction: p.keys.abs} }

// Probabilities returns the average policy at a key and whether training
// gave it one (if not, it is uniform). An unmet Situation key answers
// with its intent key's mean, if that was met.
func (p *Policy) Probabilities(is InfoSet) ([NumAbstract]float64, bool) {
	k := p.keys.keyNumber(is)
	if r := p.slotOf[k]; r >= 0 {
		return p.avg[r], true
	}
	if i := k / p.keys.space; p.intentOK != nil && p.intentOK[i] {
		return p.intent[i], true
	}
	return uniformOf[maskIndex[is.Mask]], false
}

// Choose plays the most probable action. Ties between some actions are
// broken at random; when every available action is equally likely (an
// unseen key) it plays a random card play, never Pass or Yield.
func (p *Policy) Choose(is InfoSet, rng *rand.PCG) Abstract {
	m := is.Mask
	avg, _ := p.Probabilities(is)
	best := -1.0
	var top Mask
	for x := m; x != 0; x &= x - 1 {
		a := Abstract(trailing(x))
		switch d := avg[a] - best; {
		case d > 1e-12:
			best, top = avg[a], 1<<a
		case d >= -1e-12:
			top |= 1 << a
		}
	}
	if top == m {
		if cards := m &^ (1<<Pass | 1<<Yield); cards != 0 {
			top = cards
		}
	}
	if top.Count() == 1 {
		return top.Nth(0)
	}
	return top.Nth(intn(rng, top.Count()))
}
