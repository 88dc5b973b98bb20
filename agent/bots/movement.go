package bots

import "github.com/gopoly/gopoly/monopoly"

// BestMove answers a movement decision (the speed die's Bus, or triples)
// by moving to the square worth most to the player: an unowned property it
// can buy keeping reserve (worth what value says, the price when value is
// nil), else a square that costs nothing, rent, tax and jail being costs.
// Passing GO adds the salary. The moves are the engine's legal ones.
func BestMove(v monopoly.View, d monopoly.Decision, reserve int, value func(sq int) float64) monopoly.Action {
	best, bestScore := monopoly.Action{}, 0.0
	var buf [monopoly.MaxSquares]monopoly.Action // on the stack: the Bus comes every sixth roll
	for _, a := range v.LegalActions(buf[:0]) {
		s := MoveScore(v, d, a.Arg, reserve, value)
		if best.Kind == monopoly.ActNone || s > bestScore {
			best, bestScore = a, s
		}
	}
	return best
}

// MoveScore is what moving from d.Square to sq is worth to the player
// deciding d, as BestMove counts it.
func MoveScore(v monopoly.View, d monopoly.Decision, sq, reserve int, value func(sq int) float64) float64 {
	me, r := d.Player, v.Rules()
	s := &r.Squares[sq]
	score := 0.0
	if sq < d.Square || sq == 0 {
		score += float64(r.GoSalary) // passes or lands on GO
	}
	switch o := v.Owner(sq); {
	case s.Ownable() && o < 0:
		if v.Cash(me)-s.Price >= reserve {
			w := float64(s.Price)
			if value != nil {
				w = value(sq)
			}
			if Strategic(v, me, sq) {
				w *= 2
			}
			score += w
		}
	case s.Ownable() && o != me && !v.Mortgaged(sq):
		score -= float64(v.Rent(sq, v.RentDice()))
	case s.Kind == monopoly.KindAction:
		for _, op := range s.Program {
			switch op.Code {
			case monopoly.OpGoToJail:
				score -= float64(r.JailFine) * 2 // the fine, and turns lost to jail
			case monopoly.OpTax:
				score -= float64(op.A)
			}
		}
	}
	return score
}
