package arena

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gopoly/gopoly/monopoly/monopolytest"
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
