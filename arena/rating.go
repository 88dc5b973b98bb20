package arena

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Ratings of a multiplayer game are fitted to who wins it, with the
// multinomial-logit (first-place Plackett–Luce) model: in a game, the
// seat of player k wins with probability
//
//	exp(r_k) / Σ_seats exp(r_seat)
//
// A player holding several seats of one game has them all at its
// strength, so its chance of winning the game is its seats' sum. The
// model is the multiplayer form of Bradley–Terry, the model behind Elo:
// two players alone at a table meet with the Elo expected score
// 1/(1 + 10^(-(R_a-R_b)/400)) once r is put on the Elo scale (EloScale
// points per unit), so a rating difference reads as usual; at a table of
// four, a seat's chance is 10^(R/400) over the sum of the four (120 Elo
// above three equal players is a 40% win rate, against 25% at parity).
//
// Why this model rather than multiplayer Elo or TrueSkill: the games of a
// tournament are exchangeable (no player improves between games), so
// there is no reason for an order-dependent online update; the maximum
// likelihood fit uses every game equally and its result does not depend
// on the order games finished in. Scoring is by wins only, so the model
// needs nothing but the winner (or the seats sharing a tied timed game,
// which count as fractional wins, the shares of a game summing to one).
//
// The fit is a Newton ascent of the log-likelihood, which is concave.
// Games enter only through sufficient statistics: each player's total
// wins, and how many games were played in each composition (the seat
// counts per player), so a fit costs the same for a million games as for
// a hundred. To keep the ratings finite when a player never wins (or
// always wins), each player also gets one virtual two-seat game against a
// fixed reference player, shared as a draw: a weak prior worth a single
// game, negligible in a tournament of hundreds. Ratings are reported
// with a mean of EloMean over the players.
//
// Uncertainty comes from a parametric bootstrap: each resample keeps
// the games and their seatings and draws every game's winner afresh from
// the fitted model; the model is refitted and the 2.5% and 97.5%
// percentiles of each player's rating taken. The generator is seeded by
// the caller, so the interval is a function of the games and the seed.
// A resample draws each composition's wins at once, as a multinomial, so
// its cost does not grow with the number of games. Resampling whole games
// instead (the nonparametric bootstrap) gives nearly the same intervals
// whenever results vary, since the winners are all the data the model
// sees, but it collapses to a single point when a player
// wins every game it plays or none (every resample is then the same),
// which would claim a certainty twenty games cannot give; the fitted
// model, held finite by its prior, still gives the other outcome its
// small chance, and the interval its honest width. Such a player's
// rating is set by the prior, and so is the outer end of its interval
// (the point itself): the data say only that it is at least, or at most,
// the inner end.

// EloScale converts model units (natural log of strength) to Elo points.
const EloScale = 400 / math.Ln10

// EloMean is the mean of the reported ratings.
const EloMean = 1500

// RatingSet collects games for a rating fit. It keeps only the
// sufficient statistics, so it is small whatever the number of games.
type RatingSet struct {
	players int
	games   int
	comp    map[string]int // composition key -> index
	counts  [][]float64    // per composition, seats per player
	ncomp   []float64      // per composition, games
	wins    []float64      // per player, over all games
}

// NewRatingSet returns an empty set for players numbered 0..players-1.
func NewRatingSet(players int) *RatingSet {
	return &RatingSet{players: players, comp: map[string]int{}, wins: make([]float64, players)}
}

// Games returns how many games the set holds.
func (r *RatingSet) Games() int { return r.games }

// Add records one game: the player in each seat and each seat's share of
// the win (1 for the winner and 0 for the others; 1/k to each of k seats
// sharing a tie). Shares must be non-negative and sum to 1.
func (r *RatingSet) Add(seats []int, shares []float64) error {
	if len(seats) < 2 || len(shares) != len(seats) {
		return fmt.Errorf("arena: a rated game needs two or more seats and a share for each (%d seats, %d shares)", len(seats), len(shares))
	}
	counts := make([]int, r.players)
	total := 0.0
	for s, p := range seats {
		if p < 0 || p >= r.players {
			return fmt.Errorf("arena: seat %d holds player %d of %d", s, p, r.players)
		}
		if shares[s] < 0 || math.IsNaN(shares[s]) {
			return fmt.Errorf("arena: seat %d has share %v", s, shares[s])
		}
		counts[p]++
		total += shares[s]
	}
	if math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("arena: a game's shares sum to %v, not 1", total)
	}
	var key strings.Builder
	for _, c := range counts {
		key.WriteString(strconv.Itoa(c))
		key.WriteByte(',')
	}
	ci, ok := r.comp[key.String()]
	if !ok {
		ci = len(r.counts)
		r.comp[key.String()] = ci
		cs := make([]float64, r.players)
		for p, c := range counts {
			cs[p] = float64(c)
		}
		r.counts = append(r.counts, cs)
		r.ncomp = append(r.ncomp, 0)
	}
	for s, p := range seats {
		r.wins[p] += shares[s]
	}
	r.ncomp[ci]++
	r.games++
	return nil
}

// Elo returns each player's rating on the Elo scale, with mean EloMean.
func (r *RatingSet) Elo() []float64 {
	return toElo(r.fit(r.ncomp, r.wins, nil))
}

// Bootstrap returns the point ratings of Elo and each player's 95%
// interval from resamples parametric bootstrap resamples drawn from seed.
func (r *RatingSet) Bootstrap(resamples int, seed uint64) (elo []float64, ci95 [][2]float64) {
	theta := r.fit(r.ncomp, r.wins, nil)
	elo = toElo(theta)
	ci95 = make([][2]float64, r.players)
	if r.games == 0 || resamples <= 0 {
		for p := range ci95 {
			ci95[p] = [2]float64{elo[p], elo[p]}
		}
		return elo, ci95
	}
	// Per composition, the players' chances of winning under the fitted
	// model; a resample draws each composition's wins from the
	// multinomial distribution at once.
	q := make([][]float64, len(r.counts))
	last := make([]int, len(r.counts)) // the last player with a chance
	for c, counts := range r.counts {
		q[c] = make([]float64, r.players)
		winProbs(theta, counts, q[c])
		for p, x := range q[c] {
			if x > 0 {
				last[c] = p
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f7473747270)) // "bootstrp"
	draws := make([][]float64, r.players)
	for p := range draws {
		draws[p] = make([]float64, resamples)
	}
	wins := make([]float64, r.players)
	for b := range resamples {
		clear(wins)
		for c, qc := range q {
			left, mass := int(r.ncomp[c]), 1.0
			for p, x := range qc {
				if x == 0 || left == 0 {
					continue
				}
				k := left // the last takes what is left, whatever the rounding
				if p != last[c] {
					k = binomial(rng, left, min(1, x/mass))
				}
				wins[p] += float64(k)
				left -= k
				mass -= x
			}
		}
		e := toElo(r.fit(r.ncomp, wins, theta))
		for p := range e {
			draws[p][b] = e[p]
		}
	}
	for p, d := range draws {
		slices.Sort(d)
		ci95[p] = [2]float64{percentile(d, 0.025), percentile(d, 0.975)}
	}
	return elo, ci95
}

// binomial draws from the binomial distribution (n trials of success
// probability p) exactly, in O(log n) steps rather than n: a binomial
// count is the number of n uniform numbers below p, and the i-th smallest
// of them, drawn directly from its Beta(i, n+1-i) distribution, splits
// the others into i-1 uniform below it and n-i uniform above it, of which
// only one side is still undecided (after Devroye, Non-Uniform Random
// Variate Generation, 1986). A few trials are left to count one by one.
func binomial(rng *rand.Rand, n int, p float64) int {
	k := 0
	for n > 16 && p > 0 && p < 1 {
		i := (n + 1) / 2
		x := gammaInt(rng, i)
		x /= x + gammaInt(rng, n+1-i) // Beta(i, n+1-i)
		if p < x {
			n, p = i-1, p/x
		} else {
			k += i
			n, p = n-i, (p-x)/(1-x)
		}
	}
	for range n {
		if rng.Float64() < p {
			k++
		}
	}
	return k
}

// gammaInt draws from the gamma distribution of shape a ≥ 1 and scale 1
// (Marsaglia and Tsang's method).
func gammaInt(rng *rand.Rand, a int) float64 {
	d := float64(a) - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < x*x/2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// percentile interpolates the q-quantile of sorted xs.
func percentile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	lo := int(pos)
	hi := min(lo+1, len(xs)-1)
	return xs[lo] + (xs[hi]-xs[lo])*(pos-float64(lo))
}

// toElo puts model strengths on the Elo scale around EloMean.
func toElo(theta []float64) []float64 {
	mean := 0.0
	for _, t := range theta {
		mean += t
	}
	mean /= float64(len(theta))
	out := make([]float64, len(theta))
	for i, t := range theta {
		out[i] = EloMean + EloScale*(t-mean)
	}
	return out
}

// fit maximises the log-likelihood of games summarised by ncomp (games
// per composition) and wins (per player), starting from start (nil:
// zero), and returns the strengths relative to the reference player.
func (r *RatingSet) fit(ncomp, wins, start []float64) []float64 {
	k := r.players
	theta := make([]float64, k)
	if start != nil {
		copy(theta, start)
	}
	grad := make([]float64, k)
	hess := make([]float64, k*k) // the negated Hessian, positive definite
	q := make([]float64, k)
	next := make([]float64, k)
	ll := r.logLik(theta, ncomp, wins)
	for range 200 {
		r.information(theta, ncomp, hess, q)
		for i := range k {
			grad[i] = wins[i] + 0.5 - sigmoid(theta[i])
		}
		for c, counts := range r.counts {
			if g := ncomp[c]; g != 0 {
				winProbs(theta, counts, q)
				for i := range k {
					grad[i] -= g * q[i]
				}
			}
		}
		step := solveSPD(hess, grad, k)
		big := 0.0
		for _, d := range step {
			big = max(big, math.Abs(d))
		}
		if big < 1e-12 {
			break
		}
		// Backtrack until the likelihood does not fall: Newton steps
		// from far away can overshoot.
		t := 1.0
		var llNext float64
		for range 60 {
			for i := range k {
				next[i] = theta[i] + t*step[i]
			}
			llNext = r.logLik(next, ncomp, wins)
			if llNext >= ll-1e-12*math.Abs(ll) {
				break
			}
			t /= 2
		}
		copy(theta, next)
		ll = llNext
		if big*t < 1e-10 {
			break
		}
	}
	return theta
}

// information sets hess to the negated Hessian of the log-likelihood at
// theta (the observed information, positive definite thanks to the
// virtual games); q is scratch space.
func (r *RatingSet) information(theta, ncomp, hess, q []float64) {
	k := len(theta)
	clear(hess)
	for i, t := range theta {
		s := sigmoid(t)
		hess[i*k+i] = s * (1 - s)
	}
	for c, counts := range r.counts {
		g := ncomp[c]
		if g == 0 {
			continue
		}
		winProbs(theta, counts, q)
		for i := range k {
			if q[i] == 0 {
				continue
			}
			hess[i*k+i] += g * q[i]
			for j := range k {
				hess[i*k+j] -= g * q[i] * q[j]
			}
		}
	}
}

// logLik is the log-likelihood of the strengths theta with the virtual
// draws against the reference player.
func (r *RatingSet) logLik(theta, ncomp, wins []float64) float64 {
	ll := 0.0
	for i, t := range theta {
		ll += (wins[i]+0.5)*t - softplus(t)
	}
	for c, counts := range r.counts {
		if ncomp[c] != 0 {
			ll -= ncomp[c] * logSumExp(theta, counts)
		}
	}
	return ll
}

// winProbs sets q[i] to the probability that one of player i's seats
// wins a game of composition counts.
func winProbs(theta, counts, q []float64) {
	z := logSumExp(theta, counts)
	for i, c := range counts {
		q[i] = 0
		if c > 0 {
			q[i] = c * math.Exp(theta[i]-z)
		}
	}
}

// logSumExp returns log Σ counts[i]·exp(theta[i]), without overflow.
func logSumExp(theta, counts []float64) float64 {
	m := math.Inf(-1)
	for i, c := range counts {
		if c > 0 {
			m = max(m, theta[i])
		}
	}
	s := 0.0
	for i, c := range counts {
		if c > 0 {
			s += c * math.Exp(theta[i]-m)
		}
	}
	return m + math.Log(s)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// softplus is log(1 + e^x).
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// solveSPD solves a·x = b for a symmetric positive definite k×k matrix
// (row-major) by Cholesky decomposition; a is overwritten.
func solveSPD(a, b []float64, k int) []float64 {
	for j := range k {
		d := a[j*k+j]
		for l := range j {
			d -= a[j*k+l] * a[j*k+l]
		}
		d = math.Sqrt(max(d, 1e-300))
		a[j*k+j] = d
		for i := j + 1; i < k; i++ {
			s := a[i*k+j]
			for l := range j {
				s -= a[i*k+l] * a[j*k+l]
			}
			a[i*k+j] = s / d
		}
	}
	x := slices.Clone(b)
	for i := range k { // L y = b
		for l := range i {
			x[i] -= a[i*k+l] * x[l]
		}
		x[i] /= a[i*k+i]
	}
	for i := k - 1; i >= 0; i-- { // Lᵀ x = y
		for l := i + 1; l < k; l++ {
			x[i] -= a[l*k+i] * x[l]
		}
		x[i] /= a[i*k+i]
	}
	return x
}
