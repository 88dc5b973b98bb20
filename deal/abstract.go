package deal

import (
	"fmt"
	"math/bits"
	"strings"
)

// Abstract is an intent-level action of the paper's abstraction.
type Abstract uint8

// The abstract actions, in the paper's index order.
const (
	StartNewPropertySet Abstract = iota
	AddToPropertySet
	CompletePropertySet
	Cash
	AttemptCollectRent
	JustSayNo
	GiveOpponentCash
	GiveOpponentProperty
	Pass
	Yield
	Other
	NumAbstract = 11
)

var abstractNames = [NumAbstract]string{
	"StartNewPropertySet", "AddToPropertySet", "CompletePropertySet", "Cash",
	"AttemptCollectRent", "JustSayNo", "GiveOpponentCash", "GiveOpponentProperty",
	"Pass", "Yield", "Other",
}

// String returns the paper's name of the action.
func (a Abstract) String() string { return nameIn(abstractNames[:], uint8(a), "Abstract") }

// abstractLabels name the actions for a person, in figures and in the
// terminal game; String keeps the paper's names, which checkpoints and
// metrics files use.
var abstractLabels = [NumAbstract]string{
	"start a new set", "add to a set", "complete a set", "bank a card",
	"charge rent", "Just Say No", "pay from the bank", "pay with a property",
	"pass", "yield (nothing to pay with)", "rent card, no effect",
}

// Label returns a short description of the action for a person.
func (a Abstract) Label() string { return nameIn(abstractLabels[:], uint8(a), "Abstract") }

// IsReply reports whether a answers a rent demand rather than being a
// play of one's own streak.
func (a Abstract) IsReply() bool {
	switch a {
	case JustSayNo, GiveOpponentCash, GiveOpponentProperty, Yield:
		return true
	}
	return false
}

// ParseAbstract reads an abstract action by its name.
func ParseAbstract(s string) (Abstract, error) {
	for i, n := range abstractNames {
		if n == s {
			return Abstract(i), nil
		}
	}
	return 0, fmt.Errorf("deal: unknown abstract action %q", s)
}

// IsCardPlay reports whether a is a card play (everything but Pass and
// Yield); the clamps and the trained agent's tie-break depend on it.
func (a Abstract) IsCardPlay() bool { return a != Pass && a != Yield }

// Mask is a set of abstract actions, bit i for Abstract(i).
type Mask uint16

// Has reports whether a is in the set.
func (m Mask) Has(a Abstract) bool { return m&(1<<a) != 0 }

// Count returns the number of actions in the set.
func (m Mask) Count() int { return bits.OnesCount16(uint16(m)) }

// Nth returns the i-th action of the set in index order.
func (m Mask) Nth(i int) Abstract {
	for ; i > 0; i-- {
		m &= m - 1
	}
	return Abstract(bits.TrailingZeros16(uint16(m)))
}

// Actions lists the set in index order.
func (m Mask) Actions() []Abstract {
	out := make([]Abstract, 0, m.Count())
	for a := Abstract(0); a < NumAbstract; a++ {
		if m.Has(a) {
			out = append(out, a)
		}
	}
	return out
}

// String lists the set's actions by name, comma-separated.
func (m Mask) String() string {
	parts := make([]string, 0, m.Count())
	for _, a := range m.Actions() {
		parts = append(parts, a.String())
	}
	return strings.Join(parts, ",")
}

// InfoSet is an information-set key. Under the paper's intent
// abstraction it is the acting player, the streak index and the set of
// available abstract actions, and nothing else about the game enters it;
// the Situation abstraction adds Feature, its bucketed facts.
type InfoSet struct {
	Player  uint8
	Streak  uint8
	Mask    Mask
	Abs     Abstraction
	Feature uint16 // the Situation facts (0 under Intent)
}

// String renders the key as "player@IntentStateAbstraction@streak:actions",
// or for the Situation abstraction
// "player@IntentSituationAbstraction@streak:actions@fact=bucket,...".
func (is InfoSet) String() string {
	s := fmt.Sprintf("%d@%s@%d:%s", is.Player, is.Abs, is.Streak, is.Mask)
	if is.Abs == Situation {
		s += "@" + featureString(is.Mask, is.Feature)
	}
	return s
}

// ParseInfoSet reads a key written by InfoSet.String.
func ParseInfoSet(s string) (InfoSet, error) {
	parts := strings.Split(s, "@")
	var is InfoSet
	switch {
	case len(parts) == 3 && parts[1] == AbstractionName:
	case len(parts) == 4 && parts[1] == SituationAbstractionName:
		is.Abs = Situation
	default:
		return InfoSet{}, fmt.Errorf("deal: bad information-set key %q (want player@%s@streak:actions or player@%s@streak:actions@facts)", s, AbstractionName, SituationAbstractionName)
	}
	switch parts[0] {
	case "0", "1":
		is.Player = parts[0][0] - '0'
	default:
		return InfoSet{}, fmt.Errorf("deal: bad information-set key %q: player must be 0 or 1", s)
	}
	streak, acts, ok := strings.Cut(parts[2], ":")
	if !ok || len(streak) != 1 || streak[0] < '0' || streak[0] >= '0'+maxPlays {
		return InfoSet{}, fmt.Errorf("deal: bad information-set key %q: bad streak index", s)
	}
	is.Streak = streak[0] - '0'
	for _, name := range strings.Split(acts, ",") {
		a, err := ParseAbstract(name)
		if err != nil {
			return InfoSet{}, fmt.Errorf("deal: bad information-set key %q: %w", s, err)
		}
		is.Mask |= 1 << a
	}
	if maskIndex[is.Mask] < 0 {
		return InfoSet{}, fmt.Errorf("deal: bad information-set key %q: impossible action set", s)
	}
	if is.Abs == Situation {
		f, err := parseFeature(is.Mask, parts[3])
		if err != nil {
			return InfoSet{}, fmt.Errorf("deal: bad information-set key %q: %v", s, err)
		}
		is.Feature = f
	}
	return is, nil
}

// The abstraction admits 64 play-phase sets (Pass with any subset of the
// six card intents) and 8 response sets (Just Say No or not, with some
// payment kind or Yield): 72 per player and streak index.
const masksPerKey = 72

// maskIndex numbers the possible action sets 0..71 (-1: impossible).
var maskIndex [1 << NumAbstract]int8

// maskOfIndex is the inverse of maskIndex.
var maskOfIndex [masksPerKey]Mask

func init() {
	for i := range maskIndex {
		maskIndex[i] = -1
	}
	n := 0
	add := func(m Mask) {
		maskIndex[m] = int8(n)
		maskOfIndex[n] = m
		n++
	}
	play := []Abstract{StartNewPropertySet, AddToPropertySet, CompletePropertySet, Cash, AttemptCollectRent, Other}
	for sub := 0; sub < 1<<len(play); sub++ {
		m := Mask(1 << Pass)
		for i, a := range play {
			if sub&(1<<i) != 0 {
				m |= 1 << a
			}
		}
		add(m)
	}
	for _, jsn := range []Mask{0, 1 << JustSayNo} {
		for _, pay := range []Mask{1 << GiveOpponentCash, 1 << GiveOpponentProperty, 1<<GiveOpponentCash | 1<<GiveOpponentProperty, 1 << Yield} {
			add(jsn | pay)
		}
	}
}

// classify maps playing a property of colour c by player p to its intent.
func (g *Game) classify(p int, c uint8) Abstract {
	return g.r.intent[c][min(g.props[p][c], g.r.setSize[c])]
}

// intentOf maps playing a property of a colour with set size s, of which
// the player owns n, to its intent.
func intentOf(n, s int) Abstract {
	switch {
	case n >= s:
		// Reference quirk kept on purpose: a property of an already
		// complete colour counts as Cash yet still goes to the
		// property area.
		return Cash
	case n+1 >= s:
		return CompletePropertySet
	case n > 0:
		return AddToPropertySet
	}
	return StartNewPropertySet
}

// AbstractOf maps a legal concrete action to its abstract action.
func (g *Game) AbstractOf(a Action) Abstract {
	r := g.r
	switch a.Op {
	case OpPlay:
		p := int(g.current)
		switch r.class[a.Card] {
		case ClassCash:
			return Cash
		case ClassProperty:
			return g.classify(p, r.colour[a.Card])
		case ClassRent:
			if g.props[p][r.colour[a.Card]] > 0 {
				return AttemptCollectRent
			}
		}
		return Other
	case OpPass:
		return Pass
	case OpPayBank:
		return GiveOpponentCash
	case OpPayProperty:
		return GiveOpponentProperty
	case OpJustSayNo:
		return JustSayNo
	case OpYield:
		return Yield
	}
	return Other
}

// InfoSet returns the information-set key of the decision pending.
func (g *Game) InfoSet() InfoSet {
	r := g.r
	is := InfoSet{Streak: g.plays}
	switch g.phase {
	case PhasePlay:
		p := int(g.current)
		is.Player = g.current
		m := Mask(1 << Pass)
		h := &g.hand[p]
		nc, ncol := int(r.nCash), int(r.nColours)
		for k := 0; k < nc; k++ {
			if h[k] != 0 {
				m |= 1 << Cash
				break
			}
		}
		own := &g.props[p]
		for c := 0; c < ncol; c++ {
			// Branch-free: the hot loop of every simulated decision.
			hp := (uint(h[nc+c]) + 255) >> 8
			hr := (uint(h[nc+ncol+c]) + 255) >> 8
			n := own[c]
			ow := (uint(n) + 255) >> 8
			m |= Mask(hp) << r.intent[c][min(n, r.setSize[c])]
			m |= Mask(hr*ow)<<AttemptCollectRent | Mask(hr&^ow)<<Other
		}
		is.Mask = m
	case PhaseRespond:
		q := 1 - g.current
		is.Player = q
		var m Mask
		if g.bankN[q] > 0 {
			m |= 1 << GiveOpponentCash
		}
		if g.propN[q] > 0 {
			m |= 1 << GiveOpponentProperty
		}
		if m == 0 {
			m = 1 << Yield
		}
		if r.hasJSN && g.hand[q][r.jsn] > 0 {
			m |= 1 << JustSayNo
		}
		is.Mask = m
	}
	return is
}

// Resolver turns an abstract action into one concrete action.
type Resolver uint8

// Resolvers.
const (
	// Greedy is the paper's resolver: the highest rent, the highest
	// cash value (also for payments from the bank), otherwise a choice
	// fixed by the game seed.
	Greedy Resolver = iota
	// Smart pays rent without needless overpayment and gives away
	// properties that break no set first; otherwise it is Greedy.
	Smart
)

// Resolver names as written in checkpoints.
const (
	GreedyName = "GreedyActionResolver"
	SmartName  = "SmartActionResolver"
)

// String returns the resolver's checkpoint name.
func (r Resolver) String() string {
	if r == Smart {
		return SmartName
	}
	return GreedyName
}

// ParseResolver accepts "greedy", "smart" or the checkpoint names.
func ParseResolver(s string) (Resolver, error) {
	switch s {
	case "greedy", GreedyName, "":
		return Greedy, nil
	case "smart", SmartName:
		return Smart, nil
	}
	return 0, fmt.Errorf("deal: unknown resolver %q (want greedy or smart)", s)
}

// Resolve returns the concrete action chosen for abstract action ab, and
// false when ab is not available.
func (g *Game) Resolve(ab Abstract, res Resolver) (Action, bool) {
	r := g.r
	var cand [maxCand]Card
	n := 0
	switch g.phase {
	case PhasePlay:
		p := int(g.current)
		h := &g.hand[p]
		own := &g.props[p]
		nc, ncol := int(r.nCash), int(r.nColours)
		switch ab {
		case Pass:
			return Action{Op: OpPass}, true
		case StartNewPropertySet, AddToPropertySet, CompletePropertySet:
			for c := 0; c < ncol; c++ {
				if h[nc+c] != 0 && r.intent[c][min(own[c], r.setSize[c])] == ab {
					cand[n] = Card(nc + c)
					n++
				}
			}
		case Cash:
			best, bestV := -1, -1
			for k := 0; k < nc; k++ {
				if h[k] != 0 && int(r.value[k]) > bestV {
					best, bestV = k, int(r.value[k])
				}
			}
			for c := 0; c < ncol; c++ {
				k := nc + c
				if h[k] != 0 && own[c] >= r.setSize[c] && int(r.value[k]) > bestV {
					best, bestV = k, int(r.value[k])
				}
			}
			if best >= 0 {
				return Action{Op: OpPlay, Card: Card(best)}, true
			}
			return Action{}, false
		case AttemptCollectRent:
			best, bestV := -1, -1
			for c := 0; c < ncol; c++ {
				if h[nc+ncol+c] != 0 && own[c] > 0 {
					if v := int(r.rent[c][min(own[c], r.setSize[c])]); v > bestV {
						best, bestV = nc+ncol+c, v
					}
				}
			}
			if best >= 0 {
				return Action{Op: OpPlay, Card: Card(best)}, true
			}
			return Action{}, false
		case Other:
			for c := 0; c < ncol; c++ {
				if h[nc+ncol+c] != 0 && own[c] == 0 {
					cand[n] = Card(nc + ncol + c)
					n++
				}
			}
		default:
			return Action{}, false
		}
		if n == 0 {
			return Action{}, false
		}
		return Action{Op: OpPlay, Card: cand[g.pick[n]]}, true
	case PhaseRespond:
		q := 1 - int(g.current)
		switch ab {
		case JustSayNo:
			if r.hasJSN && g.hand[q][r.jsn] > 0 {
				return Action{Op: OpJustSayNo}, true
			}
		case Yield:
			if !g.payable(q) {
				return Action{Op: OpYield}, true
			}
		case GiveOpponentCash:
			if g.bankN[q] == 0 {
				break
			}
			if res == Smart {
				return Action{Op: OpPayBank, Card: g.smartPayment(&g.bank[q], Card(0), r.nKinds)}, true
			}
			best, bestV := 0, -1
			for k := 0; k < int(r.nKinds); k++ {
				if g.bank[q][k] > 0 && int(r.value[k]) > bestV {
					best, bestV = k, int(r.value[k])
				}
			}
			return Action{Op: OpPayBank, Card: Card(best)}, true
		case GiveOpponentProperty:
			if g.propN[q] == 0 {
				break
			}
			if res == Smart {
				return Action{Op: OpPayProperty, Card: g.smartProperty(q)}, true
			}
			for c := 0; c < int(r.nColours); c++ {
				if g.props[q][c] > 0 {
					cand[n] = r.propKind[c]
					n++
				}
			}
			return Action{Op: OpPayProperty, Card: cand[g.pick[n]]}, true
		}
	}
	return Action{}, false
}

// smartPayment picks among the kinds [from, to) with a positive count in
// counts the cheapest card that settles what is still owed, or, if none
// does, the most valuable one.
func (g *Game) smartPayment(counts *[MaxKinds]uint8, from Card, to uint8) Card {
	need := int(g.respOwed) - int(g.respPaid)
	cover, coverV := -1, 1<<30
	big, bigV := -1, -1
	for k := int(from); k < int(to); k++ {
		if counts[k] == 0 {
			continue
		}
		v := int(g.r.value[k])
		if v >= need && v < coverV {
			cover, coverV = k, v
		}
		if v > bigV {
			big, bigV = k, v
		}
	}
	if cover >= 0 {
		return Card(cover)
	}
	return Card(big)
}

// smartProperty gives a property whose loss breaks no complete set if it
// can (a surplus card, else an incomplete colour), using the payment rule
// within that tier.
func (g *Game) smartProperty(q int) Card {
	r := g.r
	var tiers [3][MaxKinds]uint8
	for c := 0; c < int(r.nColours); c++ {
		n, s := g.props[q][c], r.setSize[c]
		if n == 0 {
			continue
		}
		t := 2
		switch {
		case n > s:
			t = 0
		case n < s:
			t = 1
		}
		tiers[t][r.propKind[c]] = 1
	}
	for t := range tiers {
		for k := 0; k < int(r.nKinds); k++ {
			if tiers[t][k] > 0 {
				return g.smartPayment(&tiers[t], 0, r.nKinds)
			}
		}
	}
	return r.propKind[0]
}

// trailing returns the lowest action in a non-empty set.
func trailing(m Mask) int { return bits.TrailingZeros16(uint16(m)) }
