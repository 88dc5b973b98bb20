package arena

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent/agenttest"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// A game that would never end (no round limit, no bankruptcies) is
// adjourned after MaxDecisions as a timed game: recorded as capped and
// stalled, won by the richest, the same on every replay; the run goes on.
func TestStalledGameAdjourned(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 0")
	c := Config{Rules: r, Players: 3, Bots: []string{"test-idle"}, Seed: 4, Games: 2, Workers: 2}
	res, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatalf("a stalled game aborted the run: %v", err)
	}
	if len(res) != 2 {
		t.Fatalf("%d results", len(res))
	}
	for i, g := range res {
		if !g.Capped || !g.Stalled || g.Decisions != MaxDecisions || g.Rounds < 1000 {
			t.Errorf("game %d: %+v, want capped and stalled after %d decisions", i, g, MaxDecisions)
		}
	}
	var tb Table
	again, err := c.RunGame(1, &tb)
	if err != nil || again != res[1] {
		t.Errorf("replayed: %+v (%v), first %+v", again, err, res[1])
	}
	// The winner is the richest, as at a round limit.
	g := tb.Game()
	best := -1
	for p := range 3 {
		best = max(best, g.NetWorth(p))
	}
	if w := again.Winner; w >= 0 && g.NetWorth(w) != best || !g.Over() {
		t.Errorf("winner %d with net worth %d, best %d", w, g.NetWorth(max(w, 0)), best)
	}
	if s := Summarize(c, res); s.Capped != 2 || s.Stalled != 2 || s.Finished != 0 {
		t.Errorf("summary: %d capped, %d stalled, %d finished", s.Capped, s.Stalled, s.Finished)
	}
}

// A bot's illegal action stops a run with an error naming the game, its
// seed, the seat and the bot, and the games finished before it are kept.
func TestIllegalActionReported(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 30")
	c := Config{Rules: r, Players: 2, Bots: []string{"test-idle", "test-faulty"}, Seed: 1, Games: 40, Workers: 2}
	first := -1
	for i := range c.Games {
		if agenttest.Fails(1, SeatSeed(GameSeed(c.Seed, i), 1)) {
			first = i
			break
		}
	}
	if first < 1 {
		t.Fatalf("the first faulty game is %d: pick another seed", first)
	}
	res, err := Simulate(context.Background(), c, nil)
	var se *SeatError
	if !errors.As(err, &se) || se.Seat != 1 || se.Bot != "test-faulty" {
		t.Fatalf("error %v, want a SeatError of seat 1 (test-faulty)", err)
	}
	want := "arena: game " + itoa(first) + " (seed " + utoa(GameSeed(c.Seed, first)) + "): seat 1 (test-faulty): monopoly: illegal unmortgage"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
	if len(res) != first {
		t.Errorf("%d games kept, want the %d before the faulty one", len(res), first)
	}
}

func itoa(i int) string    { return strconv.Itoa(i) }
func utoa(u uint64) string { return strconv.FormatUint(u, 10) }
