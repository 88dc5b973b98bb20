package arena

import (
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// benchRules are the rules of the benchmarks: games end by round 500.
func benchRules(b *testing.B) *monopoly.Rules { return monopolytest.Rules(b, "max_rounds: 500") }

// BenchmarkGame plays one full 4-player game of baseline bots (default
// rules, 500-round limit) per iteration, bots included, at one table as a
// simulation worker does.
func BenchmarkGame(b *testing.B) { benchGames(b, "baseline") }

// benchGames plays one 4-player game per iteration of bots in fixed seats
// at one table.
func benchGames(b *testing.B, bots ...string) {
	c := Config{Rules: benchRules(b), Players: 4, Bots: bots, Seed: 7, Games: 1}
	var t Table
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.RunGame(i, &t); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkTurn measures one turn (every decision from one turn start to
// the next) of baseline bots, reusing games so that only turns count.
func BenchmarkTurn(b *testing.B) {
	r := benchRules(b)
	var g *monopoly.Game
	var agents []agent.Agent
	seed := uint64(0)
	fresh := func() {
		seed++
		g = monopoly.New(r, 4, seed)
		agents = agents[:0]
		for s := range 4 {
			a, _ := agent.New("baseline", s, seed+uint64(s))
			agents = append(agents, a)
		}
	}
	fresh()
	b.ReportAllocs()
	for b.Loop() {
		if g.Over() {
			fresh() // about one turn in 260: included in the figure
		}
		turn := g.Turn()
		for !g.Over() && g.Turn() == turn {
			d := g.Pending()
			if err := g.Apply(agents[d.Player].Decide(g.View(d.Player), d)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
