package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/stats"
)

func testConfig(t *testing.T, workers int) Config {
	t.Helper()
	r := monopolytest.Rules(t, "max_rounds: 150")
	return Config{Rules: r, Players: 4, Bots: []string{"baseline", "random"}, Seed: 9, Games: 120, Workers: workers}
}

// The results of a run are a function of its seed alone: the same games,
// in the same order, whatever the number of workers, and each the game a
// table of its own plays (workers reuse theirs).
func TestSimulateSameForAnyWorkers(t *testing.T) {
	c := testConfig(t, 1)
	one, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range one {
		if alone, _ := c.RunGame(i, nil); alone != r {
			t.Fatalf("game %d on a reused table: %+v; alone: %+v", i, r, alone)
		}
	}
	for _, w := range []int{2, 5} {
		many, err := Simulate(context.Background(), testConfig(t, w), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one, many) {
			t.Fatalf("%d workers give other results than one", w)
		}
	}
}

func TestSummarizeAddsUp(t *testing.T) {
	c := testConfig(t, 2)
	res, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(c, res)
	wins := 0
	for _, w := range s.Wins {
		wins += w
	}
	var decisions int64
	for _, r := range res {
		// Rolls wait for an answer (go on, or a jail choice), all but a
		// card's roll for utility rent: decisions outnumber them.
		if r.Decisions < r.Rolls {
			t.Fatalf("a game of %d rolls counted %d decisions", r.Rolls, r.Decisions)
		}
		decisions += r.Decisions
	}
	if s.Decisions != decisions {
		t.Fatalf("summary counts %d decisions, the games %d", s.Decisions, decisions)
	}
	if s.Games != len(res) || s.Finished+s.Capped != s.Games || wins+s.Ties != s.Games {
		t.Fatalf("games %d, finished %d + capped %d, wins %d + ties %d", s.Games, s.Finished, s.Capped, wins, s.Ties)
	}
	if s.ByBot["baseline"].Seats != 2 || s.ByBot["baseline"].Wins+s.ByBot["random"].Wins != wins {
		t.Fatalf("per-bot totals %+v", s.ByBot)
	}
	for _, sw := range s.WinRates {
		if sw.CI95[0] > sw.Rate || sw.Rate > sw.CI95[1] {
			t.Fatalf("seat %d: rate %.3f outside its interval %v", sw.Seat, sw.Rate, sw.CI95)
		}
	}
}

// A cancelled run stops and returns a prefix of the games, in order.
func TestSimulateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := testConfig(t, 2)
	var n atomic.Int32 // progress is called from the workers
	res, err := Simulate(ctx, c, func() {
		if n.Add(1) == 10 {
			cancel()
		}
	})
	if err == nil || len(res) >= c.Games {
		t.Fatalf("cancelled run: %d games, err %v", len(res), err)
	}
	full, _ := Simulate(context.Background(), c, nil)
	if !slices.Equal(res, full[:len(res)]) {
		t.Fatal("the games kept from a cancelled run differ from the full run's")
	}
}

// A game stopped at the round limit reports the rounds it played.
func TestCappedRounds(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 20")
	c := Config{Rules: r, Players: 4, Bots: []string{"baseline"}, Seed: 3, Games: 30}
	res, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	capped := 0
	for _, g := range res {
		if g.Rounds > 20 || g.Capped != (g.Rounds == 20) {
			t.Fatalf("a game of %d rounds, capped %v, under a 20-round limit", g.Rounds, g.Capped)
		}
		if g.Capped {
			capped++
		}
	}
	if capped == 0 {
		t.Fatal("no game reached the limit: nothing checked")
	}
}

// A run of more games than could ever be held in memory plays until its
// context stops it: nothing is set aside per game up front.
func TestSimulateEnormousRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := testConfig(t, 2)
	c.Games = math.MaxInt
	var n atomic.Int32
	res, err := Simulate(ctx, c, func() {
		if n.Add(1) == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || len(res) < 10 {
		t.Fatalf("%d games, err %v; want at least 10 and the context's error", len(res), err)
	}
}

// A SimTally sums a run as Summarize sums its games, the median and mean of
// the rounds included, for odd and even numbers of games, and adds a
// game without allocating: a run's memory does not grow with its games.
func TestTally(t *testing.T) {
	c := testConfig(t, 2)
	all, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 2, 7, 8, len(all)} {
		res := all[:n]
		var tl SimTally
		rounds := make([]float64, n)
		for i, r := range res {
			tl.Add(r)
			rounds[i] = float64(r.Rounds)
		}
		s := tl.Summary(c)
		if s.Games != n || s.RoundsMean != stats.Mean(rounds) || s.RoundsMed != stats.Median(rounds) {
			t.Errorf("%d games: tally of %d, rounds mean %v median %v; want %v and %v", n, s.Games, s.RoundsMean, s.RoundsMed, stats.Mean(rounds), stats.Median(rounds))
		}
		if got, want := fmt.Sprint(s), fmt.Sprint(Summarize(c, res)); got != want {
			t.Errorf("%d games: tally %s, Summarize %s", n, got, want)
		}
	}
	var tl SimTally
	for _, r := range all {
		tl.Add(r) // every length of the run seen once
	}
	i := 0
	if allocs := testing.AllocsPerRun(1000, func() { tl.Add(all[i%len(all)]); i++ }); allocs != 0 {
		t.Errorf("SimTally.Add: %v allocations per game", allocs)
	}
}

// SimulateEach hands the games over in game order whatever the workers,
// and stops with a prefix when its context is cancelled.
func TestSimulateEach(t *testing.T) {
	c := testConfig(t, 1)
	want, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 3} {
		c.Workers = w
		ctx, cancel := context.WithCancel(context.Background())
		var got []GameResult
		err := SimulateEach(ctx, c, func(i int, r GameResult) {
			if i != len(got) {
				t.Fatalf("%d workers: game %d handed over after %d games", w, i, len(got))
			}
			if got = append(got, r); len(got) == 50 {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) || len(got) < 50 || !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("%d workers: %d games, %v; want a prefix of at least 50 and the context's error", w, len(got), err)
		}
	}
}
