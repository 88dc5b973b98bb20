package arena

import (
	"maps"
	"math"
	"slices"

	"github.com/gopoly/gopoly/stats"
)

// lengths counts games by their length in rounds, as they finish: all
// that the mean, the spread and the quantiles of game length need, in
// memory that grows with the lengths seen (a few hundred, at most the
// round limit) and not with the games, so that a simulation, a
// tournament or an experiment of any length keeps its tally flat. The
// zero lengths is empty and ready to use.
type lengths struct {
	games int
	sum   int64       // of the lengths: the mean, exactly
	by    map[int]int // games by length
}

// add counts a game of rounds rounds. It allocates only for a length
// not seen before.
func (l *lengths) add(rounds int) {
	if l.by == nil {
		l.by = map[int]int{}
	}
	l.games++
	l.sum += int64(rounds)
	l.by[rounds]++
}

// mean returns the mean length (0 for no games), as stats.Mean would of
// every game's.
func (l *lengths) mean() float64 {
	if l.games == 0 {
		return 0
	}
	return float64(l.sum) / float64(l.games)
}

// sorted returns the lengths seen, shortest first.
func (l *lengths) sorted() []int { return slices.Sorted(maps.Keys(l.by)) }

// nth returns the k-th shortest game's length (from 0; k < games), of
// the lengths seen in order.
func (l *lengths) nth(seen []int, k int) float64 {
	for _, n := range seen {
		if k < l.by[n] {
			return float64(n)
		}
		k -= l.by[n]
	}
	return 0 // not reached for k < games
}

// median returns the median length (0 for no games), as stats.Median
// would of every game's.
func (l *lengths) median() float64 {
	if l.games == 0 {
		return 0
	}
	seen, m := l.sorted(), l.games/2
	if l.games%2 == 1 {
		return l.nth(seen, m)
	}
	return (l.nth(seen, m-1) + l.nth(seen, m)) / 2
}

// quantile returns the q-quantile of the lengths of seen by linear
// interpolation between order statistics, as stats.Quantile would of
// every game's.
func (l *lengths) quantile(seen []int, q float64) float64 {
	q = math.Min(1, math.Max(0, q))
	pos := q * float64(l.games-1)
	lo := int(math.Floor(pos))
	a, b := l.nth(seen, lo), l.nth(seen, min(lo+1, l.games-1))
	return a + (b-a)*(pos-float64(lo))
}

// distribution describes the lengths: the mean and quantiles as stats
// computes them from every game's length; the spread is summed by
// length, so the interval may differ from stats.MeanCI's in the last
// digits.
func (l *lengths) distribution() Distribution {
	if l.games == 0 {
		return Distribution{}
	}
	seen := l.sorted()
	d := Distribution{Mean: l.mean(), Min: float64(seen[0]), Max: float64(seen[len(seen)-1]), Median: l.median(),
		P10: l.quantile(seen, 0.1), P25: l.quantile(seen, 0.25), P75: l.quantile(seen, 0.75), P90: l.quantile(seen, 0.9)}
	if l.games > 1 {
		ss := 0.0
		for _, n := range seen {
			dev := float64(n) - d.Mean
			ss += float64(l.by[n]) * dev * dev
		}
		d.CI95 = stats.Z95 * math.Sqrt(ss/float64(l.games-1)) / math.Sqrt(float64(l.games))
	}
	return d
}
