package arena

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// syntheticGames draws games from the rating model itself: seats filled
// by pick, the winner drawn with probability proportional to
// exp(theta[player]).
func syntheticGames(t *testing.T, theta []float64, games, seats int, seed uint64, pick func(rng *rand.Rand, seats []int)) *RatingSet {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	rs := NewRatingSet(len(theta))
	players := make([]int, seats)
	shares := make([]float64, seats)
	for range games {
		pick(rng, players)
		total := 0.0
		for _, p := range players {
			total += math.Exp(theta[p])
		}
		u := rng.Float64() * total
		clear(shares)
		for s, p := range players {
			u -= math.Exp(theta[p])
			if u < 0 || s == seats-1 {
				shares[s] = 1
				break
			}
		}
		if err := rs.Add(players, shares); err != nil {
			t.Fatal(err)
		}
	}
	return rs
}

// The fit recovers known strengths from games drawn from the model, with
// different players at each table and a player holding several seats;
// each bootstrap interval holds its point estimate and the truth, and is
// about as wide as the asymptotic (Fisher) interval.
func TestRatingRecoversStrengths(t *testing.T) {
	theta := []float64{0, 0.5, -0.4, 1.0, 0.2} // model units: 1.0 is 174 Elo
	want := toElo(theta)
	rs := syntheticGames(t, theta, 20000, 4, 7, func(rng *rand.Rand, seats []int) {
		// Four of five players, with player 0 sometimes in two seats.
		perm := rng.Perm(5)
		copy(seats, perm[:4])
		if rng.IntN(4) == 0 && !slices.Contains(seats, 0) {
			seats[0] = 0
		}
		if rng.IntN(4) == 0 {
			seats[1] = 0
		}
	})
	elo, ci := rs.Bootstrap(400, 1)
	sd := fisherSD(rs)
	for p := range theta {
		// Four standard errors (10 to 14 Elo here): the check fails
		// one time in 16,000 for a correct fit.
		if tol := 4 * sd[p]; math.Abs(elo[p]-want[p]) > tol {
			t.Errorf("player %d: %.1f Elo, true %.1f (tolerance %.1f)", p, elo[p], want[p], tol)
		}
		if ci[p][0] > elo[p] || elo[p] > ci[p][1] {
			t.Errorf("player %d: %.1f outside its interval %v", p, elo[p], ci[p])
		}
		// The bootstrap agrees with the asymptotic interval ±1.96 SD
		// within 25% (400 resamples put about 7% of noise on a width).
		w, fw := ci[p][1]-ci[p][0], 2*1.96*sd[p]
		if math.Abs(w/fw-1) > 0.25 {
			t.Errorf("player %d: interval %v is %.1f wide, asymptotic %.1f", p, ci[p], w, fw)
		}
	}
	again, ciAgain := rs.Bootstrap(400, 1)
	if !slices.Equal(again, elo) || !slices.Equal(ciAgain, ci) {
		t.Error("the same games and seed gave another result")
	}
	_, ciOther := rs.Bootstrap(400, 2)
	if slices.Equal(ciOther, ci) {
		t.Error("another bootstrap seed gave the same intervals")
	}
	if !slices.Equal(rs.Elo(), elo) {
		t.Error("Elo and Bootstrap disagree on the point ratings")
	}
}

// fisherSD returns the asymptotic standard deviation of each player's
// Elo rating (centred on the mean) from the observed information.
func fisherSD(rs *RatingSet) []float64 {
	k := rs.players
	theta := rs.fit(rs.ncomp, rs.wins, nil)
	info := make([]float64, k*k)
	cov := make([]float64, k*k)
	for j := range k {
		rs.information(theta, rs.ncomp, info, make([]float64, k))
		e := make([]float64, k)
		e[j] = 1
		col := solveSPD(info, e, k)
		for i := range k {
			cov[i*k+j] = col[i]
		}
	}
	// Centring: e = EloScale·(I - 11ᵀ/k)·theta.
	sd := make([]float64, k)
	for p := range k {
		v := 0.0
		for i := range k {
			for j := range k {
				ci, cj := -1.0/float64(k), -1.0/float64(k)
				if i == p {
					ci++
				}
				if j == p {
					cj++
				}
				v += ci * cov[i*k+j] * cj
			}
		}
		sd[p] = EloScale * math.Sqrt(v)
	}
	return sd
}

// One table of four, the first player winning 40% of the games against
// three equal ones: the maximum-likelihood odds are 2 to 1 against each
// of the others, log10(2)·400 = 120.4 Elo, less a trace of the prior.
func TestRatingClosedForm(t *testing.T) {
	for _, tc := range []struct {
		seats   []int
		pattern []int // the winning seat of game i is pattern[i % len]
		diff    float64
	}{
		{[]int{0, 1, 1, 1}, []int{0, 0, 1, 2, 3}, 400 * math.Log10(2)},
		// Two players alone: 76% wins is 400·log10(76/24) Elo, as Elo's
		// expected score says.
		{[]int{0, 1}, append(slices.Repeat([]int{0}, 76), slices.Repeat([]int{1}, 24)...), 400 * math.Log10(76.0/24)},
	} {
		rs := NewRatingSet(2)
		shares := make([]float64, len(tc.seats))
		for i := range 10000 {
			clear(shares)
			shares[tc.pattern[i%len(tc.pattern)]] = 1
			if err := rs.Add(tc.seats, shares); err != nil {
				t.Fatal(err)
			}
		}
		elo := rs.Elo()
		if d := elo[0] - elo[1]; math.Abs(d-tc.diff) > 1 {
			t.Errorf("seats %v: %.2f Elo apart, want %.2f", tc.seats, d, tc.diff)
		}
		if m := (elo[0] + elo[1]) / 2; math.Abs(m-EloMean) > 1e-9 {
			t.Errorf("mean rating %v", m)
		}
	}
}

// Equal players get overlapping intervals; a player that never wins gets
// a finite rating, the lowest, and one that wins every game the highest;
// a tie shared by two seats counts half to each.
func TestRatingEqualAndExtreme(t *testing.T) {
	rs := syntheticGames(t, []float64{0, 0, 0, 0}, 2000, 4, 3, func(rng *rand.Rand, seats []int) {
		copy(seats, rng.Perm(4))
	})
	_, ci := rs.Bootstrap(300, 9)
	for p := range ci {
		for q := range ci {
			if ci[p][1] < ci[q][0] {
				t.Errorf("equal players %d and %d: intervals %v and %v do not overlap", p, q, ci[p], ci[q])
			}
		}
	}

	rs = NewRatingSet(3)
	for i := range 300 {
		switch i % 3 {
		case 0, 1:
			rs.Add([]int{0, 1, 2}, []float64{1, 0, 0})
		default:
			rs.Add([]int{0, 1, 2}, []float64{0.5, 0, 0.5})
		}
	}
	elo, ci := rs.Bootstrap(200, 1)
	for p, e := range elo {
		if math.IsNaN(e) || math.IsInf(e, 0) || math.IsNaN(ci[p][0]) || math.IsNaN(ci[p][1]) {
			t.Fatalf("non-finite rating %v %v", elo, ci)
		}
	}
	if !(elo[0] > elo[2] && elo[2] > elo[1]) {
		t.Errorf("ratings %v: want winner > half-drawer > never-winner", elo)
	}
	for p := range elo {
		if ci[p][0] > elo[p] || elo[p] > ci[p][1] || ci[p][1]-ci[p][0] < 1 {
			t.Errorf("player %d: %.0f in %v", p, elo[p], ci[p])
		}
	}
	if math.Abs(rs.wins[0]-250) > 1e-9 || math.Abs(rs.wins[2]-50) > 1e-9 {
		t.Errorf("wins %v, want [250 0 50]", rs.wins)
	}
}

// Twenty games all won by one player are no certainty: the interval
// keeps a width (resampling the games themselves would give none).
func TestRatingSeparated(t *testing.T) {
	rs := NewRatingSet(2)
	for range 20 {
		rs.Add([]int{0, 1}, []float64{1, 0})
	}
	elo, ci := rs.Bootstrap(500, 1)
	for p := range elo {
		if w := ci[p][1] - ci[p][0]; w < 100 || ci[p][0] > elo[p] || elo[p] > ci[p][1] {
			t.Errorf("player %d: %.0f in %v", p, elo[p], ci[p])
		}
	}
}

func TestRatingAddErrors(t *testing.T) {
	rs := NewRatingSet(2)
	for _, tc := range []struct {
		seats  []int
		shares []float64
	}{
		{[]int{0}, []float64{1}},
		{[]int{0, 1}, []float64{1}},
		{[]int{0, 2}, []float64{1, 0}},
		{[]int{0, 1}, []float64{0.5, 0.4}},
		{[]int{0, 1}, []float64{1.5, -0.5}},
		{[]int{0, 1}, []float64{math.NaN(), 1}},
	} {
		if err := rs.Add(tc.seats, tc.shares); err == nil {
			t.Errorf("%v %v accepted", tc.seats, tc.shares)
		}
	}
	if rs.Games() != 0 {
		t.Errorf("%d games after refusals", rs.Games())
	}
}

func BenchmarkRatingBootstrap(b *testing.B) {
	rs := NewRatingSet(4)
	rng := rand.New(rand.NewPCG(1, 2))
	shares := make([]float64, 4)
	for range 10000 {
		clear(shares)
		shares[rng.IntN(4)] = 1
		rs.Add([]int{0, 1, 2, 3}, shares)
	}
	for b.Loop() {
		rs.Bootstrap(1000, 1)
	}
}

// The binomial sampler has the binomial distribution: over 20,000 draws
// its mean and variance are within four standard errors of np and
// np(1-p), and for n = 40 (split once into halves, then counted) the
// frequency of every count matches the probability mass (chi-square).
func TestBinomial(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 20000
	for _, tc := range []struct {
		n int
		p float64
	}{{10, 0.3}, {40, 0.5}, {1000, 0.25}, {10000, 0.001}, {100000, 0.97}, {17, 0.9}} {
		xs := make([]float64, draws)
		freq := make([]float64, tc.n+1)
		for i := range xs {
			k := binomial(rng, tc.n, tc.p)
			if k < 0 || k > tc.n {
				t.Fatalf("Bin(%d, %v) drew %d", tc.n, tc.p, k)
			}
			xs[i] = float64(k)
			freq[k]++
		}
		mean, varc := 0.0, 0.0
		for _, x := range xs {
			mean += x
		}
		mean /= draws
		for _, x := range xs {
			varc += (x - mean) * (x - mean)
		}
		varc /= draws - 1
		n := float64(tc.n)
		mu, v := n*tc.p, n*tc.p*(1-tc.p)
		if se := math.Sqrt(v / draws); math.Abs(mean-mu) > 4*se {
			t.Errorf("Bin(%d, %v): mean %.4f, want %.4f ± %.4f", tc.n, tc.p, mean, mu, 4*se)
		}
		// The variance of a sample variance is about 2v²/draws here.
		if se := v * math.Sqrt(2.0/draws); math.Abs(varc-v) > 4*se {
			t.Errorf("Bin(%d, %v): variance %.4f, want %.4f ± %.4f", tc.n, tc.p, varc, v, 4*se)
		}
		if tc.n == 40 {
			chi2, df := 0.0, -1
			for k, f := range freq {
				lg, _ := math.Lgamma(n + 1)
				lk, _ := math.Lgamma(float64(k) + 1)
				lr, _ := math.Lgamma(n - float64(k) + 1)
				e := draws * math.Exp(lg-lk-lr+float64(k)*math.Log(tc.p)+(n-float64(k))*math.Log(1-tc.p))
				if e < 5 {
					continue
				}
				chi2 += (f - e) * (f - e) / e
				df++
			}
			// The 99.9% point of chi-square is below df + 5·sqrt(2df).
			if chi2 > float64(df)+5*math.Sqrt(2*float64(df)) {
				t.Errorf("Bin(40, 0.5): chi-square %.1f on %d degrees of freedom", chi2, df)
			}
		}
	}
}
