package monopoly_test

import (
	"encoding/json"
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// benchGame is a position some way into a baseline game, for the
// benchmarks that copy or write one.
func benchGame(b *testing.B) *monopoly.Game {
	r := monopolytest.Rules(b, "max_rounds: 500")
	g := monopoly.New(r, 4, 11)
	as := seatAgents([]string{"baseline"}, 4, 11)
	for n := 0; n < 400 && !g.Over(); n++ {
		if err := g.Apply(decide(g, as)); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkRandomGame plays one whole 4-player game of random bots
// (500-round limit) per iteration, bots included.
func BenchmarkRandomGame(b *testing.B) {
	r := monopolytest.Rules(b, "max_rounds: 500")
	seed := uint64(0)
	actions := 0
	b.ReportAllocs()
	for b.Loop() {
		seed++
		g := monopoly.New(r, 4, seed)
		as := make([]*bots.Random, 4)
		for i := range as {
			as[i] = bots.NewRandom(seed*4 + uint64(i))
		}
		for !g.Over() {
			d := g.Pending()
			if err := g.Apply(as[d.Player].Decide(g.View(d.Player), d)); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/op")
}

// cloneSink keeps clones alive, as a planner's would be.
var cloneSink *monopoly.Game

// BenchmarkClone copies a game in play.
func BenchmarkClone(b *testing.B) {
	g := benchGame(b)
	b.ReportAllocs()
	for b.Loop() {
		cloneSink = g.Clone()
	}
}

// BenchmarkCopyFrom is the allocation-free copy planners use.
func BenchmarkCopyFrom(b *testing.B) {
	g := benchGame(b)
	var c monopoly.Game
	b.ReportAllocs()
	for b.Loop() {
		c.CopyFrom(g)
	}
}

// BenchmarkMarshalJSON writes a game in play, rules included.
func BenchmarkMarshalJSON(b *testing.B) {
	g := benchGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalGame reads a game in play back, rules included.
func BenchmarkUnmarshalGame(b *testing.B) {
	data, err := json.Marshal(benchGame(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := monopoly.UnmarshalGame(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTurnLoopAllocs checks that once a game is set up, playing its turns
// with baseline bots and the event log off allocates nothing: the engine's
// hot path and the bots' answers are allocation-free.
func TestTurnLoopAllocs(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 1000")
	const games = 8
	gs := make([]*monopoly.Game, games)
	as := make([][]decider, games)
	for i := range gs {
		gs[i] = monopoly.New(r, 4, uint64(i+1))
		as[i] = seatAgents([]string{"baseline"}, 4, uint64(i+1))
	}
	cur, turns, actions := 0, 0, 0
	var failed error
	playTurn := func() {
		for cur < games && gs[cur].Over() {
			cur++
		}
		if cur == games || failed != nil {
			return
		}
		g := gs[cur]
		turn := g.Turn()
		for !g.Over() && g.Turn() == turn {
			d := g.Pending()
			if err := g.Apply(as[cur][d.Player].Decide(g.View(d.Player), d)); err != nil {
				failed = err
				return
			}
			actions++
		}
		turns++
	}
	allocs := testing.AllocsPerRun(400, playTurn)
	if failed != nil {
		t.Fatal(failed)
	}
	if cur == games {
		t.Fatalf("the games ran out after %d turns", turns)
	}
	if actions < 2*turns {
		t.Fatalf("only %d actions in %d turns", actions, turns)
	}
	if allocs != 0 {
		t.Errorf("%.2f allocations per turn (%d turns, %d actions), want 0", allocs, turns, actions)
	}
}

// TestLegalActionsAllocs checks that enumerating the legal actions, which
// random players and planners do at every decision, allocates nothing
// beyond the caller's buffer.
func TestLegalActionsAllocs(t *testing.T) {
	r := monopoly.DefaultRules()
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Players: []monopoly.PlayerSetup{{Cash: 1500}, {Cash: 1500}}}
	for _, sq := range []int{1, 3, 5, 6, 8, 9, 12, 15} {
		s.Properties = append(s.Properties, monopoly.PropertySetup{Square: sq, Owner: 0})
	}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]monopoly.Action, 0, 64)
	allocs := testing.AllocsPerRun(100, func() { buf = g.LegalActions(buf[:0]) })
	if len(buf) < 8 {
		t.Fatalf("only %d legal actions for a player with 8 properties", len(buf))
	}
	if allocs != 0 {
		t.Errorf("LegalActions allocates %.0f times for %d legal actions, want 0", allocs, len(buf))
	}
}
