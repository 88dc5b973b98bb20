package personality_test

import (
	"testing"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// benchGames plays one full game of the four (seats rotated, default rules,
// 500-round limit) per iteration at one reused table, as a simulation
// worker does; with words, every answer carries speech and thought, taken
// from the game's event log after each action as a viewer would.
func benchGames(b *testing.B, words bool) {
	r := monopolytest.Rules(b, "max_rounds: 500")
	four := []string{"shark", "professor", "hustler", "turtle"}
	var tb arena.Table
	var taken int
	m := arena.Match{Rules: r, Seats: make([]arena.Seat, 4), Words: words}
	if words {
		m.Watch = func(g *monopoly.Game) { taken += len(g.TakeEvents()) }
	}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		for s := range 4 {
			m.Seats[s] = arena.Seat{Bot: four[(s+i)%4]}
		}
		m.Seed = arena.GameSeed(1, i)
		if _, err := tb.Play(m); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if words && taken == 0 {
		b.Fatal("no events")
	}
}

// BenchmarkGameFour is the Decide path: bot-only simulation, no words.
func BenchmarkGameFour(b *testing.B) { benchGames(b, false) }

// BenchmarkGameFourWords is the Answer path: the same games with speech
// and thought for every decision.
func BenchmarkGameFourWords(b *testing.B) { benchGames(b, true) }
