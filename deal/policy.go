package deal

import (
	"math/rand/v2"
)

// Policy is a trained agent: the average policy of every key, played by
// argmax. It is read-only and safe for concurrent use.
type Policy struct {
	streaks  int
	avg      [][NumAbstract]float64
	seen     []bool
	resolver Resolver
}

// NewPolicy snapshots the average policies of the tables. An empty table
// gives the untrained agent: every key uniform, so it plays a random card
// and never passes while it holds a playable card.
func NewPolicy(t *Tables, res Resolver) *Policy {
	p := &Policy{
		streaks:  t.streaks,
		avg:      make([][NumAbstract]float64, t.Slots()),
		seen:     make([]bool, t.Slots()),
		resolver: res,
	}
	for s := range p.avg {
		p.avg[s] = *t.Average(s)
		p.seen[s] = t.HasPolicy(s)
	}
	return p
}

// Resolver is the resolver the policy was trained with.
func (p *Policy) Resolver() Resolver { return p.resolver }

// Seat returns the policy with its resolver, ready to play.
func (p *Policy) Seat() Seat { return Seat{Agent: p, Resolver: p.resolver} }

func (p *Policy) slot(is InfoSet) int {
	return (int(is.Player)*p.streaks+int(is.Streak))*masksPerKey + int(maskIndex[is.Mask])
}

// Probabilities returns the average policy at a key and whether the key
// was ever updated in training (if not, it is uniform).
func (p *Policy) Probabilities(is InfoSet) ([NumAbstract]float64, bool) {
	s := p.slot(is)
	return p.avg[s], p.seen[s]
}

// Choose plays the most probable action. Ties between some actions are
// broken at random; when every available action is equally likely (an
// unseen key) it plays a random card play, never Pass or Yield.
func (p *Policy) Choose(is InfoSet, rng *rand.PCG) Abstract {
	m := is.Mask
	s := p.slot(is)
	avg := &p.avg[s]
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
