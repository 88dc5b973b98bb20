package monopoly_test

import (
	"fmt"

	"github.com/gopoly/gopoly/monopoly"
)

// checkSpeedDie checks the speed die in an action that took pre to g
// emitting evs: it is thrown exactly with the turn rolls of players who
// have passed GO under the variant, never in jail; a number adds to the
// white dice; triples end the roll; and a movement decision offers the
// moves of its roll and nothing else.
func checkSpeedDie(pre, g *monopoly.Game, a monopoly.Action, evs []monopoly.Event) error {
	r := g.Rules()
	n := len(r.Squares)
	for i, e := range evs {
		switch e.Kind {
		case monopoly.EvRoll:
			p := int(e.Player)
			// A turn roll is the first roll of a continue, or of leaving
			// jail by fine or card; rolls for doubles and a card's fresh
			// roll for utility rent are not.
			turnRoll := i == firstRoll(evs) && p == pre.Current() &&
				(a.Kind == monopoly.ActContinue || a.Kind == monopoly.ActPayJailFine || a.Kind == monopoly.ActUseJailCard)
			thrown := i+1 < len(evs) && evs[i+1].Kind == monopoly.EvSpeedDie
			want := turnRoll && r.SpeedDie && pre.PassedGo(p)
			if thrown != want {
				return fmt.Errorf("speed die thrown %v with the roll of player %d (turn roll %v, passed GO %v, variant %v)",
					thrown, p, turnRoll, pre.PassedGo(p), r.SpeedDie)
			}
			if !thrown {
				continue
			}
			f := monopoly.SpeedFace(evs[i+1].Amount)
			d1, d2 := int(e.Dice[0]), int(e.Dice[1])
			if triples := d1 == d2 && int(f) == d1; triples != evs[i+1].Flag {
				return fmt.Errorf("dice %d+%d and speed die %s: triples flag %v", d1, d2, f, evs[i+1].Flag)
			}
			if !f.Number() || evs[i+1].Flag {
				continue
			}
			// The first move of a number is the three dice together.
			for _, m := range evs[i+2:] {
				if m.Kind == monopoly.EvMove && int(m.Player) == p {
					if got, want := (int(m.Square)-int(m.Other)+n)%n, (d1+d2+int(f))%n; got != want {
						return fmt.Errorf("dice %d+%d and speed die %s moved %d squares", d1, d2, f, got)
					}
					break
				}
			}
		case monopoly.EvSpeedDie:
			if i == 0 || evs[i-1].Kind != monopoly.EvRoll {
				return fmt.Errorf("a speed die without a roll")
			}
			if e.Flag && g.RollsAgain() && g.Current() == int(e.Player) {
				return fmt.Errorf("triples rolled again")
			}
		}
	}
	// The speed die the game reports goes with its latest roll: none when
	// that roll (a roll for doubles, a card's fresh roll) threw none.
	if last := lastRoll(evs); last >= 0 {
		want := monopoly.SpeedNone
		if last+1 < len(evs) && evs[last+1].Kind == monopoly.EvSpeedDie {
			want = monopoly.SpeedFace(evs[last+1].Amount)
		}
		if g.LastSpeedDie() != want {
			return fmt.Errorf("after the roll %v, the last speed die is %s, want %s", evs[last].Dice, g.LastSpeedDie(), want)
		}
	}
	if g.Pending().Kind == monopoly.DecisionMovement {
		return checkMoves(g)
	}
	return nil
}

// lastRoll is the index of the last roll in evs, or -1.
func lastRoll(evs []monopoly.Event) int {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == monopoly.EvRoll {
			return i
		}
	}
	return -1
}

func firstRoll(evs []monopoly.Event) int {
	for i, e := range evs {
		if e.Kind == monopoly.EvRoll {
			return i
		}
	}
	return -1
}

// checkMoves checks the legal answers of a movement decision: the Bus
// offers one white die's move, the other's and both's, triples every
// other square.
func checkMoves(g *monopoly.Game) error {
	d := g.Pending()
	n := len(g.Rules().Squares)
	want := map[int]bool{}
	if d.Amount == 0 {
		for sq := range n {
			if sq != d.Square {
				want[sq] = true
			}
		}
	} else {
		d1, d2 := g.LastRoll()
		if d1+d2 != d.Amount {
			return fmt.Errorf("the Bus after %d+%d says %d", d1, d2, d.Amount)
		}
		for _, s := range []int{d1, d2, d1 + d2} {
			want[(d.Square+s)%n] = true
		}
	}
	legal := g.LegalActions(nil)
	if len(legal) != len(want) {
		return fmt.Errorf("movement from %d (amount %d): %d legal moves, want %d", d.Square, d.Amount, len(legal), len(want))
	}
	for _, a := range legal {
		if a.Kind != monopoly.ActMove || !want[a.Arg] {
			return fmt.Errorf("movement from %d (amount %d): %v is legal", d.Square, d.Amount, a)
		}
	}
	return nil
}
