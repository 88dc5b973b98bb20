package deal

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRandomGame plays whole random-vs-random games on the paper's
// deck: the engine's hot path (allocations must stay at zero).
func BenchmarkRandomGame(b *testing.B) {
	r := MustRules(Paper())
	seats := [2]Seat{{Agent: Random{}}, {Agent: Random{}}}
	var g Game
	var rng rand.PCG
	i := uint64(0)
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		g.Reset(r, i, int(i&1))
		rng.Seed(i, 1)
		PlayOut(&g, &seats, &rng)
		turns += g.Turn()
		i++
	}
	b.ReportMetric(float64(turns)/float64(i), "turns/game")
}

// BenchmarkDecision measures one decision of a random game: key, choice,
// resolution and application, on copies of a mid-game position.
func BenchmarkDecision(b *testing.B) {
	r := MustRules(Paper())
	start := New(r, 42, 0)
	seats := [2]Seat{{Agent: Random{}}, {Agent: Random{}}}
	rng := rand.NewPCG(1, 2)
	for k := 0; k < 6; k++ {
		is := start.InfoSet()
		a, _ := start.Resolve(seats[is.Player].Agent.Choose(is, rng), Greedy)
		start.apply(a)
	}
	g := start
	b.ReportAllocs()
	for b.Loop() {
		if g.Over() {
			g = start
		}
		is := g.InfoSet()
		a, _ := g.Resolve(Random{}.Choose(is, rng), Greedy)
		g.apply(a)
	}
}

// BenchmarkTrainingGame runs one training game with the paper's settings
// (20 rollouts per action) on tables trained for 50 games.
func BenchmarkTrainingGame(b *testing.B) { benchmarkTrainingGame(b, DefaultParams()) }

// BenchmarkTrainingGameSituation is BenchmarkTrainingGame under the
// Situation abstraction and the smart resolver (the bundled policy's
// settings): every simulated decision also computes the key's facts.
func BenchmarkTrainingGameSituation(b *testing.B) {
	p := DefaultParams()
	p.Abstraction, p.Resolver = Situation, Smart
	benchmarkTrainingGame(b, p)
}

func benchmarkTrainingGame(b *testing.B, p Params) {
	tr, err := NewTrainer(Paper(), p)
	if err != nil {
		b.Fatal(err)
	}
	tr.Workers = 1
	w := tr.newWorker(0)
	for i := 0; i < 50; i++ {
		w.tab.CopyFrom(tr.tab)
		w.play(i)
		tr.apply(w.events)
	}
	i := 50
	b.ReportAllocs()
	for b.Loop() {
		w.tab.CopyFrom(tr.tab)
		w.play(i)
		i++
	}
}
