package deal

import (
	"fmt"
	"strings"
)

// Op is the kind of a concrete action.
type Op uint8

// Concrete action kinds.
const (
	OpNone        Op = iota
	OpPlay           // play Card from hand (not Just Say No)
	OpPass           // end the streak now
	OpPayBank        // pay with Card from the bank (cash, or a property received as payment)
	OpPayProperty    // pay with a property of Card's colour from the property area
	OpJustSayNo      // cancel the rent with a Just Say No from hand
	OpYield          // settle the rent for what was paid (only with nothing payable)
)

// Action is one concrete move. Card is meaningful for OpPlay, OpPayBank
// and OpPayProperty.
type Action struct {
	Op   Op
	Card Card
}

// ActionString renders an action with the game's card names, in the form
// ParseAction reads.
func (g *Game) ActionString(a Action) string { return g.r.ActionString(a) }

// ActionString renders an action with these rules' card names.
func (r *Rules) ActionString(a Action) string {
	switch a.Op {
	case OpPlay:
		return "play " + r.CardName(a.Card)
	case OpPass:
		return "pass"
	case OpPayBank:
		return "pay bank " + r.CardName(a.Card)
	case OpPayProperty:
		return "pay property " + r.CardName(a.Card)
	case OpJustSayNo:
		return "just say no"
	case OpYield:
		return "yield"
	}
	return fmt.Sprintf("op(%d,%d)", a.Op, a.Card)
}

// ParseAction reads an action written by ActionString.
func (r *Rules) ParseAction(s string) (Action, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "pass":
		return Action{Op: OpPass}, nil
	case "just say no":
		return Action{Op: OpJustSayNo}, nil
	case "yield":
		return Action{Op: OpYield}, nil
	}
	for _, pre := range []struct {
		text string
		op   Op
	}{{"play ", OpPlay}, {"pay bank ", OpPayBank}, {"pay property ", OpPayProperty}} {
		if rest, ok := strings.CutPrefix(s, pre.text); ok {
			c, err := r.ParseCard(rest)
			if err != nil {
				return Action{}, fmt.Errorf("deal: action %q: %w", s, err)
			}
			if pre.op == OpPayProperty && r.class[c] != ClassProperty {
				return Action{}, fmt.Errorf("deal: action %q: not a property card", s)
			}
			return Action{Op: pre.op, Card: c}, nil
		}
	}
	return Action{}, fmt.Errorf("deal: unknown action %q", s)
}
