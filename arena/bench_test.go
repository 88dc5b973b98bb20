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
func BenchmarkGame(b *testing.B) { benchGames(b, benchRules(b), "baseline") }

// benchGames plays one 4-player game per iteration of bots in fixed seats
// at one table, under rules r.
func benchGames(b *testing.B, r *monopoly.Rules, bots ...string) {
	c := Config{Rules: r, Players: 4, Bots: bots, Seed: 7, Games: 1}
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
	seed := uint64(1)
	g := monopoly.New(r, 4, seed)
	agents := make([]agent.Agent, 4)
	for s := range agents {
		a, err := agent.New("baseline", s, seed+uint64(s))
		if err != nil {
			b.Fatal(err)
		}
		agents[s] = a
	}
	// A finished game is reset in place, as a simulation worker resets
	// its table: making a new game and bots there (about one turn in
	// 260) showed as some 36 B/op that allocs/op rounded to 0.
	fresh := func() {
		seed++
		g.Reset(seed)
		for s, a := range agents {
			a.(agent.Resetter).Reset(s, seed+uint64(s))
		}
	}
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

// BenchmarkGameSpeedDie is BenchmarkGame under the speed die.
func BenchmarkGameSpeedDie(b *testing.B) {
	r, err := benchRules(b).WithOverrides("bench", []byte("speed_die: true"))
	if err != nil {
		b.Fatal(err)
	}
	benchGames(b, r, "baseline")
}
