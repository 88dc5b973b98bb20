package worth

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// The landing model is measured once per rules, whoever asks and however
// many games ask at once, and is the same measurement every time.
func TestLandingModel(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 300")
	models := make(chan *Landing, 8)
	for range 8 {
		go func() { models <- LandingOf(r) }()
	}
	first := <-models
	for range 7 {
		if m := <-models; m != first {
			t.Fatal("two measurements of the same rules")
		}
	}
	if again := measureLanding(r); *again != *first {
		t.Fatal("the measurement is not deterministic")
	}
	// What the Professor quotes: Illinois Avenue is the street a roll
	// ends on most (3.2% by 20M rolls, docs/figures.md), and the oranges beat the
	// browns per dollar.
	best, prob := -1, 0.0
	for _, sq := range r.OwnableSquares() {
		if r.Squares[sq].Kind == monopoly.KindStreet && first.Prob[sq] > prob {
			best, prob = sq, first.Prob[sq]
		}
	}
	if ill, _ := r.SquareIndex("Illinois Avenue"); best != ill || prob < 0.030 || prob > 0.034 {
		t.Errorf("most landed street %s at %.4f, want Illinois Avenue near 0.032", r.Squares[best].Name, prob)
	}
	ny, _ := r.SquareIndex("New York Avenue")
	med, _ := r.SquareIndex("Mediterranean Avenue")
	if first.Rel[ny] <= 1 || first.Rel[med] >= 1 {
		t.Errorf("relative yields: New York %.2f, Mediterranean %.2f; want above and below the median", first.Rel[ny], first.Rel[med])
	}
}
