package worth

import (
	"slices"

	"github.com/gopoly/gopoly/internal/weakcache"
	"github.com/gopoly/gopoly/monopoly"
)

// The landing model: how often a roll ends on each square, measured once
// per rules by playing the real engine (monopoly.LandingCounts), so that a
// rules file with another board or other cards gets its own frequencies.

const (
	// landingRolls is the sample behind the model: with about 40 squares a
	// square's frequency is known to within about 0.05 points, finer than
	// any decision made from it, in some 30 ms of one core.
	landingRolls = 200_000
	landingSeed  = 0x50726f66 // "Prof" (the Professor measured it first): the model is the same in every game
	// RollsPerTurn is how many rolls an opponent's turn brings on average:
	// one, another after doubles (1/6), a third after two (1/36).
	RollsPerTurn = 1 + 1.0/6 + 1.0/36
	// DevLevel is the development the yields assume: three houses, where
	// the rent tables make their biggest jump.
	DevLevel = 3
)

// Landing is what a player may know of a board's traffic.
type Landing struct {
	Prob [monopoly.MaxSquares]float64 // chance that a roll ends on the square (in jail not counted)
	// Yield is the rent a square brings per opponent roll per dollar
	// invested once developed: a street with three houses, every railroad
	// of the board, every utility on an average roll of 7.
	Yield [monopoly.MaxSquares]float64
	// Rel is Yield against the median of the ownable squares: a "return
	// on investment" multiplier.
	Rel [monopoly.MaxSquares]float64
}

// landingCache holds the model of each rules object in use.
var landingCache weakcache.Cache[monopoly.Rules, *Landing]

// LandingOf returns the model of r, measuring it on first use. Games
// running concurrently on the same rules share one measurement; the
// measurement depends on the rules only, so it is the same in every game.
func LandingOf(r *monopoly.Rules) *Landing { return landingCache.Get(r, measureLanding) }

// measureLanding plays landingRolls rolls of players that never buy and
// leave jail at once (the usual early-game policy) and derives the yields.
func measureLanding(r *monopoly.Rules) *Landing {
	m := &Landing{}
	counts := make([]int64, len(r.Squares))
	// Rolls that end in jail earn nobody rent: only the counts matter.
	_, err := monopoly.LandingCounts(r, true, landingSeed, landingRolls, counts)
	if err != nil {
		// Only an engine bug stops a landing game; the Professor then
		// treats every square alike rather than stopping the game.
		for sq := range r.Squares {
			m.Prob[sq] = 1 / float64(len(r.Squares))
		}
	} else {
		total := float64(landingRolls)
		for sq, c := range counts {
			m.Prob[sq] = float64(c) / total
		}
	}
	var ys []float64
	for _, sq := range r.OwnableSquares() {
		s := &r.Squares[sq]
		var rent, invest float64
		switch s.Kind {
		case monopoly.KindStreet:
			rent = float64(s.Rent[DevLevel])
			invest = float64(s.Price + DevLevel*r.Groups[s.Group].HouseCost)
		case monopoly.KindRailroad:
			rent = float64(last(r.RailroadRent))
			invest = float64(s.Price)
		case monopoly.KindUtility:
			rent = 7 * float64(last(r.UtilityMultiplier))
			invest = float64(s.Price)
		}
		if invest > 0 {
			m.Yield[sq] = rent * m.Prob[sq] / invest
		}
		ys = append(ys, m.Yield[sq])
	}
	slices.Sort(ys)
	med := 0.0
	if len(ys) > 0 {
		med = ys[len(ys)/2]
	}
	for _, sq := range r.OwnableSquares() {
		m.Rel[sq] = 1
		if med > 0 {
			m.Rel[sq] = m.Yield[sq] / med
		}
	}
	return m
}

func last(t []int) int {
	if len(t) == 0 {
		return 0
	}
	return t[len(t)-1]
}

// PerTurn is the rent an opponent's turn brings a square that earns rent
// per landing.
func (m *Landing) PerTurn(sq, rent int) float64 {
	return float64(rent) * m.Prob[sq] * RollsPerTurn
}

// TurnYield is a square's developed yield per opponent turn per dollar:
// the "return on investment" of buying it. Per opponent, so
// that it does not fall as players go bankrupt: cash has no better use
// then either.
func (m *Landing) TurnYield(sq int) float64 {
	return m.Yield[sq] * RollsPerTurn
}
