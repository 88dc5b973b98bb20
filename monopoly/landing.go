package monopoly

import "fmt"

// DeriveSeed derives the seed of item i of a run seeded with run
// (SplitMix64): games of a simulation, chunks of a measurement.
func DeriveSeed(run uint64, i int) uint64 {
	z := run + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// maxIdleLandingDecisions bounds the decisions between two rolls in
// LandingCounts: its players only ever go on, decline and drop out, so a
// game that stops rolling is an engine bug, reported rather than looped on.
const maxIdleLandingDecisions = 10_000

// LandingCounts plays games of players that never buy, bid or trade, so
// that nothing but the dice, the cards and the jail policy moves them,
// until quota rolls have resolved. It adds each roll's final square to
// counts (on the jail square only rolls that end just visiting) and
// returns the rolls that ended in jail. leaveJail: leave jail at once
// (card, else fine); otherwise try for doubles. Under the speed die a
// movement choice takes the dice's plain move. A game that ends first
// (a bankruptcy, a round limit) is followed by a fresh one with a seed
// derived from seed, so the counts depend on seed and quota only.
func LandingCounts(r *Rules, leaveJail bool, seed uint64, quota int64, counts []int64) (int64, error) {
	var done, inJail int64
	for game := 0; done < quota; game++ {
		gs := seed
		if game > 0 {
			gs = DeriveSeed(seed, game)
		}
		g := New(r, 4, gs)
		g.Record(true)
		idle := 0
		for done < quota && !g.Over() {
			d := g.Pending()
			a, ok := landingAction(g, d, leaveJail)
			if !ok {
				return 0, fmt.Errorf("monopoly: landing game seed %d: no decision pending (%s)", gs, d.Kind)
			}
			if err := g.Apply(a); err != nil {
				return 0, fmt.Errorf("monopoly: landing game seed %d: %w", gs, err)
			}
			idle++
			for _, e := range g.TakeEvents() {
				if e.Kind != EvRollResolved {
					continue
				}
				idle = 0
				if e.Flag {
					inJail++
				} else {
					counts[e.Square]++
				}
				if done++; done == quota {
					break
				}
			}
			if idle > maxIdleLandingDecisions {
				return 0, fmt.Errorf("monopoly: landing game seed %d: %d decisions without a roll", gs, idle)
			}
		}
	}
	return inJail, nil
}

// landingAnswers are LandingCounts' players' answers to the decisions
// that need no thought: they never buy, bid, trade or lift a mortgage, so
// nothing is ever owned, and a debt they cannot pay bankrupts them.
var landingAnswers = [...]ActionKind{
	DecisionManage:            ActContinue,
	DecisionBuy:               ActDecline,
	DecisionBid:               ActDropOut,
	DecisionRaiseCash:         ActDeclareBankruptcy,
	DecisionTradeResponse:     ActRejectTrade,
	DecisionMortgagedTransfer: ActKeepMortgaged,
}

// landingAction is LandingCounts' players' answer to decision d, or false
// when none is pending.
func landingAction(g *Game, d Decision, leaveJail bool) (Action, bool) {
	a := Action{Player: d.Player}
	switch d.Kind {
	case DecisionJail:
		a.Kind = ActRollForDoubles
		if leaveJail {
			switch {
			case g.JailCardCount(d.Player) > 0:
				a.Kind, a.Arg = ActUseJailCard, -1
			case g.Cash(d.Player) >= g.rules.JailFine:
				a.Kind = ActPayJailFine
			}
		}
	case DecisionMovement:
		// The dice's plain move: the Bus both white dice, triples the
		// three dice together.
		d1, d2 := g.LastRoll()
		steps := d.Amount
		if steps == 0 {
			steps = d1 + d2 + int(g.LastSpeedDie())
		}
		a.Kind, a.Arg = ActMove, (d.Square+steps)%len(g.rules.Squares)
	default:
		if int(d.Kind) >= len(landingAnswers) || landingAnswers[d.Kind] == ActNone {
			return a, false
		}
		a.Kind = landingAnswers[d.Kind]
	}
	return a, true
}
