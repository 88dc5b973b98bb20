package deal

import (
	"fmt"
	"strings"
)

// Abstraction is the information-set abstraction a learner keys its
// tables with.
type Abstraction uint8

// Abstractions.
const (
	// Intent is the paper's key: acting player, streak index and the set
	// of available abstract actions, nothing else (288 keys).
	Intent Abstraction = iota
	// Situation adds to the intent key a few bucketed facts the acting
	// player can see: both players' complete sets, its bank, what the
	// opponent could pay, and the rent it can charge or still owes. The
	// intent key alone cannot tell a rent worth charging from one that
	// is not, nor a debt its bank covers from one that costs a set.
	Situation
)

// Abstraction names as written in checkpoints and keys.
const (
	AbstractionName          = "IntentStateAbstraction"
	SituationAbstractionName = "IntentSituationAbstraction"
)

// String returns the abstraction's checkpoint name.
func (a Abstraction) String() string {
	if a == Situation {
		return SituationAbstractionName
	}
	return AbstractionName
}

// ParseAbstraction accepts "intent", "situation" or the checkpoint names.
func ParseAbstraction(s string) (Abstraction, error) {
	switch s {
	case "intent", AbstractionName, "":
		return Intent, nil
	case "situation", SituationAbstractionName:
		return Situation, nil
	}
	return 0, fmt.Errorf("deal: unknown abstraction %q (want intent or situation)", s)
}

// situation is one bucketed fact of the Situation key: its name in keys
// and the label of each bucket, in bucket order.
type situation struct {
	name   string
	labels []string
}

// The facts of a play decision and of a rent answer. Both start with
// the same four; a play adds the best rent the player could charge now,
// an answer the amount still owed and whether the bank covers it.
var (
	commonFacts = []situation{
		{"mine", []string{"0", "1", "2+"}},          // my complete sets
		{"theirs", []string{"0", "1", "2+"}},        // the opponent's complete sets
		{"bank", []string{"0", "1-2", "3-5", "6+"}}, // my bank's value
		{"exposed", []string{"0", "1-3", "4+"}},     // the opponent's bank and property value
	}
	playFacts = append(commonFacts[:len(commonFacts):len(commonFacts)],
		situation{"rent", []string{"0", "1-2", "3-4", "5+"}}) // the best rent in my hand
	answerFacts = append(commonFacts[:len(commonFacts):len(commonFacts)],
		situation{"due", []string{"1", "2", "3-4", "5+"}}, // rent still owed
		situation{"covered", []string{"no", "yes"}})       // my bank holds at least that
)

// factCount is the number of feature values of a key's phase.
func factCount(facts []situation) int {
	n := 1
	for _, f := range facts {
		n *= len(f.labels)
	}
	return n
}

// featureSpace is the number of feature values an abstraction keys on
// per intent key (1 for Intent).
func (a Abstraction) featureSpace() int {
	if a == Situation {
		return max(factCount(playFacts), factCount(answerFacts))
	}
	return 1
}

// factsOf returns the facts a key with mask m records.
func factsOf(m Mask) []situation {
	if m.Has(Pass) {
		return playFacts
	}
	return answerFacts
}

// bucket counts the thresholds v reaches: bucket(v, 1, 3) is 0 below 1,
// 1 below 3, else 2.
func bucket(v int, thresholds ...int) int {
	b := 0
	for _, t := range thresholds {
		if v >= t {
			b++
		}
	}
	return b
}

// situationOf encodes the Situation facts of player p's pending
// decision, mixed-radix in the order of its facts. It reads only what p
// can see: its own hand, bank and sets, the opponent's table and bank,
// and the rent exchange.
func (g *Game) situationOf(p int) uint16 {
	o := 1 - p
	v := [6]int{
		bucket(int(g.sets[p]), 1, 2),
		bucket(int(g.sets[o]), 1, 2),
		bucket(g.BankValue(p), 1, 3, 6),
		bucket(g.BankValue(o)+g.propertyValue(o), 1, 4),
	}
	facts := playFacts
	if g.phase == PhaseRespond {
		facts = answerFacts
		due := int(g.respOwed) - int(g.respPaid)
		v[4] = bucket(due, 2, 3, 5)
		v[5] = bucket(g.BankValue(p)-due, 0)
	} else {
		v[4] = bucket(g.bestRent(p), 1, 3, 5)
	}
	code := 0
	for i, f := range facts {
		code = code*len(f.labels) + v[i]
	}
	return uint16(code)
}

// propertyValue is the cash value of player p's property area.
func (g *Game) propertyValue(p int) int {
	v := 0
	for c := 0; c < int(g.r.nColours); c++ {
		v += int(g.props[p][c]) * int(g.r.value[g.r.propKind[c]])
	}
	return v
}

// bestRent is the highest rent player p could charge with a rent card in
// its hand (0 without one of a colour it owns).
func (g *Game) bestRent(p int) int {
	r := g.r
	best := 0
	rents := int(r.nCash) + int(r.nColours)
	for c := 0; c < int(r.nColours); c++ {
		if g.hand[p][rents+c] > 0 {
			best = max(best, int(r.rent[c][g.owned(p, c)]))
		}
	}
	return best
}

// Key returns the information-set key of the pending decision under
// abstraction a.
func (g *Game) Key(a Abstraction) InfoSet {
	is := g.InfoSet()
	if a == Situation && is.Mask != 0 {
		is.Abs = Situation
		is.Feature = g.situationOf(int(is.Player))
	}
	return is
}

// featureString writes a Situation feature value as "name=label,...".
func featureString(m Mask, code uint16) string {
	facts := factsOf(m)
	parts := make([]string, len(facts))
	c := int(code)
	for i := len(facts) - 1; i >= 0; i-- {
		n := len(facts[i].labels)
		parts[i] = facts[i].name + "=" + facts[i].labels[c%n]
		c /= n
	}
	return strings.Join(parts, ",")
}

// parseFeature reads what featureString wrote for a key with mask m.
func parseFeature(m Mask, s string) (uint16, error) {
	facts := factsOf(m)
	parts := strings.Split(s, ",")
	if len(parts) != len(facts) {
		return 0, fmt.Errorf("want %d facts, got %d", len(facts), len(parts))
	}
	code := 0
	for i, f := range facts {
		name, label, _ := strings.Cut(parts[i], "=")
		if name != f.name {
			return 0, fmt.Errorf("fact %d is %q, want %s", i+1, name, f.name)
		}
		b := -1
		for j, l := range f.labels {
			if l == label {
				b = j
			}
		}
		if b < 0 {
			return 0, fmt.Errorf("%s=%q, want one of %s", name, label, strings.Join(f.labels, " "))
		}
		code = code*len(f.labels) + b
	}
	return uint16(code), nil
}
