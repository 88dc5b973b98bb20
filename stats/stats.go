// Package stats holds the small statistics gopoly reports: means,
// medians and 95% confidence intervals for rates and means.
package stats

import (
	"math"
	"slices"
)

// Z95 is the two-sided 95% normal quantile.
const Z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval for successes out of n
// trials. Fractional successes (shared draws) are allowed.
func Wilson(successes float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	fn := float64(n)
	p := successes / fn
	z2 := Z95 * Z95
	den := 1 + z2/fn
	centre := (p + z2/(2*fn)) / den
	half := Z95 * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// Mean returns the arithmetic mean of xs (0 for none).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// MeanCI returns the mean of xs and the half-width of its 95% normal
// confidence interval.
func MeanCI(xs []float64) (mean, half float64) {
	n := len(xs)
	mean = Mean(xs)
	if n < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	sd := math.Sqrt(ss / float64(n-1))
	return mean, Z95 * sd / math.Sqrt(float64(n))
}

// Median returns the median of xs without modifying it (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
