package arena

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gopoly/gopoly/stats"
)

// The lengths counted by length give the mean, median and quantiles
// stats gives from every game's length, exactly, and its interval to
// within 1e-9 of it, for samples of every size from one game.
func TestLengthsAsStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 4, 7, 10, 101, 1000} {
		var l lengths
		xs := make([]float64, n)
		for i := range xs {
			r := 5 + rng.IntN(60) + rng.IntN(60) // repeats, as game lengths do
			l.add(r)
			xs[i] = float64(r)
		}
		got := l.distribution()
		mean, half := stats.MeanCI(xs)
		want := Distribution{Mean: stats.Mean(xs), CI95: got.CI95, Min: stats.Quantile(xs, 0), P10: stats.Quantile(xs, 0.1),
			P25: stats.Quantile(xs, 0.25), Median: stats.Median(xs), P75: stats.Quantile(xs, 0.75), P90: stats.Quantile(xs, 0.9), Max: stats.Quantile(xs, 1)}
		if got != want || l.mean() != mean || l.median() != want.Median {
			t.Errorf("%d games: %+v (mean %v, median %v), want %+v", n, got, l.mean(), l.median(), want)
		}
		if math.Abs(got.CI95-half) > 1e-9*math.Max(1, half) {
			t.Errorf("%d games: interval ±%v, want ±%v", n, got.CI95, half)
		}
	}
	var empty lengths
	if empty.distribution() != (Distribution{}) || empty.mean() != 0 || empty.median() != 0 {
		t.Errorf("no games: %+v", empty.distribution())
	}
}

// retained returns the heap that fill's result keeps, after a collection.
func retained(fill func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := fill()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// flatGames is the number of games of the shorter run of TestTalliesFlat;
// the longer has four times as many.
const flatGames = 50_000

// flatTolerance is how much more the tally of the longer run may keep:
// far below the 8 bytes a game that keeping every game's length took
// (1.2 MB for the 150,000 more games, more with the slice's spare
// capacity), far above the map's few hundred lengths and the
// collector's noise (some 10 kB measured).
const flatTolerance = 256 << 10

// The tallies of a simulation, a tournament and an experiment keep as
// much memory after 4N games as after N: they count the games as they
// finish and keep none of them. The games are made up (a fixed seed's
// lengths and winners), as a run hands them over, so that 200,000 of
// them take a second.
func TestTalliesFlat(t *testing.T) {
	tn := newTournament(t, TournamentConfig{Bots: []string{"baseline", "random"}, Players: 2, Games: 4 * flatGames, Seed: 1})
	e := mustParse(t, smallSpec("summary", 4*flatGames))
	game := func(rng *rand.Rand) (rounds, winner int) { return 10 + rng.IntN(200), rng.IntN(2) }
	for _, tc := range []struct {
		name string
		fill func(games int) any
	}{
		{"sim", func(games int) any {
			var st SimTally
			rng := rand.New(rand.NewPCG(7, 7))
			for range games {
				r, w := game(rng)
				st.Add(GameResult{Rounds: r, Winner: w})
			}
			return &st
		}},
		{"tournament", func(games int) any {
			a := tn.NewTally()
			rng := rand.New(rand.NewPCG(7, 7))
			for i := range games {
				r, w := game(rng)
				if err := a.Add(TournamentGame{Game: i, Entrants: tn.Seating(i, nil), Seating: []string{"", ""}, Winner: w, Rounds: r}); err != nil {
					t.Fatal(err)
				}
			}
			return a
		}},
		{"experiment", func(games int) any {
			a := newSummaryAcc(e)
			rng := rand.New(rand.NewPCG(7, 7))
			line := []byte(`{"variant":"duel"}`)
			for i := range games {
				r, w := game(rng)
				rec := GameRecord{Variant: "duel", Game: i, Winner: w, Rounds: r, Players: []PlayerRecord{{Seat: 0}, {Seat: 1}}}
				if err := a.add(line, &rec); err != nil {
					t.Fatal(err)
				}
			}
			return a
		}},
	} {
		retained(func() any { return tc.fill(1000) }) // what a first run leaves behind is not counted
		short := retained(func() any { return tc.fill(flatGames) })
		long := retained(func() any { return tc.fill(4 * flatGames) })
		t.Logf("%s: %d games keep %d bytes, %d games %d bytes", tc.name, flatGames, short, 4*flatGames, long)
		if long-short > flatTolerance {
			t.Errorf("%s: the tally of %d games keeps %d bytes more than that of %d (tolerance %d)", tc.name, 4*flatGames, long-short, flatGames, flatTolerance)
		}
	}
}
