package deal

import (
	"fmt"
	"strings"
)

// Words for people: the terminal game and the browser describe cards,
// moves and the agent's odds with these.

// Probabilities returns an agent's distribution at a key and
// a note on how it plays from it, for a person.
func Probabilities(a Agent, is InfoSet) ([NumAbstract]float64, string) {
	switch x := a.(type) {
	case *Policy:
		p, seen := x.Probabilities(is)
		if !seen {
			return p, "a position it never met in training: it plays a card at random"
		}
		return p, ""
	case *RiskAware:
		return x.Probabilities(is.Mask), "it draws its move with these odds"
	}
	var p [NumAbstract]float64
	for _, ab := range is.Mask.Actions() {
		p[ab] = 1 / float64(is.Mask.Count())
	}
	return p, "it picks at random"
}

// Money writes an amount as the cards print it: $3M.
func Money(v int) string { return fmt.Sprintf("$%dM", v) }

// CardName names a card kind for a person.
func CardName(r *Rules, c Card) string {
	switch r.Class(c) {
	case ClassCash:
		return Money(r.Value(c))
	case ClassProperty:
		return r.ColourName(r.ColourOf(c)) + " property"
	case ClassRent:
		return "rent (" + r.ColourName(r.ColourOf(c)) + ")"
	}
	return "Just Say No"
}

// Describe says in words what action a does for the player to act in
// g, before it is played.
func Describe(g *Game, a Action) string {
	r := g.Rules()
	p := g.ToAct()
	switch a.Op {
	case OpPlay:
		c := a.Card
		switch r.Class(c) {
		case ClassCash:
			return "Bank " + Money(r.Value(c))
		case ClassProperty:
			col := r.ColourOf(c)
			own, set := g.Properties(p, col), r.SetSize(col)
			name := r.ColourName(col)
			switch {
			case own >= set:
				return fmt.Sprintf("Play a %s property (the set is already complete)", name)
			case own == 0 && set > 1:
				return fmt.Sprintf("Play a %s property (starts a set, 1/%d)", name, set)
			case own+1 == set:
				return fmt.Sprintf("Play a %s property (completes the set, %d/%d)", name, set, set)
			}
			return fmt.Sprintf("Play a %s property (%d/%d)", name, own+1, set)
		case ClassRent:
			col := r.ColourOf(c)
			if g.Properties(p, col) == 0 {
				return fmt.Sprintf("Rent (%s): no effect without a %[1]s property", r.ColourName(col))
			}
			return fmt.Sprintf("Rent (%s): charge %s", r.ColourName(col), Money(g.RentOwed(p, col)))
		}
	case OpPass:
		return "Pass (end the streak)"
	case OpPayBank:
		if r.Class(a.Card) == ClassCash {
			return "Pay " + Money(r.Value(a.Card)) + " from the bank"
		}
		return fmt.Sprintf("Pay the %s from the bank (%s)", CardName(r, a.Card), Money(r.Value(a.Card)))
	case OpPayProperty:
		return fmt.Sprintf("Pay with a %s (%s)", CardName(r, a.Card), Money(r.Value(a.Card)))
	case OpJustSayNo:
		return "Just Say No (cancel the rent)"
	case OpYield:
		return "Yield (nothing left to pay with)"
	}
	return r.ActionString(a)
}

// Percent writes a probability as a whole percentage, "<1%" for a
// small one that is not zero.
func Percent(p float64) string {
	if p > 0 && p < 0.005 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", 100*p)
}

// Cards renders counts of card kinds ("$3M ×2, green property").
func Cards(r *Rules, count func(Card) int) string {
	var parts []string
	for k := 0; k < r.Kinds(); k++ {
		if n := count(Card(k)); n == 1 {
			parts = append(parts, CardName(r, Card(k)))
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", CardName(r, Card(k)), n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}
