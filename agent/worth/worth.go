// Package worth estimates what properties are worth in a position, from
// the game's state rather than their printed prices: the rent a colour
// group earns once developed (from the landing model), how close each
// player stands to owning a group whole, and cash by what a player needs
// of it. Every bot that trades or bids values through it, so that no
// protocol (open deals, sealed limits, counter-offers, auctions) prices a
// property differently and none is a back door for buying the board at
// face value.
package worth

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/gopoly/gopoly/internal/weakcache"
	"github.com/gopoly/gopoly/monopoly"
)

// Horizon is the number of opponent turns over which a developed group's
// rent is counted: three opponents for twelve rounds, about what is left
// of a four-player game once the board is sold and groups are built.
const Horizon = 36

// Table holds what a rules object's groups are worth. Fetching it
// (Of) costs a cache look-up; a player keeps it for as long as it plays
// under the same rules.
type Table struct {
	r        *monopoly.Rules
	monopoly [monopoly.MaxSquares]float64 // by group index
	prices   [monopoly.MaxSquares]float64 // by group index: the printed prices
	// rent is, by group index, the rent a whole group earns per opponent
	// turn with h houses on it (h up to DevLevel per street), built
	// evenly with the busiest streets first.
	rent     [monopoly.MaxSquares][]float64
	land     *Landing
	railroad uint64 // the railroads, as a mask
	utility  uint64 // the utilities, as a mask
}

var tables weakcache.Cache[monopoly.Rules, *Table]

// Of returns the table of r, computing it on first use.
func Of(r *monopoly.Rules) *Table { return tables.Get(r, measureGroups) }

func measureGroups(r *monopoly.Rules) *Table {
	m := LandingOf(r)
	gw := &Table{r: r, land: m}
	for sq := range r.Squares {
		switch r.Squares[sq].Kind {
		case monopoly.KindRailroad:
			gw.railroad |= 1 << sq
		case monopoly.KindUtility:
			gw.utility |= 1 << sq
		}
	}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		prices, rent := 0.0, 0.0
		for _, sq := range g.Squares {
			s := &r.Squares[sq]
			prices += float64(s.Price)
			if s.Kind == monopoly.KindStreet && len(s.Rent) > DevLevel {
				rent += m.PerTurn(sq, s.Rent[DevLevel])
			}
		}
		build := float64(DevLevel * len(g.Squares) * g.HouseCost)
		gw.monopoly[gi] = max(prices, Horizon*rent-build)
		gw.prices[gi] = prices
		gw.rent[gi] = builtRent(r, m, g)
	}
	return gw
}

// builtRent is the per-turn rent of group g with 0 to DevLevel houses a
// street, built evenly (7.3), each next house on the busiest street among
// the least built; unbuilt, a whole group earns double rent.
func builtRent(r *monopoly.Rules, m *Landing, g *monopoly.Group) []float64 {
	sqs := slices.Clone(g.Squares)
	for _, sq := range sqs {
		if s := &r.Squares[sq]; s.Kind != monopoly.KindStreet || len(s.Rent) <= DevLevel {
			return nil
		}
	}
	slices.SortStableFunc(sqs, func(a, b int) int { return cmp.Compare(m.Prob[b], m.Prob[a]) })
	out := make([]float64, DevLevel*len(sqs)+1)
	for h := range out {
		for i, sq := range sqs {
			level := h / len(sqs)
			if i < h%len(sqs) {
				level++
			}
			rent := r.Squares[sq].Rent[level]
			if level == 0 {
				rent *= 2
			}
			out[h] += m.PerTurn(sq, rent)
		}
	}
	return out
}

// Monopoly is what owning street group gi whole is worth: the rent its
// streets earn at three houses over Horizon opponent turns, less the
// houses, and never less than the group's printed prices. On the standard
// board it runs from the browns' $120 (their prices: their rent does not
// repay the houses) to $1,250-1,470 for the oranges, reds, yellows,
// greens and dark blues.
func (t *Table) Monopoly(gi int) float64 { return t.monopoly[gi] }

// Monopoly is Of(r).Monopoly(gi).
func Monopoly(r *monopoly.Rules, gi int) float64 { return Of(r).monopoly[gi] }

// Affordable is how many houses budget builds on street group gi, up to
// DevLevel a street (-1 for a group that cannot be built on).
func (t *Table) Affordable(gi int, budget float64) int {
	most := len(t.rent[gi]) - 1
	if hc := float64(t.r.Groups[gi].HouseCost); hc > 0 {
		most = int(min(float64(most), max(0, budget)/hc))
	}
	return most
}

// BuiltRent is what street group gi earns per opponent turn, held whole
// with the houses budget builds on it (Affordable): the rent a rival's group
// costs a player, turn by turn, once its holder has spent that budget.
func (t *Table) BuiltRent(gi int, budget float64) float64 {
	if h := t.Affordable(gi, budget); h >= 0 {
		return t.rent[gi][h]
	}
	return 0
}

// Developed is what owning street group gi whole is worth to a holder
// with prospect pr: the rent it earns over pr.Turns opponent turns with
// as many houses as pr.Budget buys (up to DevLevel a street), less the
// houses, and never less than the group's printed prices (a share of
// them over fewer turns than the Horizon). With the cash
// for every house and Horizon turns it is the Monopoly worth. Counted
// over the rest of a long game, it is far more: where nobody trades, the
// first group built may earn for hundreds of rounds, and selling the
// street that completes it at a few times its price loses the game. And
// two players completing groups in one swap gain unequally when one of
// them has the cash to build and the other has spent it.
func (t *Table) Developed(gi int, pr Prospect) float64 {
	hc := float64(t.r.Groups[gi].HouseCost)
	rent := t.rent[gi]
	most := t.Affordable(gi, pr.Budget)
	if most == len(rent)-1 && pr.Turns == Horizon {
		return t.monopoly[gi] // by definition, and to the last bit
	}
	// The printed prices stand for a group whose rent does not repay its
	// houses; over fewer turns than the Horizon (near the round limit)
	// that too earns less.
	best := t.prices[gi] * min(1, pr.Turns/Horizon)
	for h := 0; h <= most; h++ {
		best = max(best, pr.Turns*rent[h]-float64(h)*hc)
	}
	return best
}

// Prospect is what a player can make of a colour group: the cash it can
// put into houses (Budget) and the opponent turns over which it collects
// rent (Horizon, or OpponentTurns).
type Prospect struct {
	Budget, Turns float64
}

// Share is how much of a street group's Monopoly worth holding the squares
// of owned (of the group gi) gives a player, given the squares of the
// group that other players hold (taken): all of it for the whole group,
// a good part for all but one street still with the bank (it is likely
// to come up for sale), less when the missing street must be bought from
// another player, little for a group two streets short with the bank
// holding both, nothing when others hold them.
func Share(r *monopoly.Rules, gi int, owned, taken uint64) float64 {
	g := &r.Groups[gi]
	owned &= g.Mask
	taken &= g.Mask &^ owned
	n, k := len(g.Squares), bits.OnesCount64(owned)
	switch {
	case k == 0:
		return 0
	case k == n:
		return 1
	case n-k == 1 && taken == 0:
		return 0.5
	case n-k == 1:
		return 0.2
	case n-k == 2 && taken == 0:
		return 0.1
	}
	return 0
}

// Holdings is who owns what, as far as a valuation needs it: each
// player's squares, bankrupt players holding none.
type Holdings [monopoly.MaxPlayers]uint64

// HoldingsOf reads the holdings of v.
func HoldingsOf(v monopoly.View) Holdings {
	var h Holdings
	for p := range v.Players() {
		if !v.Bankrupt(p) {
			h[p] = v.OwnedMask(p)
		}
	}
	return h
}

// all is every square held by any player.
func (h *Holdings) all() uint64 {
	var m uint64
	for _, o := range h {
		m |= o
	}
	return m
}

// GroupStake is what player p's holdings h in street group gi are worth
// to it, with prospect pr, through the group: its Share of the group
// Developed.
func (t *Table) GroupStake(h *Holdings, p, gi int, pr Prospect) float64 {
	share := Share(t.r, gi, h[p], h.all()&^h[p])
	if share == 0 {
		return 0
	}
	return share * t.Developed(gi, pr)
}

// Move returns the holdings after the squares of mask pass from player
// from to player to.
func (h Holdings) Move(mask uint64, from, to int) Holdings {
	h[from] &^= mask
	h[to] |= mask
	return h
}

// Give returns the holdings after player to gets the squares of mask
// from the bank.
func (h Holdings) Give(mask uint64, to int) Holdings {
	h[to] |= mask
	return h
}

// Stakes is the change, from before to after, in what every street group
// touched by mask is worth through the group to player p, whose prospect
// after the change is pr.
func (t *Table) Stakes(before, after *Holdings, p int, mask uint64, pr Prospect) float64 {
	d := 0.0
	for gs := groupsOf(t.r, mask); gs != 0; gs &= gs - 1 {
		gi := bits.TrailingZeros64(gs)
		d += t.GroupStake(after, p, gi, pr) - t.GroupStake(before, p, gi, pr)
	}
	return d
}

// groupsOf is the street groups with a square in mask, as a bit set of
// group indexes.
func groupsOf(r *monopoly.Rules, mask uint64) uint64 {
	var gs uint64
	for m := mask; m != 0; m &= m - 1 {
		if s := &r.Squares[bits.TrailingZeros64(m)]; s.Kind == monopoly.KindStreet {
			gs |= 1 << s.Group
		}
	}
	return gs
}

// Liquidity is the cash player p should keep at hand: the largest rent it
// could owe on one landing now (with a margin for a second), so that a
// player facing built-up groups values cash above its face.
func Liquidity(v monopoly.View, p int) float64 {
	most := 0
	for q := range v.Players() {
		if q == p || v.Bankrupt(q) {
			continue
		}
		for m := v.OwnedMask(q) &^ v.MortgagedMask(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			most = max(most, v.Rent(sq, 7)) // utilities on an average roll
		}
	}
	return float64(most) * 1.25
}

// CashPremium is how much more than its face a dollar below Liquidity is
// worth: short of cash a player mortgages or sells at a loss.
const CashPremium = 0.3

// Cash is what changing player cash from c by delta is worth, with
// dollars below the liquidity need at 1+CashPremium.
func Cash(c, delta int, need float64) float64 {
	return utility(float64(c+delta), need) - utility(float64(c), need)
}

// utility is what holding cash x is worth, with need as in Cash.
func utility(x, need float64) float64 {
	if x >= need {
		return x + CashPremium*need
	}
	return (1 + CashPremium) * x
}

// CashFor is the least cash delta (negative: the most it may give) for
// which Cash(c, delta, need) is at least value: the inverse of Cash.
func CashFor(c int, value, need float64) int {
	x := float64(c)
	target := utility(x, need) + value
	var y float64
	if target >= (1+CashPremium)*need {
		y = target - CashPremium*need
	} else {
		y = target / (1 + CashPremium)
	}
	return int(math.Ceil(y - x - 1e-9))
}

// Income is the rent per opponent turn that the squares of owned bring
// as they stand unbuilt: a street its printed rent (what a whole group
// earns built is its Monopoly worth), a railroad and a utility (on an
// average roll of 7) by how many of their kind owned holds. Rent is what
// a property earns where no group is built (often most of a game that
// runs to its round limit), and what it loses its holder for the rest of
// the game when sold.
func (t *Table) Income(owned uint64) float64 {
	r := t.r
	rails := bits.OnesCount64(owned & t.railroad)
	utils := bits.OnesCount64(owned & t.utility)
	sum := 0.0
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		s := &r.Squares[sq]
		rent := 0
		switch s.Kind {
		case monopoly.KindStreet:
			rent = s.Rent[0]
		case monopoly.KindRailroad:
			rent = rentAt(r.RailroadRent, rails)
		case monopoly.KindUtility:
			rent = 7 * rentAt(r.UtilityMultiplier, utils)
		}
		sum += t.land.PerTurn(sq, rent)
	}
	return sum
}

// rentAt is the rent table t's entry for n of a kind held.
func rentAt(t []int, n int) int {
	if n <= 0 || len(t) == 0 {
		return 0
	}
	return t[min(n, len(t))-1]
}

// IncomeRounds is how many rounds of a property's unbuilt rent its holder
// counts on: about what is left of a game between two sales of the board.
const IncomeRounds = 100

// IncomeTurns is the number of opponent turns over which player p counts
// unbuilt rent in v: OpponentTurns over IncomeRounds.
func IncomeTurns(v monopoly.View, p int) float64 { return OpponentTurns(v, p, IncomeRounds) }

// HorizonTurns is the opponent turns over which player p counts a
// developed group's rent in v: the Horizon, or the turns its live
// opponents have left before the round limit when fewer.
func HorizonTurns(v monopoly.View, p int) float64 {
	return min(Horizon, OpponentTurns(v, p, Horizon))
}

// EndWeight is how much of the gap between a property's price and what
// the round limit's count makes of it (monopoly.Rules.Counted) its holder
// still counts in v: all of it without a limit or IncomeRounds rounds or
// more from it, falling to none at the limit, where only the count
// decides. Under Monopyly's count (resale) a street counts half its price
// there: the contest AIs offer up to one and a half times the price for a
// street to the last round, and a seller counting it at its price refused
// what, counted, gains it half the price and costs the buyer as much.
func EndWeight(v monopoly.View) float64 {
	lim := v.Rules().MaxRounds
	if lim <= 0 {
		return 1
	}
	return min(1, float64(max(0, lim-v.Round()))/IncomeRounds)
}

// OpponentTurns is the number of turns player p's live opponents play in
// the next rounds rounds of v, or in the rounds the rules' round limit
// leaves.
func OpponentTurns(v monopoly.View, p, rounds int) float64 {
	if lim := v.Rules().MaxRounds; lim > 0 {
		rounds = min(rounds, max(0, lim-v.Round()))
	}
	opp := 0
	for q := range v.Players() {
		if q != p && !v.Bankrupt(q) {
			opp++
		}
	}
	return float64(rounds * opp)
}

// Rules is the rules object the table was made for.
func (t *Table) Rules() *monopoly.Rules { return t.r }
