package deal

import "testing"

// The bundled policy loads and plays as a trained agent: it beats the
// random baseline in nearly every game (0.99 measured over 2,000; 300
// games with seed 1 leave a margin of several standard errors at 0.95).
func TestBundledPolicy(t *testing.T) {
	ck, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := EvaluateAgainst(ck.Rules(), ck.Policy().Seat(), "random", 300, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if ev.First.Mean < 0.95 || ev.Alternating.Mean < 0.95 {
		t.Fatalf("the bundled policy wins %.3f first and %.3f alternating against random, want 0.95", ev.First.Mean, ev.Alternating.Mean)
	}
}
