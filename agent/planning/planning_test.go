package planning_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/planning"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/stats"
)

func spec(t testing.TB, doc string) agent.ParamSpec {
	t.Helper()
	p, err := agent.ParseSeatParams("test", []byte("all:\n  "+strings.ReplaceAll(doc, "\n", "\n  ")))
	if err != nil {
		t.Fatal(err)
	}
	return p.All
}

// fast makes the planners cheap enough for many test games.
const fast = "{rollouts: 4, horizon: 10}"

// play plays one game with the named bots (one per seat; seat 0 with
// spec s) and returns it with its events recorded.
func play(t testing.TB, r *monopoly.Rules, seed uint64, s agent.ParamSpec, names ...string) *monopoly.Game {
	t.Helper()
	g := monopoly.New(r, len(names), seed)
	g.Record(true)
	agents := make([]agent.Agent, len(names))
	for i, n := range names {
		sp := spec(t, fast)
		if i == 0 && !s.Empty() {
			sp = s
		}
		a, err := agent.NewWith(n, sp, i, arena.SeatSeed(seed, i))
		if err != nil {
			t.Fatal(err)
		}
		agents[i] = a
	}
	if _, err := arena.Play(g, agents); err != nil {
		t.Fatalf("seed %d, %v: %v", seed, names, err)
	}
	return g
}

// Games of the new bots end, and every answer is legal (arena.Play fails
// on an illegal one), under the default rules and variants that change
// what a player may do: no auctions, no trades, the Free Parking pot,
// scarce buildings, a timed game, sealed deals, counter-offers, buying
// beyond the cash; two to
// six players, against the other bots, the personalities included.
func TestGamesEndLegally(t *testing.T) {
	variants := []struct{ name, rules string }{
		{"default", ""},
		{"no auctions", "auctions: false"},
		{"no trades", "trades_per_phase: 0"},
		{"jackpot and lesser tax", "free_parking_jackpot: true\nincome_tax: lesser\nmortgaged_group_double_rent: false"},
		{"scarce", "max_houses: 10\nmax_hotels: 2\nstarting_cash: 2500\njail_turns: 1\ntrades_per_phase: 3"},
		{"timed", "max_rounds: 20"},
		{"sealed deals", "deal_protocol: sealed"},
		{"counter-offers", "counter_offers: 5\ntrades_per_turn: 1"},
		{"Monopyly's purchases", "raise_to_buy: true\ndeal_protocol: sealed\nnet_worth: resale"},
	}
	seats := [][]string{
		{"planning", "baseline", "adaptive", "cautious"},
		{"adaptive", "planning"},
		{"planning", "adaptive", "baseline", "random", "cautious", "planning"},
		{"adaptive", "shark", "planning", "hustler", "professor", "turtle"},
	}
	for _, v := range variants {
		r := monopolytest.Rules(t, v.rules)
		if v.name != "timed" {
			r = monopolytest.Rules(t, v.rules+"\nmax_rounds: 300")
		}
		for i, names := range seats {
			t.Run(fmt.Sprintf("%s/%d players", v.name, len(names)), func(t *testing.T) {
				t.Parallel()
				g := play(t, r, uint64(10+i), agent.ParamSpec{}, names...)
				if !g.Over() {
					t.Fatal("the game did not end")
				}
			})
		}
	}
}

// eventLog is a game's events as JSON, to compare two games.
func eventLog(t *testing.T, g *monopoly.Game) string {
	t.Helper()
	data, err := json.Marshal(g.Events())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The same seed gives the same game, event for event.
func TestSameSeedSameGame(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 300")
	names := []string{"planning", "adaptive", "baseline", "cautious"}
	a := eventLog(t, play(t, r, 5, agent.ParamSpec{}, names...))
	b := eventLog(t, play(t, r, 5, agent.ParamSpec{}, names...))
	if a != b {
		t.Fatal("two games with the same seed differ")
	}
	if c := eventLog(t, play(t, r, 6, agent.ParamSpec{}, names...)); c == a {
		t.Fatal("games with different seeds are the same: the comparison sees nothing")
	}
}

// Cheap planners for the tests that play through the arena, which seats
// bots with their defaults.
func init() {
	for _, b := range []string{"planning", "adaptive"} {
		bot, _ := agent.Lookup(b)
		bot.Name += "-test"
		bot.Defaults.Rollouts, bot.Defaults.Horizon = 4, 20
		agent.Register(bot)
	}
}

// A run's results do not depend on the order in which games are played:
// one worker plays them in order at one table (players reset, not
// remade), several interleave them.
func TestResultsIndependentOfOrder(t *testing.T) {
	c := arena.Config{Rules: monopolytest.Rules(t, "max_rounds: 300"), Players: 4, Bots: []string{"adaptive-test", "baseline", "planning-test", "baseline"}, Seed: 9, Games: 12}
	c.Workers = 1
	one, err := arena.Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 3
	three, err := arena.Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Fatalf("1 worker: %+v\n3 workers: %+v", one, three)
	}
	// Game 7 alone, at a fresh table, is game 7 of the run.
	alone, err := c.RunGame(7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if alone != one[7] {
		t.Fatalf("game 7 alone: %+v; in the run: %+v", alone, one[7])
	}
}

// counts tallies seat 0's purchases (bought outright or at auction) over
// games against baselines.
func purchases(t *testing.T, bot string, s agent.ParamSpec, games int) int {
	t.Helper()
	r := monopolytest.Rules(t, "max_rounds: 300")
	n := 0
	for seed := range uint64(games) {
		g := play(t, r, 100+seed, s, bot, "baseline", "baseline", "baseline")
		for _, e := range g.Events() {
			if (e.Kind == monopoly.EvBuy || e.Kind == monopoly.EvAuctionWon) && e.Player == 0 {
				n++
			}
		}
	}
	return n
}

// Parameter overrides reach the players: reserves larger than any cash
// stop all purchases.
func TestParameterOverrides(t *testing.T) {
	never := spec(t, "{rollouts: 4, cash_reserve: 100000, complete_reserve: 100000}")
	for _, bot := range []string{"planning", "adaptive", "cautious"} {
		if n := purchases(t, bot, never, 4); n != 0 {
			t.Errorf("%s with reserves of $100,000 bought %d properties", bot, n)
		}
		if n := purchases(t, bot, spec(t, fast), 4); n < 8 {
			t.Errorf("%s with its own reserves bought only %d properties in 4 games: the test sees nothing", bot, n)
		}
	}
}

// A seat's parameters are its bot's defaults with the seat's overrides,
// drawn per game when they have a spread: the planners keep what they are
// given.
func TestSeatParameters(t *testing.T) {
	s := spec(t, "{rollouts: 7, horizon: {mean: 20, std: 5}}")
	seen := map[int]bool{}
	for seed := range uint64(20) {
		a, err := agent.NewWith("planning", s, 0, seed)
		if err != nil {
			t.Fatal(err)
		}
		p := a.(*planning.Planner).P
		if p.Rollouts != 7 || p.WinWeight != planning.PlanningParams().WinWeight {
			t.Fatalf("params %+v: rollouts not 7 or the default win weight lost", p)
		}
		seen[p.Horizon] = true
	}
	if len(seen) < 5 {
		t.Fatalf("horizon drawn from mean 20, std 5 took only %d values in 20 seats", len(seen))
	}
	b, _ := agent.NewWith("adaptive", agent.ParamSpec{}, 0, 1)
	if p := b.(*planning.Planner).P; p != planning.AdaptiveParams() {
		t.Fatalf("adaptive without overrides has %+v, want its defaults", p)
	}
}

var strengthGames = flag.Int("strength.games", 0, "games of TestStrength (0: skip); e.g. 2000")

// The planners beat three baselines. With a fixed seed and rotating seats
// (the bot in each seat equally often), planning with 8 rollouts per
// candidate must win a share whose 95% Wilson interval lies above the 25%
// of parity. It wins 62% of 1,500 games with 8 rollouts; the interval of
// 64 games stays above 25% down to 23 wins (36%), a wide margin.
// -strength.games=N measures both bots at their defaults over N games
// instead (go test ./agent/planning -run TestStrength -strength.games=2000 -v).
func TestStrength(t *testing.T) {
	games, bots, p := 64, []string{"planning"}, spec(t, "{rollouts: 8}")
	if *strengthGames > 0 {
		games, bots, p = *strengthGames, []string{"planning", "adaptive"}, agent.ParamSpec{}
	}
	r := monopolytest.Rules(t, "max_rounds: 500")
	for _, bot := range bots {
		// Game i seats the bot in seat i mod 4, among baselines.
		wins := 0
		err := arena.Run(context.Background(), games, 0, func(i int, tb *arena.Table) (bool, error) {
			seats := []arena.Seat{{Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}}
			seats[i%4] = arena.Seat{Bot: bot, Params: p}
			res, err := tb.Play(arena.Match{Rules: r, Seats: seats, Seed: arena.GameSeed(1, i)})
			return res.Winner == i%4, err
		}, func(_ int, won bool) error {
			if won {
				wins++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := stats.Wilson(float64(wins), games)
		t.Logf("%s vs 3 baseline: %d of %d games, %.1f%% [%.1f, %.1f]", bot, wins, games, 100*float64(wins)/float64(games), 100*lo, 100*hi)
		if lo <= 0.25 {
			t.Errorf("%s: 95%% interval [%.3f, %.3f] reaches parity", bot, lo, hi)
		}
	}
}

// No planner makes or accepts a lopsided gift in play: every trade that
// planning and adaptive players propose, counter or accept, in games with
// the baseline and the cautious player under each protocol, loses at most
// mildly by the neutral valuation (monopolytest.Judge).
func TestNoLopsidedGiftsInPlay(t *testing.T) {
	var j monopolytest.Judge
	for _, doc := range []string{"max_rounds: 300", "max_rounds: 300\ndeal_protocol: sealed", "max_rounds: 300\ncounter_offers: 5"} {
		r := monopolytest.Rules(t, doc)
		for i := range 20 {
			seed := arena.GameSeed(23, i)
			names := []string{"planning", "adaptive", "baseline", "cautious"}
			g := monopoly.New(r, 4, seed)
			agents := make([]agent.Agent, 4)
			for s := range 4 {
				sp := agent.ParamSpec{}
				if n := names[(s+i)%4]; n == "planning" || n == "adaptive" {
					sp = spec(t, fast)
				}
				var err error
				if agents[s], err = agent.NewWith(names[(s+i)%4], sp, s, arena.SeatSeed(seed, s)); err != nil {
					t.Fatal(err)
				}
			}
			for !g.Over() {
				d := g.Pending()
				a := agents[d.Player].Decide(g.View(d.Player), d)
				// The baseline's and the cautious player's trades are
				// judged in their own package's test.
				if name := names[(d.Player+i)%4]; name == "planning" || name == "adaptive" {
					j.Check(t, g, a, fmt.Sprintf("%s (%q), game %d", name, doc, i))
				}
				if err := g.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if j.Proposed < 200 || j.Accepted < 50 {
		t.Fatalf("%d proposals and counter-offers, %d acceptances by planners: too few to judge", j.Proposed, j.Accepted)
	}
	t.Logf("%d trades by planners judged, %d of them acceptances", j.Proposed+j.Accepted, j.Accepted)
}
