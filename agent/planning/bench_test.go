package planning_test

import (
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/planning"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// midGameBuy plays baseline bots until seat 0 is offered a property in
// the middle of the game: a decision the planner evaluates by rollouts.
func midGameBuy(tb testing.TB) *monopoly.Game {
	tb.Helper()
	for seed := uint64(1); ; seed++ {
		g := monopoly.New(monopoly.DefaultRules(), 4, seed)
		b := bots.NewBaseline(bots.BaselineParams())
		for !g.Over() {
			d := g.Pending()
			if d.Kind == monopoly.DecisionBuy && d.Player == 0 && g.Round() >= 8 && g.Cash(0) > 2*d.Amount {
				return g
			}
			if err := g.Apply(b.Decide(g.View(d.Player), d)); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// BenchmarkPlanningDecision is one planned decision: whether to buy a
// property in the middle of a game, by 2 × Rollouts rollouts of Horizon
// rounds (the defaults: 64 rollouts of 20 rounds).
func BenchmarkPlanningDecision(b *testing.B) {
	g := midGameBuy(b)
	pl := planning.NewPlanner(planning.PlanningParams(), 1)
	v, d := g.View(0), g.Pending()
	b.ReportAllocs()
	for b.Loop() {
		pl.Decide(v, d)
	}
	b.ReportMetric(float64(pl.Stats().Rollouts)/float64(b.N), "rollouts/op")
}

func benchGame(b *testing.B, bot string) {
	r := monopolytest.Rules(b, "max_rounds: 500")
	// Rotating seats: the bot plays seat i mod 4 in game i.
	cfgs := make([]arena.Config, 4)
	for s := range cfgs {
		bots := []string{"baseline", "baseline", "baseline", "baseline"}
		bots[s] = bot
		cfgs[s] = arena.Config{Rules: r, Players: 4, Bots: bots, Seed: 7, Games: 1}
	}
	var tables [4]arena.Table
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cfgs[i%4].RunGame(i, &tables[i%4]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPlanningGame is one full game of planning against three
// baseline bots (seats rotating), at reused tables.
func BenchmarkPlanningGame(b *testing.B) { benchGame(b, "planning") }

// BenchmarkAdaptiveGame is one full game of adaptive against three
// baseline bots (seats rotating), at reused tables.
func BenchmarkAdaptiveGame(b *testing.B) { benchGame(b, "adaptive") }

// A planned decision allocates nothing once the planner has made its
// games: forks, rollouts and players are all reused.
func TestPlanningDecisionAllocs(t *testing.T) {
	g := midGameBuy(t)
	pl := planning.NewPlanner(planning.PlanningParams(), 1)
	v, d := g.View(0), g.Pending()
	pl.Decide(v, d)
	if n := testing.AllocsPerRun(3, func() { pl.Decide(v, d) }); n != 0 {
		t.Fatalf("a planned decision: %.0f allocations", n)
	}
}
