package deal

import "testing"

// The bundled policy loads and plays as a trained agent: it beats the
// random baseline in nearly every game (0.99 measured over 20,000; 300
// games with seed 1 leave a margin of several standard errors at 0.95).
func TestBundledPolicy(t *testing.T) {
	ck, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	if ck.Params.Abstraction != Situation || ck.Params.Resolver != Smart {
		t.Fatalf("bundled policy trained with %s and %s", ck.Params.Abstraction, ck.Params.Resolver)
	}
	ev, err := EvaluateAgainst(ck.Rules(), ck.Policy().Seat(), "random", 300, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if ev.First.Mean < 0.95 || ev.Alternating.Mean < 0.95 {
		t.Fatalf("the bundled policy wins %.3f first and %.3f alternating against random, want 0.95", ev.First.Mean, ev.Alternating.Mean)
	}
}

// The bundled agent beats the risk-aware baseline clearly in both start
// settings: 20,000 games per setting with seeds 1..20,000 (not the
// README's evaluation seeds), standard error about 0.002 first and 0.0025
// alternating. On these games it scores 0.915 and 0.865; the paper's
// intent-only policy, which it replaced, 0.899 and 0.840, and the
// untrained agent 0.37 and 0.31. The bars sit halfway, about four
// standard errors from either side, so a policy that regresses to the
// old level fails, and a retrained one as good as this passes.
func TestBundledBeatsRiskAware(t *testing.T) {
	ck, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := EvaluateAgainst(ck.Rules(), ck.Policy().Seat(), "risk-aware", 20000, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("vs risk-aware: first %.4f %v, alternating %.4f %v", ev.First.Mean, ev.First.CI95, ev.Alternating.Mean, ev.Alternating.CI95)
	if ev.First.Mean < 0.907 || ev.Alternating.Mean < 0.852 {
		t.Fatalf("the bundled policy scores %.3f first and %.3f alternating against risk-aware, want 0.907 and 0.852", ev.First.Mean, ev.Alternating.Mean)
	}
}
