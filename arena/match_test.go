package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

func paramSpec(t *testing.T, src string) agent.ParamSpec {
	t.Helper()
	p, err := agent.ParseSeatParams("test", []byte("all:\n  "+strings.ReplaceAll(src, "\n", "\n  ")))
	if err != nil {
		t.Fatal(err)
	}
	return p.All
}

// A table that changes seating, bots and parameters from game to game
// plays each game as a fresh table would: players are reused only when
// they are the same bot with the same parameters.
func TestTableReuseAcrossSeatings(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 120")
	rich := paramSpec(t, "{cash_reserve: 900}")
	drawn := paramSpec(t, "{cash_reserve: {mean: 300, std: 200}}")
	seatings := [][]Seat{
		{{Bot: "baseline"}, {Bot: "random"}, {Bot: "baseline", Params: rich}},
		{{Bot: "random"}, {Bot: "baseline"}, {Bot: "baseline"}},
		{{Bot: "baseline", Params: rich}, {Bot: "baseline", Params: drawn}, {Bot: "baseline"}, {Bot: "random"}},
		{{Bot: "baseline", Params: drawn}, {Bot: "baseline", Params: drawn}, {Bot: "baseline"}, {Bot: "random"}},
	}
	var reused Table
	for i := range 24 {
		m := Match{Rules: r, Seats: seatings[i%len(seatings)], Seed: uint64(i + 1)}
		got, err := reused.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		var fresh Table
		want, err := fresh.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || !reused.Game().SameState(fresh.Game()) {
			t.Fatalf("game %d on a reused table: %+v; fresh: %+v", i, got, want)
		}
	}
}

// A watcher sees every event of the game, and words are recorded only
// when asked for.
func TestMatchWatch(t *testing.T) {
	var events []monopoly.Event
	m := Match{Rules: monopoly.DefaultRules(), Seats: []Seat{{Bot: "baseline"}, {Bot: "baseline"}}, Seed: 5,
		Watch: func(g *monopoly.Game) { events = append(events, g.TakeEvents()...) }}
	var tb Table
	res, err := tb.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, e := range events {
		if e.Kind == monopoly.EvTurnStart {
			turns++
		}
	}
	if last := events[len(events)-1]; last.Kind != monopoly.EvGameOver || int(last.Player) != res.Winner {
		t.Fatalf("last event %v, winner %d", last.Kind, res.Winner)
	}
	if turns < res.Rounds {
		t.Fatalf("%d turn starts seen in %d rounds", turns, res.Rounds)
	}
	if tb.Game().Recording() {
		t.Fatal("the table's game still records after the match")
	}
}

// Run hands results over in job order whatever the workers, and stops at
// the first error with a prefix emitted.
func TestRunOrderAndErrors(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		var got []int
		err := Run(context.Background(), 50, workers, func(i int, _ *Table) (int, error) { return i * i, nil },
			func(i, r int) error {
				if r != i*i || i != len(got) {
					t.Fatalf("job %d handed over out of order", i)
				}
				got = append(got, r)
				return nil
			})
		if err != nil || len(got) != 50 {
			t.Fatalf("%d workers: %d results, %v", workers, len(got), err)
		}
	}
	// The error is that of the first failed job in job order, and every
	// job before it is emitted, however the workers meet them: job 40
	// fails at once, job 30 after the jobs before it.
	for _, workers := range []int{1, 2, 7} {
		var emitted []int
		err := Run(context.Background(), 100, workers, func(i int, _ *Table) (int, error) {
			switch i {
			case 30:
				time.Sleep(5 * time.Millisecond)
				return 0, fmt.Errorf("boom %d", i)
			case 40:
				return 0, fmt.Errorf("boom %d", i)
			case 29:
				time.Sleep(10 * time.Millisecond) // still under way when job 40 fails
			}
			return i, nil
		}, func(i, _ int) error { emitted = append(emitted, i); return nil })
		if err == nil || err.Error() != "boom 30" || len(emitted) != 30 {
			t.Fatalf("%d workers: error %v after %d results, want boom 30 after 30", workers, err, len(emitted))
		}
		for i, e := range emitted {
			if e != i {
				t.Fatalf("emitted %v: not a prefix", emitted)
			}
		}
	}
}

// A run of math.MaxInt jobs that fails stops there: the job counter
// does not wrap from the last job into negative ones, which would be
// played, and the error is the failed job's.
func TestRunEnormousFails(t *testing.T) {
	var negative atomic.Bool
	err := Run(context.Background(), math.MaxInt, 2, func(i int, _ *Table) (int, error) {
		switch {
		case i < 0:
			negative.Store(true)
			return 0, fmt.Errorf("job %d", i)
		case i == 0:
			time.Sleep(5 * time.Millisecond) // the other worker goes on meanwhile
			return 0, errors.New("job 0 fails")
		}
		return i, nil
	}, func(int, int) error { return nil })
	if err == nil || err.Error() != "job 0 fails" || negative.Load() {
		t.Fatalf("error %v, negative jobs played: %v; want job 0's error and none", err, negative.Load())
	}
}
